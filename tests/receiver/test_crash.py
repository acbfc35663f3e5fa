"""Crash safety: a real receiver process is SIGKILLed at random points while deliveries stream in; no
acknowledged (2xx) decision is ever lost and the store always loads again."""

from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path

import httpx
import pytest

from exporter.receiver.store import Store

from .crashkit import Zygote, kill
from .helpers import WEBHOOK_TOKEN, alert, bearer, payload, records

TRIALS_PER_LANE = int(os.environ.get("CRASH_TRIALS", "25"))
LANES = 2  # independent stores killed in parallel: 50 trials in CI; `bench/receiver_store.py` runs >= 200


def lane(zygote: Zygote, directory: Path, seed: int, report: dict[str, object]) -> None:
    rng = random.Random(seed)
    config = directory / "canary.yaml"
    config.write_text(
        "receiver:\n  listen: 127.0.0.1:0\n  mode: enforce\n  store_dir: ./store\n"
        "  webhook_token: {env: CRASH_WEBHOOK}\n  admin_token: {env: CRASH_ADMIN}\n"
    )
    Store(directory / "store", init=True).close()  # once: every start after it opens the store
    acked: list[str] = []  # models whose suspension was acknowledged
    sent: list[dict[str, object]] = []
    torn = 0
    for trial in range(TRIALS_PER_LANE):
        pid, url = zygote.spawn(config)
        stop = threading.Event()
        progress = threading.Semaphore(0)  # released once per acknowledged delivery of this trial

        def deliver(
            trial: int = trial,
            url: str = url,
            stop: threading.Event = stop,
            progress: threading.Semaphore = progress,
        ) -> None:
            with httpx.Client(base_url=url, headers=bearer(WEBHOOK_TOKEN), timeout=5) as client:
                i = 0
                while not stop.is_set():
                    if sent and rng.random() < 0.3:  # redeliveries of earlier batches are normal
                        body, model = rng.choice(sent), None
                    else:
                        model = f"m{seed}-{trial}-{i}"
                        body = payload(alert("p/1", model=model, discovered="p/1,p/2,p/3"))
                        sent.append(body)
                    i += 1
                    try:
                        response = client.post("/v1/alerts", json=body)
                    except httpx.HTTPError:
                        return  # killed mid-request: not acknowledged
                    if response.status_code == 200 and model is not None:
                        acked.append(model)
                    progress.release()

        sender = threading.Thread(target=deliver)
        sender.start()
        # Kill after a random number of deliveries, at a random moment inside the next ones.
        for _ in range(rng.randint(0, 8)):
            progress.acquire(timeout=3)
        time.sleep(rng.uniform(0.0, 0.004))
        kill(pid)
        stop.set()
        sender.join()
        store = Store(directory / "store")  # must load, whatever the kill interrupted
        loaded = store.loaded
        try:
            suspended = {model for model, _ in records(loaded.state).suspensions}
        finally:
            store.close()
        torn += sum("torn" in w for w in loaded.warnings)
        lost = [m for m in acked if m not in suspended]
        assert not lost, f"trial {trial}: acknowledged suspensions lost: {lost}"
        assert suspended <= {b["alerts"][0]["labels"]["model"] for b in sent}  # type: ignore[index]
    report[str(seed)] = {"acked": len(acked), "torn": torn}


@pytest.mark.slow
def test_sigkill_at_random_points_never_loses_an_acknowledged_decision(tmp_path: Path) -> None:
    report: dict[str, object] = {}
    errors: list[BaseException] = []

    def run(seed: int) -> None:
        try:
            (tmp_path / str(seed)).mkdir()
            lane(zygote, tmp_path / str(seed), seed, report)
        except BaseException as exc:
            errors.append(exc)

    zygote = Zygote()
    try:
        threads = [threading.Thread(target=run, args=(seed,)) for seed in range(LANES)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        zygote.close()
    if errors:
        raise errors[0]
    assert sum(r["acked"] for r in report.values()) > TRIALS_PER_LANE  # type: ignore[index]
    print("crash trials:", report)


def test_a_receiver_that_cannot_start_fails_the_trial_instead_of_hanging_it(tmp_path: Path) -> None:
    zygote = Zygote()
    try:
        with pytest.raises(AssertionError, match=r"receiver did not start: 'exited 2"):
            zygote.spawn(tmp_path / "missing.yaml")
    finally:
        zygote.close()
