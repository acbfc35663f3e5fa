"""Benchmark: the latency the router client adds to a product's request (issue 28: within 1 ms p99 of a bare
client).

A loopback server answers every ``POST /api/v1/chat/completions`` with a streamed reply (SSE, 40 content
chunks, ~3 KB). The same ``httpx.Client`` setup sends the same 2 KB request body two ways, interleaved
in blocks of 50 requests so both see the same machine noise:

- bare: ``httpx.Client()``;
- router: ``canary_http_client(observer)``, the observer with everything on: the ignore list merged (five
  tags), a journal (SQLite, off the hot path), and the live judges (language judge included) judging every
  reply in their background thread.

Back to back (the default), the router's background work per reply (decoding it for the journal,
handing it to the judges' process) competes with its next request: that is its cost at saturation. With
``--rate R`` the requests are paced, as a product's arrive, and the figure is the latency it adds at that
rate.

Per request it times the first byte of the reply (what a streaming product shows first) and the whole reply
(read to its end), and reports medians, p99 and the router's added p99 (router minus bare).

Run: ``.venv/bin/python bench/router_overhead.py [--requests 2000] [--rate 50] [--no-judges]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exporter.router import IgnoreListClient, Journal, Observer, canary_http_client
from exporter.router.live import LiveJudges

MODEL = "acme/roleplay-large"
BLOCK = 50
WARM_UP_BLOCKS = 2
SENTENCE = "The lantern swung above the door as the traveller shook the rain from her cloak."
WORDS = SENTENCE.split(" ")


def _reply() -> bytes:
    head = {"id": "gen-1", "provider": "DeepInfra", "model": MODEL}
    chunks = [{**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}]
    chunks += [{**head, "choices": [{"index": 0, "delta": {"content": w + " "}}]} for w in WORDS * 3]
    chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


REPLY = _reply()


class Gateway(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(REPLY)))
        self.end_headers()
        self.wfile.write(REPLY)

    def log_message(self, *args: object) -> None:
        pass


def _once(http: httpx.Client, url: str, body: dict[str, object]) -> tuple[float, float]:
    started = time.perf_counter()
    first = 0.0
    with http.stream(
        "POST", url, json=body, headers={"X-Canary-User": "user-1", "X-Canary-Locale": "en"}
    ) as r:
        for _ in r.iter_bytes():
            if not first:
                first = time.perf_counter() - started
    return first, time.perf_counter() - started


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--no-judges", action="store_true", help="journal and ignore list only")
    parser.add_argument(
        "--rate", type=float, default=0.0, help="requests/s per client, paced (default 0: back to back)"
    )
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Gateway)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/api/v1/chat/completions"
    body: dict[str, object] = {
        "model": MODEL,
        "stream": True,
        "messages": [{"role": "user", "content": " ".join(WORDS * 25)}],  # ~2 KB
    }

    def receiver(request: httpx.Request) -> httpx.Response:
        tags = ["bad/1", "bad/2", "bad/3", "bad/4", "bad/5"]
        return httpx.Response(200, json={"model": MODEL, "ignore": tags})

    lists = IgnoreListClient("http://r", [MODEL], transport=httpx.MockTransport(receiver))
    lists.poll_once()
    with tempfile.TemporaryDirectory() as workdir:
        judges = LiveJudges().start()
        live = None if args.no_judges else judges
        observer = Observer(Journal(Path(workdir) / "journal.sqlite3"), lists=lists, live=live)
        bare_client, router_client = httpx.Client(), canary_http_client(observer)
        timings: dict[str, list[tuple[float, float]]] = {"bare": [], "router": []}
        # Blocks of BLOCK requests, alternating: both see the same machine noise, and the router's background
        # work (decoding, journaling, handing replies to the judges) lands on the router's own next requests,
        # as it does in a router's process. The first blocks warm up (connections, the judges' models).
        clients = {"bare": bare_client, "router": router_client}
        for block in range(2 * (args.requests // BLOCK + WARM_UP_BLOCKS)):
            name = ("bare", "router")[block % 2]
            for _ in range(BLOCK):
                if args.rate:
                    time.sleep(1 / args.rate)  # paced: a product's requests arrive, they do not queue
                measured = _once(clients[name], url, body)
                if block >= 2 * WARM_UP_BLOCKS:
                    timings[name].append(measured)
        observer.flush(30)
        judges.flush(60)
        stats = observer.stats()
        journal = observer.journal.stats() if observer.journal else None
        print(f"requests per client: {args.requests}; journal {journal}")
        print(f"observer {stats}; live judged {judges.judged()}, dropped {judges.dropped()}")
        for what, index in (("first byte", 0), ("whole reply", 1)):
            bare = [t[index] * 1000 for t in timings["bare"]]
            routed = [t[index] * 1000 for t in timings["router"]]
            medians = statistics.median(bare), statistics.median(routed)
            p99s = _p99(bare), _p99(routed)
            print(
                f"{what:12s} bare median {medians[0]:.3f} ms p99 {p99s[0]:.3f} ms | router median "
                f"{medians[1]:.3f} ms p99 {p99s[1]:.3f} ms | added: median "
                f"{medians[1] - medians[0]:+.3f} ms, p99 {p99s[1] - p99s[0]:+.3f} ms"
            )
        bare_client.close()
        router_client.close()
        observer.stop()
        judges.stop()
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
