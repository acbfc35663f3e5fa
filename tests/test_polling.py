"""The shared fail-static poller: one exchange drives both HTTP clients; the loops survive any error."""

from __future__ import annotations

import asyncio
import threading
import time

import httpx
import pytest

from exporter.polling import Exchange, Poller, exchange_async, exchange_sync


def _two_requests(seen: list[object]) -> Exchange[None]:
    seen.append((yield httpx.Request("GET", "http://r/a")))
    seen.append((yield httpx.Request("GET", "http://r/b")))


def _handler(request: httpx.Request) -> httpx.Response:
    if request.url.path == "/b":
        raise httpx.ConnectError("refused", request=request)
    return httpx.Response(200, text="ok")


def test_one_exchange_runs_on_the_sync_and_the_async_client_alike() -> None:
    sync_seen: list[object] = []
    with httpx.Client(transport=httpx.MockTransport(_handler)) as client:
        exchange_sync(client, _two_requests(sync_seen))

    async def handler(request: httpx.Request) -> httpx.Response:
        return _handler(request)

    async def run() -> list[object]:
        seen: list[object] = []
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
            await exchange_async(client, _two_requests(seen))
        return seen

    for seen in (sync_seen, asyncio.run(run())):
        first, second = seen
        assert isinstance(first, httpx.Response) and first.text == "ok"
        assert isinstance(second, httpx.ConnectError)  # a transport error is handed over, not raised


def test_the_thread_loop_survives_errors_and_stops(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []
    polled_twice = threading.Event()

    def poll() -> None:
        calls.append(1)
        if len(calls) >= 2:
            polled_twice.set()
        raise RuntimeError("a surprise")

    poller = Poller(poll, None, interval=0.001, name="test-poller")
    poller.start()
    assert polled_twice.wait(5)
    poller.stop(timeout=5)
    settled = len(calls)
    time.sleep(0.05)  # a loop still running would poll about 50 more times meanwhile
    assert len(calls) == settled
    assert "test-poller: poll failed" in caplog.text


def test_the_asyncio_loop_survives_errors_and_a_mode_not_offered_is_refused() -> None:
    calls: list[int] = []

    async def apoll() -> None:
        calls.append(1)
        raise RuntimeError("a surprise")

    async def scenario() -> None:
        task = asyncio.create_task(Poller(None, apoll, interval=0.001, name="p").run())
        while len(calls) < 3:  # noqa: ASYNC110 - waiting for the loop's own progress is the point
            await asyncio.sleep(0.001)
        task.cancel()

    asyncio.run(asyncio.wait_for(scenario(), 5))
    with pytest.raises(TypeError, match="only with asyncio"):
        Poller(None, apoll, interval=1, name="p").start()
    with pytest.raises(TypeError, match="only in a thread"):
        asyncio.run(Poller(lambda: None, None, interval=1, name="p").run())
