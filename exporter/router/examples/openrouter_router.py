"""Example: a product router that sends chat completions to OpenRouter with the canary's ignore list merged
into ``provider.ignore``.

Run (needs a receiver and an OpenRouter key; nothing here runs in the test suite against the internet)::

    export OPENROUTER_API_KEY=...
    python -m exporter.router.examples.openrouter_router --receiver http://127.0.0.1:9465 \\
        --model moonshotai/kimi-k2-0905 "Say hello in Portuguese."
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TypedDict

import httpx

from exporter.router import IgnoreListClient

OPENROUTER_URL = "https://openrouter.ai/api/v1"


class Completion(TypedDict):
    """What this example reads of a chat completion: the first choice's text and who served it."""

    choices: list[dict[str, dict[str, str]]]
    provider: str


class ProductRouter:
    """The product's own router: it asks the ignore-list client, never the receiver, on the request path."""

    def __init__(self, lists: IgnoreListClient, http: httpx.Client, api_key: str) -> None:
        self._lists = lists
        self._http = http
        self._api_key = api_key

    def build_request(self, model: str, messages: list[dict[str, str]]) -> dict[str, object]:
        body: dict[str, object] = {
            "model": model,
            "messages": messages,
            "provider": {"allow_fallbacks": True},
        }
        if self._lists.is_stale(model):
            # Fail static: keep routing with the last good list, but make the staleness visible.
            print(
                f"warning: ignore list for {model} is stale (age {self._lists.age_seconds(model)})",
                file=sys.stderr,
            )
        return self._lists.merge_ignore(body, model)

    def complete(self, model: str, messages: list[dict[str, str]]) -> Completion:
        response = self._http.post(
            "/chat/completions",
            json=self.build_request(model, messages),
            headers={"Authorization": f"Bearer {self._api_key}"},
        )
        response.raise_for_status()
        result: Completion = response.json()
        return result


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
    with lists, httpx.Client(base_url=OPENROUTER_URL, timeout=60) as http:
        router = ProductRouter(lists, http, api_key)
        reply = router.complete(args.model, [{"role": "user", "content": args.prompt}])
        print(reply["choices"][0]["message"]["content"])
        print(
            f"served by: {reply.get('provider')}; ignored: {', '.join(lists.ignored(args.model)) or 'none'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
