"""Provider Canary: probes every provider of an LLM model on machine-judged contracts.

Layout (each package is one part of the architecture in DESIGN §2):

- ``outcomes``, ``configkit``: the shared vocabulary and the typed configuration models (strict YAML reading);
- ``gateway``: talking to OpenRouter or an OpenAI-compatible host (discovery, pinned chat, SSE, outcome
  classification);
- ``contracts``: one module per contract (TTFT, refusal, structured output, language) and their registry;
- ``language``: the local, deterministic language and encoding judge;
- ``engine``: rounds, streaks and the snapshot the metrics are rendered from;
- ``simulator``: an OpenRouter-compatible gateway with a fleet of virtual providers;
- ``receiver``: the webhook receiver, ladder, capacity floor, store and ignore list;
- ``router``: the client a product's router embeds;
- ``routability``: the catalogue-wide model routability job;
- ``cli``: the ``canary`` command.
"""

__version__ = "0.1.0"
