"""The end-to-end stack on loopback: simulator, exporter and receiver as real processes, real Prometheus and
Alertmanager(s), a recording pass-through proxy per Alertmanager, and the router client.

Every process the stack starts is kept by PID and ended in ``close()`` (SIGTERM, then SIGKILL); nothing is
ever killed by name. Configs come from the shipped files (``exporter.devtools.pipeline``), so the rules,
routes and inhibition under test are exactly the ones the project ships; only intervals, addresses and token
paths differ.

Run the tests: ``.venv/bin/pytest tests/e2e`` (about 2.5 minutes; every test is marked ``e2e`` and ``slow``).

Example::

    with Stack(tmp / "stack", FLEETS / "enforce.yaml", mode="enforce") as stack:
        stack.wait_suspended("e2e/suspend", {"bad/a"}, what="suspension")
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx
import yaml

from exporter.devtools.pipeline import AlertmanagerProcess, PrometheusAlert, PrometheusProcess, Timings
from exporter.devtools.pipeline.processes import free_port
from exporter.receiver.store import init_store
from exporter.router.client import IgnoreListClient

REPO_ROOT = Path(__file__).resolve().parents[2]
FLEETS = Path(__file__).resolve().parent / "fleets"

#: Decision kinds that record a (would-be) suspension.
SUSPENDING = frozenset({"suspend", "escalate", "observe"})
# How long a started component may take to answer: it returns as soon as it does, so only a start that fails
# waits it out. A component imports the whole exporter first, which at load 20 on two cores took over 20 s.
READY_TIMEOUT = 60.0

T = TypeVar("T")


class StackError(RuntimeError):
    """A stack process did not start or a wait timed out; the message carries the evidence."""


@dataclass(frozen=True)
class Delivery:
    """One webhook POST an Alertmanager made, as the proxy in front of the receiver saw it."""

    at: float
    alertmanager: int
    status: int  # what the receiver answered (503 when it was unreachable)
    body: dict[str, Any]
    answer: str = ""  # the receiver's reply body (the proxy's own error when it was unreachable)

    def alerts(self) -> list[dict[str, Any]]:
        return list(self.body.get("alerts") or [])

    def answered(self) -> str:
        """What a failed assertion shows: the Alertmanager, the status, the receiver's (or proxy's) reply."""
        return f"alertmanager {self.alertmanager}: {self.status} {self.answer}"


class DeliveryProxy:
    """A pass-through HTTP proxy between one Alertmanager and the receiver that records every delivery.

    It forwards the body and the Authorization header unchanged and answers with the receiver's status; an
    unreachable receiver is a 503, which Alertmanager retries like any 5xx, as it would without the proxy.
    Each delivery is forwarded on a new connection: a pooled one could be closed by the receiver's keep-alive
    timeout (uvicorn's 5 s, the stack's repeat interval) just as the proxy reuses it, a failure of the proxy
    that Alertmanager, which holds its own connection, would not see.
    """

    def __init__(self, index: int, target: Callable[[], str]) -> None:
        self.index = index
        self._target = target
        self._lock = threading.Lock()
        self._deliveries: list[Delivery] = []
        self._client = httpx.Client(timeout=30.0, limits=httpx.Limits(max_keepalive_connections=0))
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                status, answer = outer._forward(self.path, raw, self.headers.get("Authorization", ""))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {}
                with outer._lock:
                    reply = answer.decode(errors="replace")[:500]
                    outer._deliveries.append(Delivery(time.time(), outer.index, status, body, reply))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def _forward(self, path: str, raw: bytes, authorization: str) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"}
        if authorization:
            headers["Authorization"] = authorization
        try:
            response = self._client.post(self._target() + path, content=raw, headers=headers)
        except httpx.HTTPError as error:
            return 503, json.dumps({"error": "receiver_unreachable", "message": str(error)}).encode()
        return response.status_code, response.content

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def deliveries(self) -> list[Delivery]:
        with self._lock:
            return list(self._deliveries)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._client.close()


class ChildProcess:
    """One of our own processes (``python -m exporter.commands.canary ...``), logged to a file, restartable
    by PID."""

    def __init__(self, name: str, argv: list[str], log_path: Path, env: Mapping[str, str]) -> None:
        self.name = name
        self.argv = argv
        self.log_path = log_path
        self.env = dict(env)
        self._popen: subprocess.Popen[bytes] | None = None
        self.pids: list[int] = []  # every PID this object ever started

    @property
    def running(self) -> bool:
        return self._popen is not None and self._popen.poll() is None

    @property
    def exited(self) -> int | None:
        """The exit code if the process was started and has exited, else None."""
        return None if self._popen is None else self._popen.poll()

    def start(self) -> None:
        if self.running:
            raise StackError(f"{self.name} is already running")
        with self.log_path.open("ab") as log:
            log.write(f"--- starting: {' '.join(self.argv)}\n".encode())
            log.flush()
            self._popen = subprocess.Popen(
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=REPO_ROOT,
                env=self.env,
                start_new_session=True,
            )
        self.pids.append(self._popen.pid)

    def stop(self, timeout: float = 10.0) -> None:
        popen, self._popen = self._popen, None
        if popen is None or popen.poll() is not None:
            return
        popen.send_signal(signal.SIGTERM)
        try:
            popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait(timeout=timeout)

    def log_tail(self, lines: int = 25) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


@dataclass
class StackSettings:
    """The compressed intervals of one stack (seconds)."""

    round_interval: float = 2.0
    concurrency: int = 64
    timings: Timings = field(
        default_factory=lambda: Timings(
            scrape_interval=0.5,
            evaluation_interval=0.5,
            group_wait=0.0,
            group_interval=1.0,
            repeat_interval=5.0,
            resend_delay=1.0,
        )
    )


class Stack:
    """simulator → exporter → Prometheus → Alertmanager(s) → proxy → receiver → router client, on loopback.

    ``alertmanagers`` > 1 starts a gossip cluster (every member delivers through its own proxy).
    """

    #: Seconds a finished round may take to become queryable (``settle``); more hops, more seconds.
    propagation_timeout = 10.0

    def __init__(
        self,
        work: Path,
        fleet: Path,
        *,
        mode: str = "enforce",
        alertmanagers: int = 1,
        settings: StackSettings | None = None,
        use_proxies: bool = True,
        chat_url: str | None = None,
        receiver_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.work = work.resolve()
        self.work.mkdir(parents=True, exist_ok=True)
        self.fleet_path = fleet
        self.fleet = yaml.safe_load(fleet.read_text(encoding="utf-8"))
        self.models = [m["id"] for m in self.fleet["models"]]
        self.mode = mode
        self.receiver_options = dict(receiver_options or {})  # extra keys of the receiver section
        self.settings = settings or StackSettings()
        self.sim_port, self.exporter_port, self.receiver_port = free_port(), free_port(), free_port()
        self.http = httpx.Client(timeout=5.0)
        self._closers: list[Callable[[], None]] = []
        self.proxies: list[DeliveryProxy] = []
        self.alertmanagers: list[AlertmanagerProcess] = []
        self.prometheus: PrometheusProcess | None = None

        self.webhook_token = self._secret("webhook.token")
        self.admin_token = self._secret("admin.token")
        self.gateway_key = self._secret("gateway.key")
        self.config_path = self.work / "canary.yaml"
        self.config_path.write_text(self._config_text(), encoding="utf-8")

        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        python = sys.executable
        cli = [python, "-m", "exporter.commands.canary", "--log-level", "INFO"]
        self.simulator = ChildProcess(
            "simulator",
            [*cli, "simulator", "--fleet", str(fleet), "--listen", f"127.0.0.1:{self.sim_port}"],
            self.work / "simulator.log",
            env,
        )
        self.receiver = ChildProcess(
            "receiver",
            [*cli, "receiver", "--config", str(self.config_path)],
            self.work / "receiver.log",
            env,
        )
        self.exporter = ChildProcess(
            "exporter", [*cli, "exporter", "--config", str(self.config_path)], self.work / "exporter.log", env
        )
        self._alertmanager_count = alertmanagers
        self._use_proxies = use_proxies
        self._chat_url = chat_url  # where the shipped chat receivers post (None: nowhere)

    # -- set-up ------------------------------------------------------------------------------------------
    def _secret(self, name: str) -> Path:
        path = self.work / name
        path.write_text(secrets.token_urlsafe(24) + "\n", encoding="utf-8")
        path.chmod(0o600)
        return path

    def _config_text(self) -> str:
        document = {
            "gateway": {
                "base_url": f"{self.sim_url}/api/v1",
                "api_key": {"file": str(self.gateway_key)},
                "timeout": "10s",
            },
            "models": [{"slug": model} for model in self.models],
            # The TTFT threshold must stay below the gateway timeout (check-config enforces it).
            "contracts": {"ttft": {"threshold": "5s"}},
            "rounds": {
                "interval": f"{self.settings.round_interval}s",
                "concurrency": self.settings.concurrency,
            },
            "exporter": {
                "listen": f"127.0.0.1:{self.exporter_port}",
                "external_url": self.exporter_url,
                "evidence": {"path": str(self.work / "evidence.sqlite3")},
            },
            "receiver": {
                "listen": f"127.0.0.1:{self.receiver_port}",
                "mode": self.mode,
                "store_dir": str(self.work / "receiver-store"),
                "webhook_token": {"file": str(self.webhook_token)},
                "admin_token": {"file": str(self.admin_token)},
                **self.receiver_options,
            },
        }
        return "# Generated by tests/e2e/stack.py\n" + yaml.safe_dump(document, sort_keys=False)

    @property
    def sim_url(self) -> str:
        return f"http://127.0.0.1:{self.sim_port}"

    @property
    def exporter_url(self) -> str:
        return f"http://127.0.0.1:{self.exporter_port}"

    @property
    def receiver_url(self) -> str:
        return f"http://127.0.0.1:{self.receiver_port}"

    def start(self) -> Self:
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def _start(self) -> None:
        self.simulator.start()
        self._closers.append(self.simulator.stop)
        self.wait_http(self.simulator, f"{self.sim_url}/api/v1/models")
        self.start_receiver()
        self._closers.append(self.receiver.stop)

        webhook_urls: list[str] = []
        for index in range(self._alertmanager_count):
            if self._use_proxies:
                proxy = DeliveryProxy(index, lambda: self.receiver_url)
                self.proxies.append(proxy)
                self._closers.append(proxy.close)
                webhook_urls.append(f"{proxy.url}/v1/alerts")
            else:
                webhook_urls.append(f"{self.receiver_url}/v1/alerts")
        clustered = self._alertmanager_count > 1
        for index, url in enumerate(webhook_urls):
            peers = [self.alertmanagers[0].cluster_address] if clustered and index else []
            am = AlertmanagerProcess(
                self.work / f"alertmanager{index}",
                webhook_url=url,
                token_file=self.webhook_token,
                timings=self.settings.timings,
                cluster=clustered,
                peers=peers,
                chat_url=self._chat_url,
            )
            self.alertmanagers.append(am)
            self._closers.append(am.close)
            am.start()

        self._start_rules()
        self.start_exporter()
        self._closers.append(self.exporter.stop)

    def _start_rules(self) -> None:
        """Prometheus scraping the exporter and the receiver and evaluating the shipped rules."""
        self.prometheus = PrometheusProcess(
            self.work / "prometheus",
            targets={
                "canary-exporter": f"127.0.0.1:{self.exporter_port}",
                "canary-receiver": f"127.0.0.1:{self.receiver_port}",
                "alertmanager": self.alertmanagers[0].address,
            },
            alertmanagers=[am.address for am in self.alertmanagers],
            timings=self.settings.timings,
        )
        self._closers.append(self.prometheus.close)
        self.prometheus.start()  # returns once it has discovered every Alertmanager

    @property
    def query_url(self) -> str:
        """Where PromQL queries go (the Prometheus HTTP API of whatever stores the samples)."""
        assert self.prometheus is not None
        return self.prometheus.url

    def ruler_alerts(self) -> list[PrometheusAlert]:
        """Pending and firing alerts of the rule evaluator."""
        assert self.prometheus is not None
        return self.prometheus.alerts()

    def start_receiver(self) -> None:
        # the first-run step as in docker-compose.yml's receiver-init: creates the store only in an empty
        # directory, proves an existing one; the receiver itself never gets --init
        init_store(self.work / "receiver-store")
        self.receiver.start()
        self.wait_http(self.receiver, f"{self.receiver_url}/healthz")

    def start_exporter(self) -> None:
        self.exporter.start()
        self.wait_http(self.exporter, f"{self.exporter_url}/healthz")

    def restart_exporter(self) -> None:
        self.exporter.stop()
        self.start_exporter()

    def restart_receiver(self) -> None:
        self.receiver.stop()
        self.start_receiver()

    def close(self) -> None:
        for closer in reversed(self._closers):
            try:
                closer()
            except Exception as error:  # keep closing the rest; report on stderr
                print(f"e2e stack: closing failed: {error!r}", file=sys.stderr)
        self._closers.clear()
        self.http.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def pids(self) -> list[int]:
        """Every PID of our own processes (simulator, receiver, exporter, restarts included) started here.

        Prometheus and Alertmanager are started and stopped by ``exporter.devtools.pipeline``'s launchers.
        """
        return [*self.simulator.pids, *self.receiver.pids, *self.exporter.pids]

    # -- waiting -----------------------------------------------------------------------------------------
    def wait_http(self, process: ChildProcess, url: str, timeout: float = READY_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.exited is not None:
                raise StackError(
                    f"{process.name} exited with {process.exited}; log {process.log_path}:\n"
                    f"{process.log_tail()}"
                )
            try:
                if self.http.get(url).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise StackError(f"{process.name}: {url} not ready after {timeout} s:\n{process.log_tail()}")

    def wait_for(
        self,
        probe: Callable[[], T],
        *,
        what: str,
        timeout: float = 30.0,
        interval: float = 0.2,
        context: Callable[[], object] | None = None,
    ) -> T:
        """Poll ``probe`` until it returns something truthy; on timeout, fail with ``context()`` shown."""
        deadline = time.monotonic() + timeout
        last: T | None = None
        while True:
            for child in (self.simulator, self.receiver, self.exporter):
                if child.exited is not None and child.pids:
                    raise StackError(f"{child.name} died while waiting for {what}:\n{child.log_tail()}")
            try:
                last = probe()
            except httpx.HTTPError:
                last = None
            if last:
                return last
            if time.monotonic() >= deadline:
                shown = context() if context is not None else last
                raise StackError(f"timed out after {timeout} s waiting for {what}; last seen: {shown!r}")
            time.sleep(interval)

    def wait_suspended(self, model: str, hosts: Iterable[str], *, what: str, timeout: float = 30.0) -> None:
        """Wait until exactly ``hosts`` of ``model`` are suspended; a timeout shows the model's state."""
        wanted = set(hosts)
        self.wait_for(
            lambda: self.suspended(model) == wanted,
            what=what,
            timeout=timeout,
            context=lambda: self.describe(model),
        )

    # -- the simulator -----------------------------------------------------------------------------------
    def patch_provider(
        self, model: str, tag: str, patch: Mapping[str, Any], *, replace: bool = False
    ) -> None:
        """Change one virtual provider's fault profile (``replace``: start from a healthy profile)."""
        response = self.http.post(
            f"{self.sim_url}/_sim/providers/{model}/{tag}",
            params={"replace": "true"} if replace else None,
            json=dict(patch),
        )
        response.raise_for_status()

    def set_outage(self, on: bool) -> None:
        self.http.post(f"{self.sim_url}/_sim/outage", json={"on": on}).raise_for_status()

    # -- the exporter ------------------------------------------------------------------------------------
    def exporter_state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.http.get(f"{self.exporter_url}/v1/state").json()
        return state

    def round_number(self) -> int:
        """Rounds completed by the running exporter process (0 after a restart, until its first round)."""
        try:
            return int(self.exporter_state().get("round") or 0)
        except httpx.HTTPError:
            return 0

    def wait_rounds(self, count: int, *, timeout: float | None = None) -> int:
        """Wait until ``count`` more rounds have completed; returns the round number reached."""
        target = self.round_number() + count
        limit = timeout if timeout is not None else count * self.settings.round_interval * 3 + 10
        return self.wait_for(
            lambda: (n := self.round_number()) >= target and n,
            what=f"exporter round {target}",
            timeout=limit,
        )

    def streaks(self, model: str) -> dict[str, dict[str, Any]]:
        """Per provider of ``model``: ``{"failing": {contract: n}, "outcomes": {contract: o}, "clean": n}``.

        The exporter's own view of its last round (``/v1/state``).
        """
        providers = self.exporter_state()["models"].get(model, {}).get("providers", {})
        return {
            tag: {
                "failing": {c: v["failing_streak"] for c, v in p["contracts"].items()},
                "outcomes": {c: v["outcome"] for c, v in p["contracts"].items()},
                "clean": p["clean_streak"],
            }
            for tag, p in providers.items()
        }

    # -- the receiver ------------------------------------------------------------------------------------
    def decisions(self, model: str | None = None) -> list[dict[str, Any]]:
        """Every decision in the receiver's log (oldest first), optionally only those about ``model``."""
        out: list[dict[str, Any]] = []
        since = 0
        while True:
            page = self.http.get(
                f"{self.receiver_url}/v1/decisions", params={"since": since, "limit": 1000}
            ).json()
            out += page["decisions"]
            if len(page["decisions"]) < 1000:
                break
            since = page["next_since"]
        return [d for d in out if model is None or d.get("model") == model]

    def decided(self, model: str, kinds: Iterable[str]) -> list[tuple[str, str]]:
        """(kind, provider) of every decision about ``model`` whose kind is in ``kinds``, in order."""
        wanted = set(kinds)
        return [(d["kind"], d["provider"]) for d in self.decisions(model) if d["kind"] in wanted]

    def counted(self, kind: str) -> float:
        """The receiver's ``canary_receiver_decisions_total`` for ``kind``: journaled decisions and the
        repeats of known episodes, which are counted but not journaled (issue 13)."""
        text = self.http.get(f"{self.receiver_url}/metrics").text
        prefix = f'canary_receiver_decisions_total{{kind="{kind}"}}'
        return next(float(line.split()[-1]) for line in text.splitlines() if line.startswith(prefix))

    def suspended(self, model: str) -> set[str]:
        """Providers of ``model`` with a current (or, in observe mode, would-be) suspension."""
        document = self.http.get(f"{self.receiver_url}/v1/suspensions").json()
        return {s["provider"] for s in document["suspensions"] if s["model"] == model}

    def suspensions(self, model: str) -> list[dict[str, Any]]:
        document = self.http.get(f"{self.receiver_url}/v1/suspensions").json()
        return [s for s in document["suspensions"] if s["model"] == model]

    def router(self, models: Iterable[str] | None = None) -> IgnoreListClient:
        """A router client for ``models`` (default: every model of the fleet), not yet polled."""
        return IgnoreListClient(self.receiver_url, list(models or self.models), poll_interval=0.2)

    def ignore_list(self, model: str) -> set[str]:
        """The ignore list a router gets for ``model`` (polled once through the router client)."""
        client = self.router([model])
        refreshed = client.poll_once()
        if not refreshed.get(model):
            raise StackError(f"router client could not fetch the ignore list: {client.last_error(model)}")
        return set(client.ignored(model))

    # -- Prometheus / Alertmanager -----------------------------------------------------------------------
    def firing(self, alertname: str, **labels: str) -> list[dict[str, str]]:
        """Labels of every firing Prometheus alert named ``alertname`` matching ``labels``."""
        return [
            a.labels
            for a in self.ruler_alerts()
            if a.state == "firing"
            and a.labels.get("alertname") == alertname
            and all(a.labels.get(k) == v for k, v in labels.items())
        ]

    def query(self, expr: str, at: float | None = None) -> list[tuple[dict[str, str], float]]:
        """An instant PromQL query, now or at unix time ``at``: (labels, value) per sample."""
        params = {"query": expr} if at is None else {"query": expr, "time": f"{at:.3f}"}
        body = self.http.get(f"{self.query_url}/api/v1/query", params=params).json()
        if body.get("status") != "success":
            raise StackError(f"query {expr!r} failed: {body}")
        return [(dict(item["metric"]), float(item["value"][1])) for item in body["data"]["result"]]

    def value(self, expr: str, at: float | None = None) -> float | None:
        """The single value of an instant query, or None when it returns nothing."""
        samples = self.query(expr, at)
        if len(samples) > 1:
            raise StackError(f"query {expr!r} returned {len(samples)} series, expected at most one")
        return samples[0][1] if samples else None

    def ever_fired(self, alertname: str, seconds: float, **labels: str) -> list[dict[str, str]]:
        """Label sets of ``alertname`` that were firing at any evaluation in the last ``seconds``."""
        selector = ",".join(
            [f'alertname="{alertname}"', 'alertstate="firing"'] + [f'{k}="{v}"' for k, v in labels.items()]
        )
        window = f"{max(1, round(seconds))}s"
        return [labels for labels, _ in self.query(f"max_over_time(ALERTS{{{selector}}}[{window}])")]

    def settle(self) -> None:
        """Wait until the exporter's latest round has gone through Prometheus and one Alertmanager flush.

        Bounded: one scrape to see the round, then one rule evaluation and one group interval (plus slack)
        for whatever it triggered to be delivered; used before asserting that something did NOT happen.
        """
        target = self.round_number()
        self.wait_for(
            lambda: any(v >= target for _, v in self.query("canary_rounds_total")),
            what=f"Prometheus to scrape round {target}",
            timeout=self.propagation_timeout,
        )
        timings = self.settings.timings
        time.sleep(timings.evaluation_interval + timings.group_interval + 1.0)

    def delivered(
        self, model: str, provider: str, alertname: str = "CanaryProviderFailing"
    ) -> list[Delivery]:
        """Deliveries (through any proxy) carrying a firing ``alertname`` for (model, provider)."""
        out = []
        for proxy in self.proxies:
            for delivery in proxy.deliveries():
                if any(
                    a.get("status") == "firing"
                    and a.get("labels", {}).get("alertname") == alertname
                    and a.get("labels", {}).get("model") == model
                    and a.get("labels", {}).get("provider") == provider
                    for a in delivery.alerts()
                ):
                    out.append(delivery)
        return out

    def describe(self, model: str) -> dict[str, Any]:
        """What a failed wait shows: streaks, decisions and suspensions of ``model``."""
        try:
            return {
                "round": self.round_number(),
                "streaks": self.streaks(model),
                "decisions": [(d["kind"], d.get("provider"), d["reason"]) for d in self.decisions(model)],
                "suspended": sorted(self.suspended(model)),
            }
        except (httpx.HTTPError, KeyError) as error:
            return {"error": repr(error)}
