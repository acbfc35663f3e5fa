"""Talking to OpenRouter or a plain OpenAI-compatible host: discovery, pinned chat, SSE, classification."""
