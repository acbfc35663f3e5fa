"""The router client: ETag polling, union merge, never blocking, fail-static with the list's age."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from pathlib import Path

import httpx
import pytest

from exporter.router import IgnoreListClient, Observer, merge_ignore_tags
from exporter.router.examples.openrouter_router import product_client
from tests.virtual_time import loop_clock, run_virtual


class FakeReceiver:
    """A MockTransport handler serving one ignore list with ETags; can be switched off."""

    def __init__(self) -> None:
        self.tags = ["bad/1"]
        self.down = False
        self.requests: list[httpx.Request] = []

    def body(self, model: str) -> bytes:
        return json.dumps({"model": model, "ignore": self.tags, "entries": [], "generated_at": "x"}).encode()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        model = request.url.params["model"]
        etag = f'"{len(self.tags)}-{",".join(self.tags)}"'
        if request.headers.get("if-none-match") == etag:
            return httpx.Response(304, headers={"ETag": etag})
        return httpx.Response(200, content=self.body(model), headers={"ETag": etag})


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_polls_with_etags_and_reports_age() -> None:
    fake, clock = FakeReceiver(), Clock()
    client = IgnoreListClient(
        "http://r", ["m/x"], poll_interval=10, transport=httpx.MockTransport(fake), clock=clock
    )
    assert client.is_stale("m/x") and client.age_seconds("m/x") is None
    assert client.poll_once() == {"m/x": True}
    assert client.ignored("m/x") == ("bad/1",) and client.age_seconds("m/x") == 0
    clock.now += 5
    client.poll_once()
    assert fake.requests[-1].headers["if-none-match"] == '"1-bad/1"'
    assert client.age_seconds("m/x") == 0  # a 304 confirms the list
    fake.tags = ["bad/1", "worse/2"]
    client.poll_once()
    assert client.ignored("m/x") == ("bad/1", "worse/2")


def test_fails_static_when_the_receiver_is_down_or_answers_nonsense() -> None:
    fake, clock = FakeReceiver(), Clock()
    client = IgnoreListClient(
        "http://r", ["m/x"], poll_interval=10, transport=httpx.MockTransport(fake), clock=clock
    )
    client.poll_once()
    fake.down = True
    clock.now += 31
    assert client.poll_once() == {"m/x": False}
    assert client.ignored("m/x") == ("bad/1",)  # the last good list is still served
    assert client.is_stale("m/x") and client.age_seconds("m/x") == 31
    assert "ConnectError" in (client.last_error("m/x") or "")
    broken = IgnoreListClient(
        "http://r",
        ["m/x"],
        transport=httpx.MockTransport(
            lambda r: httpx.Response(200, content=b'{"model": "other", "ignore": []}')
        ),
    )
    assert broken.poll_once() == {"m/x": False} and broken.ignored("m/x") == ()


def test_merge_is_a_union_that_never_removes_and_never_mutates() -> None:
    request = {"model": "m/x", "provider": {"ignore": ["mine/1", "bad/1"], "sort": "price"}}
    merged = merge_ignore_tags(request, ["bad/1", "a/2"])
    assert merged == {"model": "m/x", "provider": {"ignore": ["mine/1", "bad/1", "a/2"], "sort": "price"}}
    assert request["provider"] == {"ignore": ["mine/1", "bad/1"], "sort": "price"}
    assert merge_ignore_tags({"model": "m"}, []) == {"model": "m"}
    assert merge_ignore_tags({"model": "m"}, ["x/1"]) == {"model": "m", "provider": {"ignore": ["x/1"]}}


def test_merge_never_waits_for_the_network() -> None:
    polling, release = threading.Event(), threading.Event()

    def stuck(request: httpx.Request) -> httpx.Response:
        polling.set()
        release.wait(10)
        return httpx.Response(500)

    client = IgnoreListClient("http://r", ["m/x"], poll_interval=60, transport=httpx.MockTransport(stuck))
    with client:
        assert polling.wait(10)  # a background poll is stuck in the transport...
        assert client.merge_ignore({"model": "m/x"}) == {"model": "m/x"}
        assert not release.is_set()  # ...and merging answered all the same: no timing window involved
        release.set()


def test_asyncio_polling() -> None:
    fake = FakeReceiver()

    async def handler(request: httpx.Request) -> httpx.Response:
        return fake(request)

    client = IgnoreListClient(
        "http://r",
        ["m/x", "m/y"],
        poll_interval=0.01,
        transport=httpx.MockTransport(handler),
        clock=loop_clock,
    )

    async def scenario() -> None:
        task = asyncio.create_task(client.run())
        while client.is_stale("m/y"):  # noqa: ASYNC110 - polling the client's public state is the point
            await asyncio.sleep(0.005)
        task.cancel()

    run_virtual(asyncio.wait_for(scenario(), 5))  # virtual time: the load of the machine cannot stretch it
    assert client.ignored("m/y") == ("bad/1",)


def test_against_a_real_receiver_and_the_example_router(tmp_path: Path) -> None:
    from exporter.configkit import Secret
    from exporter.receiver.config import ReceiverConfig
    from exporter.receiver.server import ReceiverServer
    from exporter.receiver.state import Mode

    config = ReceiverConfig(
        store_dir=tmp_path,
        webhook_token=Secret("env:W", "w"),
        admin_token=Secret("env:A", "a"),
        mode=Mode.ENFORCE,
    )
    with ReceiverServer(config) as server:
        httpx.post(
            server.base_url + "/v1/admin/incidents",
            json={"model": "m/x", "provider": "down/1", "reason": "outage"},
            headers={"Authorization": "Bearer a"},
        ).raise_for_status()
        lists = IgnoreListClient(server.base_url, ["m/x"], poll_interval=0.05)
        with lists:
            deadline = time.monotonic() + 60  # a bound against hanging, not a window: left when ready
            while lists.ignored("m/x") != ("down/1",) and time.monotonic() < deadline:
                time.sleep(0.01)
            sent: list[httpx.Request] = []

            def openrouter(request: httpx.Request) -> httpx.Response:
                sent.append(request)
                return httpx.Response(200, json={})

            with (
                Observer(lists=lists) as observer,
                product_client(observer, "k", httpx.MockTransport(openrouter)) as http,
            ):
                http.post("/chat/completions", json={"model": "m/x", "messages": []})
        assert json.loads(sent[0].content)["provider"]["ignore"] == ["down/1"]
        assert sent[0].url == "https://openrouter.ai/api/v1/chat/completions"
        assert sent[0].headers["authorization"] == "Bearer k"


def test_asyncio_polling_survives_an_unexpected_error(caplog: pytest.LogCaptureFixture) -> None:
    """A bug or surprise in one poll is logged and polling goes on; the task never dies silently."""
    fake = FakeReceiver()
    calls = {"n": 0}

    async def handler(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("surprise")  # not an httpx.HTTPError
        return fake(request)

    client = IgnoreListClient(
        "http://r", ["m/x"], poll_interval=0.01, transport=httpx.MockTransport(handler), clock=loop_clock
    )

    async def scenario() -> bool:
        task = asyncio.create_task(client.run())
        while client.is_stale("m/x") and not task.done():  # noqa: ASYNC110 - polling public state
            await asyncio.sleep(0.005)
        alive = not task.done()
        task.cancel()
        return alive

    with caplog.at_level(logging.ERROR, logger="canary.router"):
        alive = run_virtual(asyncio.wait_for(scenario(), 5))
    assert alive
    assert client.ignored("m/x") == ("bad/1",)
    assert any(r.exc_info and "surprise" in str(r.exc_info[1]) for r in caplog.records)


def test_a_cold_start_without_the_receiver_applies_the_built_in_exclusions_and_says_degraded(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from prometheus_client import CollectorRegistry, generate_latest

    from exporter.paths import REPO_ROOT
    from exporter.router import Observer
    from exporter.router.builtin import load_builtin_exclusions
    from exporter.router.metrics import RouterCollector

    builtin = load_builtin_exclusions(REPO_ROOT / "config" / "builtin-exclusions.yaml")
    assert builtin == {"moonshotai/kimi-k2-0905": ("strictguard/text",)}
    fake, clock = FakeReceiver(), Clock()
    fake.down = True
    model = "moonshotai/kimi-k2-0905"
    client = IgnoreListClient(
        "http://r", [model], transport=httpx.MockTransport(fake), clock=clock, builtin=builtin
    )
    assert client.poll_once() == {model: False}
    assert client.ignored(model) == ("strictguard/text",)  # not every host: the reviewed exclusions
    assert client.merge_ignore({"model": model})["provider"] == {"ignore": ["strictguard/text"]}
    assert client.status(model) == "cold" and client.degraded
    assert "degraded" in caplog.text and "keeping the last good list" not in caplog.text
    registry = CollectorRegistry()
    registry.register(RouterCollector(Observer(), lists=client))
    text = generate_latest(registry).decode()
    assert f'canary_router_ignore_list_status{{model="{model}",status="cold"}} 1.0' in text
    fake.down = False  # the receiver answers: its list replaces the built-in one, fresh
    assert client.poll_once() == {model: True}
    assert client.ignored(model) == ("bad/1",) and client.status(model) == "ok" and not client.degraded
    clock.now += client.stale_after + 1
    assert client.status(model) == "stale" and client.degraded
