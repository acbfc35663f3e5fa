"""Example: a product router that sends chat completions to OpenRouter through the canary's transport, which
merges the receiver's ignore list into every request's ``provider.ignore`` (in memory, never a network wait).

Run (needs a receiver and an OpenRouter key; nothing here runs in the test suite against the internet)::

    export OPENROUTER_API_KEY=...
    python -m exporter.router.examples.openrouter_router --receiver http://127.0.0.1:9465 \\
        --model moonshotai/kimi-k2-0905 "Say hello in Portuguese."
"""

from __future__ import annotations

import argparse
import os
import sys

import httpx

from exporter.router import IgnoreListClient, Observer, canary_http_client

OPENROUTER_URL = "https://openrouter.ai/api/v1"


def product_client(
    observer: Observer, api_key: str, transport: httpx.BaseTransport | None = None
) -> httpx.Client:
    """The product's HTTP client: its requests go through ``observer``, which asks the ignore-list client,
    never the receiver, on the request path (``transport`` is the network below the canary's, for tests)."""
    headers = {"Authorization": f"Bearer {api_key}"}
    return canary_http_client(
        observer, base_url=OPENROUTER_URL, headers=headers, timeout=60, transport=transport
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--receiver", default="http://127.0.0.1:9465")
    parser.add_argument("--model", default="moonshotai/kimi-k2-0905")
    parser.add_argument("prompt")
    args = parser.parse_args(argv)
    api_key = os.environ.get("OPENROUTER_API_KEY", "")
    if not api_key:
        print("set OPENROUTER_API_KEY", file=sys.stderr)
        return 2
    lists = IgnoreListClient(args.receiver, [args.model], poll_interval=30)
    lists.poll_once()  # optional warm-up; the background thread keeps it fresh afterwards
    with lists, Observer(lists=lists) as observer, product_client(observer, api_key) as http:
        if lists.is_stale(args.model):  # fail static: keep routing with the last good list, but say so
            age = lists.age_seconds(args.model)
            print(f"warning: ignore list for {args.model} is stale (age {age})", file=sys.stderr)
        messages = [{"role": "user", "content": args.prompt}]
        body = {"model": args.model, "messages": messages, "provider": {"allow_fallbacks": True}}
        reply = http.post("/chat/completions", json=body).raise_for_status().json()
        print(reply["choices"][0]["message"]["content"])
        print(
            f"served by: {reply.get('provider')}; ignored: {', '.join(lists.ignored(args.model)) or 'none'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
