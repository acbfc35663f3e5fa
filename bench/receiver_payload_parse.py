"""Benchmark: the cost of reading one webhook body (strict JSON decode + payload validation), per delivery.

    .venv/bin/python bench/receiver_payload_parse.py [--baseline DIR] [--rounds 7] [--number 2000]

Times ``decode_json`` + ``parse_notification`` on three bodies: the one-alert delivery of
``bench/receiver_webhook.py``, the real Alertmanager fixture (two alerts) and a 100-alert delivery. With
``--baseline DIR`` (another checkout, e.g. ``git archive main | tar -x -C DIR``) the same measurement runs
alternately in subprocesses importing ``exporter`` from DIR and from this tree, so both share the machine's
noise; prints medians of microseconds per body and the ratio this tree / baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent

_MEASURE = r"""
import json, sys, time
from pathlib import Path
from exporter.receiver.payloads import parse_notification
from exporter.web.body import decode_json
bodies = json.loads(sys.argv[1]); number = int(sys.argv[2])
out = {}
for name, text in bodies.items():
    raw = text.encode()
    assert not hasattr(parse_notification(decode_json(raw)), "problems"), name
    start = time.perf_counter()
    for _ in range(number):
        parse_notification(decode_json(raw))
    out[name] = (time.perf_counter() - start) / number * 1e6
print(json.dumps(out))
"""


def bodies() -> dict[str, str]:
    sys.path.insert(0, str(HERE))
    from receiver_webhook import delivery

    one = delivery(1, "parse").decode()
    fixture = (TREE / "tests" / "receiver" / "fixtures" / "alertmanager_v4.json").read_text()
    many = json.loads(one)
    many["alerts"] = [
        {**many["alerts"][0], "labels": {**many["alerts"][0]["labels"], "provider": f"h{i}/fp8"}}
        for i in range(100)
    ]
    return {"1 alert": one, "alertmanager fixture": fixture, "100 alerts": json.dumps(many)}


def measure(tree: Path, payloads: dict[str, str], number: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, json.dumps(payloads), str(number)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
    )
    return dict(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", type=Path, help="a checkout to compare with (e.g. main)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args()
    payloads = bodies()
    trees = {"this tree": TREE, **({"baseline": args.baseline} if args.baseline else {})}
    runs: dict[str, dict[str, list[float]]] = {t: {} for t in trees}
    for _ in range(args.rounds):
        for label, tree in trees.items():  # alternate, so both see the same load
            for name, micros in measure(tree, payloads, args.number).items():
                runs[label].setdefault(name, []).append(micros)
    print(f"{args.rounds} rounds x {args.number} bodies, medians of us per body (decode + validate)")
    print(f"{'body':<22} {'this tree':>10} {'baseline':>10} {'ratio':>7}")
    for name in payloads:
        mine = statistics.median(runs["this tree"][name])
        base = statistics.median(runs["baseline"][name]) if args.baseline else float("nan")
        print(f"{name:<22} {mine:>10.1f} {base:>10.1f} {mine / base:>7.2f}")


if __name__ == "__main__":
    main()
