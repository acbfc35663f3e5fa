"""Real Prometheus and Alertmanager processes on loopback, for the demo and the end-to-end tests.

Each process owns a work directory holding its generated config, its data and its log file (kept after
``stop()`` for debugging). Configs are generated from the shipped ``config/*.yml`` by ``configs`` so a local
run exercises the project's own jobs, rules, routes and inhibition. Ports are chosen at construction (free
loopback ports unless given), so addresses are known before anything starts.

Errors::

    PipelineError               a process did not become ready, exited, or an API call failed
    └── MissingBinaryError      prometheus / prometheus-alertmanager is not installed

Example::

    with AlertmanagerProcess(work / "am", webhook_url=sink_url, token_file=token) as am, PrometheusProcess(
        work / "prom", targets={"canary-exporter": exporter}, alertmanagers=[am.address]
    ) as prom:
        prom.query('ALERTS{alertname="CanaryProviderFailing"}')
        silence = am.add_silence({"provider": "groq"}, duration=3600)
"""

from __future__ import annotations

import datetime as dt
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import httpx
import yaml

from exporter.devtools.pipeline.configs import (
    SHIPPED_ALERTMANAGER_CONFIG,
    SHIPPED_PROMETHEUS_CONFIG,
    Timings,
    alertmanager_config,
    duration,
    load_yaml,
    prometheus_config,
    scrape_config,
    shipped_rule_globs,
)
from exporter.lifecycle import StartStop

INSTALL_HINT = "install them with: apt-get install prometheus prometheus-alertmanager victoria-metrics"


class PipelineError(RuntimeError):
    """A pipeline process did not start, became unready, or answered an API call with an error."""


class MissingBinaryError(PipelineError):
    """A Prometheus/Alertmanager binary is not installed or not executable."""


def find_binary(name: str) -> Path:
    """The path of the executable ``name`` on PATH.

    Example::

        find_binary("prometheus")   # PosixPath('/usr/bin/prometheus')
    """
    found = shutil.which(name)
    if found is None:
        raise MissingBinaryError(f"{name}: not found on PATH; {INSTALL_HINT}")
    return Path(found)


#: Ports this process has handed out, so two daemons built in one run never get the same one.
_HANDED_OUT: set[int] = set()
_PORT_FLOOR = 10_000


def _ephemeral_range() -> tuple[int, int]:
    """The kernel's range for outgoing connections' local ports (Linux; the IANA range elsewhere)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 49152, 65535


def _bindable(port: int) -> bool:
    """Whether ``port`` on 127.0.0.1 can be bound now for TCP and for UDP (gossip listens on both)."""
    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
        with socket.socket(socket.AF_INET, kind) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


def _claim(port: int) -> bool:
    """Hand ``port`` out if it was not handed out before and can be bound now."""
    if port in _HANDED_OUT or not _bindable(port):
        return False
    _HANDED_OUT.add(port)
    return True


def free_port() -> int:
    """A loopback port free for TCP and UDP a moment ago, below the kernel's ephemeral range.

    A port the kernel picks for ``bind(0)`` comes from the range it also gives outgoing connections, so
    between this call and the daemon's own bind any connection the test run opens can take it ("bind:
    address already in use"). Ports below that range are only taken by an explicit bind, so a port chosen
    there and checked free stays free; the ports handed out in this process are never handed out again.
    """
    low, _high = _ephemeral_range()
    candidates = range(_PORT_FLOOR, low)
    for _ in range(200 if len(candidates) >= 1_000 else 0):
        port = random.choice(candidates)  # noqa: S311 - spreading ports, not a secret
        if _claim(port):
            return port
    # No usable range below the ephemeral one: let the kernel pick (the old race, on odd kernels only).
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if _claim(port):
            return port


@dataclass(frozen=True)
class Sample:
    """One element of an instant-query result vector."""

    labels: dict[str, str]
    value: float


@dataclass(frozen=True)
class PrometheusAlert:
    """An alert as Prometheus's rule manager holds it (``state`` is ``pending`` or ``firing``)."""

    labels: dict[str, str]
    annotations: dict[str, str]
    state: str
    value: float


@dataclass(frozen=True)
class AlertmanagerAlert:
    """An alert as Alertmanager holds it (``state`` is ``active``, ``suppressed`` or ``unprocessed``)."""

    labels: dict[str, str]
    state: str
    starts_at: str
    silenced_by: tuple[str, ...] = field(default=())
    inhibited_by: tuple[str, ...] = field(default=())


@dataclass(eq=False, kw_only=True)
class _Daemon(StartStop):
    """Start/stop/readiness plumbing shared by every process; a subclass is its description: the binary,
    the readiness path, the config file it renders (if any), its own settings as fields, and its flags.

    ``port`` defaults to a free loopback port; the binary is ``binary_name`` looked up on PATH.
    """

    binary_name: ClassVar[str] = ""
    ready_path: ClassVar[str] = "/-/ready"
    #: The file name of the config a subclass renders into its work dir (None: configured by flags only).
    config_name: ClassVar[str | None] = None

    work_dir: Path = field(kw_only=False)
    port: int = field(default_factory=free_port)
    ready_timeout: float = 30.0

    def __post_init__(self) -> None:
        self.work_dir = self.work_dir.resolve()
        self.executable = find_binary(self.binary_name)
        self.log_path = self.work_dir / f"{self.binary_name}.log"
        self._process: subprocess.Popen[bytes] | None = None
        self._http_client: httpx.Client | None = None
        self._render()  # validate now (bad job names, missing rule files) rather than at start

    # -- public surface ------------------------------------------------------------------------------------

    @property
    def address(self) -> str:
        """``127.0.0.1:PORT``, the form scrape targets and alertmanager lists take."""
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The base URL (also passed as ``--web.external-url`` so links in payloads use it)."""
        return f"http://{self.address}"

    @property
    def running(self) -> bool:
        """Whether the process was started and has not exited."""
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Write the config, start the process and wait until it is ready; raise ``PipelineError`` if not."""
        if self.running:
            raise PipelineError(f"{self.binary_name} on {self.address} is already running")
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self._write_config()
        argv = [str(self.executable), *self._flags()]
        with self.log_path.open("ab") as log:
            log.write(f"--- starting: {' '.join(argv)}\n".encode())
            log.flush()
            self._process = subprocess.Popen(  # noqa: S603 - argv built from our own values, no shell
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.work_dir,
                start_new_session=True,
            )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the process (SIGTERM, then SIGKILL after ``timeout``); idempotent. Logs stay on disk."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)

    def restart(self) -> None:
        """Stop and start again on the same ports with the same data directory."""
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop the process and release the HTTP client."""
        self.stop()
        if self._http_client is not None:
            self._http_client.close()
            self._http_client = None

    @property
    def _http(self) -> httpx.Client:
        # Created on first use, so a constructor that rejects its arguments leaves nothing open.
        if self._http_client is None:
            self._http_client = httpx.Client(timeout=5.0)
        return self._http_client

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of the process log (for error messages)."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    # -- for subclasses ------------------------------------------------------------------------------------

    def _flags(self) -> list[str]:
        """The command line after the executable."""
        raise NotImplementedError

    def _render(self) -> dict[str, object]:
        return {}  # configured by flags only

    @property
    def config_path(self) -> Path:
        """Where the rendered config is written (only for a process with a ``config_name``)."""
        return self.work_dir / str(self.config_name)

    def _write_config(self) -> None:
        if self.config_name is None:
            return
        self.config_path.write_text(
            "# Generated by exporter.devtools.pipeline from the shipped config; edit config/*.yml instead.\n"
            + yaml.safe_dump(self._render(), sort_keys=False),
            encoding="utf-8",
        )

    def _wait_ready(self) -> None:
        self.wait_until(lambda: self._get_ok(self.ready_path), what=self.ready_path)

    def wait_until(self, predicate: Callable[[], bool], *, what: str, timeout: float | None = None) -> None:
        """Poll ``predicate`` every 100 ms until true; ``PipelineError`` with the log tail on timeout or exit.

        Example::

            prom.wait_until(lambda: bool(prom.query("up == 1")), what="targets up", timeout=10)
        """
        deadline = time.monotonic() + (self.ready_timeout if timeout is None else timeout)
        while True:
            if self._process is not None and self._process.poll() is not None:
                raise PipelineError(
                    f"{self.binary_name} on {self.address} exited with {self._process.returncode} while "
                    f"waiting for {what}; log {self.log_path}:\n{self.log_tail()}"
                )
            if predicate():
                return
            if time.monotonic() >= deadline:
                raise PipelineError(
                    f"{self.binary_name} on {self.address}: timed out waiting for {what}; "
                    f"log {self.log_path}:\n{self.log_tail()}"
                )
            time.sleep(0.1)

    def _get_ok(self, path: str) -> bool:
        try:
            return self._http.get(self.url + path).status_code == 200
        except httpx.HTTPError:
            return False

    def _request(
        self,
        method: str,
        path: str,
        params: httpx.QueryParams | None = None,
        json: object = None,
    ) -> Any:  # the API's JSON, read where it is used
        try:
            response = self._http.request(method, self.url + path, params=params, json=json)
        except httpx.HTTPError as error:
            raise PipelineError(f"{self.binary_name} {method} {path}: {error}") from error
        if response.status_code >= 300:
            raise PipelineError(
                f"{self.binary_name} {method} {path}: HTTP {response.status_code}: {response.text[:500]}"
            )
        return response.json() if response.content else None


class _QueryAPI(_Daemon):
    """Anything that answers the Prometheus query API (Prometheus, VictoriaMetrics)."""

    def query(self, expr: str) -> list[Sample]:
        """Evaluate an instant query now (``GET /api/v1/query``); a vector or scalar result as samples.

        Example::

            [s.value for s in prom.query('up{job="canary-exporter"}')]   # [1.0]
        """
        body = self._request("GET", "/api/v1/query", params=httpx.QueryParams({"query": expr}))
        data = body["data"]
        if data["resultType"] == "vector":
            return [Sample(dict(item["metric"]), float(item["value"][1])) for item in data["result"]]
        if data["resultType"] == "scalar":
            return [Sample({}, float(data["result"][1]))]
        raise PipelineError(f"query {expr!r}: unsupported result type {data['resultType']}")


class _RulerAPI(_Daemon):
    """A ruler's alert list (Prometheus, vmalert)."""

    def alerts(self) -> list[PrometheusAlert]:
        """Pending and firing alerts (``GET /api/v1/alerts``)."""
        body = self._request("GET", "/api/v1/alerts")
        return [
            PrometheusAlert(
                dict(item["labels"]),
                dict(item.get("annotations") or {}),
                state=item["state"],
                value=float(item["value"]),
            )
            for item in body["data"]["alerts"]
        ]


@dataclass(eq=False, kw_only=True)
class PrometheusProcess(_QueryAPI, _RulerAPI):
    """A real Prometheus on loopback, running the shipped jobs and rules with compressed intervals.

    ``targets`` maps shipped job names (``canary-exporter``, ``canary-receiver``) to ``host:port``; a job
    left out is not scraped. ``alertmanagers`` are ``host:port`` addresses; start waits until Prometheus has
    discovered all of them (about 5 s after start, or alerts fired before then would be dropped).

    Example::

        with PrometheusProcess(tmp / "prom", targets={"canary-exporter": "127.0.0.1:9464"}) as prom:
            prom.query("up")
    """

    binary_name = "prometheus"
    config_name = "prometheus.yml"

    targets: Mapping[str, str | Sequence[str]]
    alertmanagers: Sequence[str] = ()
    timings: Timings = field(default_factory=Timings)
    shipped_config: Path = SHIPPED_PROMETHEUS_CONFIG
    external_labels: Mapping[str, str] = field(default_factory=dict)

    def _render(self) -> dict[str, object]:
        return prometheus_config(
            load_yaml(self.shipped_config),
            config_dir=self.shipped_config.parent,
            targets=self.targets,
            alertmanagers=self.alertmanagers,
            timings=self.timings,
            external_labels=self.external_labels,
        )

    def _flags(self) -> list[str]:
        return [
            f"--config.file={self.config_path}",
            f"--storage.tsdb.path={self.work_dir / 'data'}",
            f"--web.listen-address={self.address}",
            f"--web.external-url={self.url}",
            "--web.enable-lifecycle",
            f"--rules.alert.resend-delay={duration(self.timings.resend_delay)}",
        ]

    def _wait_ready(self) -> None:
        """Ready, then (alerts fired before would be dropped) every configured Alertmanager is active in
        ``GET /api/v1/alertmanagers``."""
        super()._wait_ready()
        expected = {f"http://{address}/api/v2/alerts" for address in self.alertmanagers}

        def discovered() -> bool:
            try:
                body = self._request("GET", "/api/v1/alertmanagers")
            except PipelineError:
                return False
            active = {entry["url"] for entry in body["data"]["activeAlertmanagers"]}
            return expected <= active

        if self.alertmanagers:
            self.wait_until(discovered, what=f"Alertmanagers {sorted(self.alertmanagers)} discovered")


@dataclass(eq=False, kw_only=True)
class AlertmanagerProcess(_Daemon):
    """A real Alertmanager on loopback with the shipped routing tree, pointed at a loopback receiver.

    ``token_file`` holds the bearer token Alertmanager sends to ``webhook_url``. Alertmanager alone runs
    with clustering off; ``cluster=True`` listens for gossip on a free loopback port (``cluster_address``) and
    joins ``peers`` (other members' ``cluster_address``). ``people_webhook_url`` receives what the shipped
    config sends to people (otherwise it goes nowhere); ``chat_url`` receives the shipped chat receivers'
    rendered Slack-format messages.

    Example::

        first = AlertmanagerProcess(tmp / "am1", webhook_url=url, token_file=token, cluster=True)
        second = AlertmanagerProcess(tmp / "am2", webhook_url=url, token_file=token, cluster=True,
                                     peers=[first.cluster_address])
    """

    binary_name = "prometheus-alertmanager"
    config_name = "alertmanager.yml"

    webhook_url: str
    token_file: Path
    timings: Timings = field(default_factory=Timings)
    people_webhook_url: str | None = None
    chat_url: str | None = None
    cluster: bool = False
    peers: Sequence[str] = ()
    shipped_config: Path = SHIPPED_ALERTMANAGER_CONFIG

    def __post_init__(self) -> None:
        if self.peers and not self.cluster:
            raise PipelineError("peers given but cluster=False: pass cluster=True to join a cluster")
        self.cluster_port = free_port() if self.cluster else None
        super().__post_init__()

    @property
    def cluster_address(self) -> str:
        """``127.0.0.1:PORT`` of the gossip listener (only with ``cluster=True``)."""
        if self.cluster_port is None:
            raise PipelineError("this Alertmanager runs without clustering (cluster=False)")
        return f"127.0.0.1:{self.cluster_port}"

    def _render(self) -> dict[str, object]:
        return alertmanager_config(
            load_yaml(self.shipped_config),
            webhook_url=self.webhook_url,
            token_file=self.token_file,
            timings=self.timings,
            people_webhook_url=self.people_webhook_url,
            chat_url=self.chat_url,
            config_dir=self.shipped_config.parent,
        )

    def _flags(self) -> list[str]:
        flags = [
            f"--config.file={self.config_path}",
            f"--storage.path={self.work_dir / 'data'}",
            f"--web.listen-address={self.address}",
            f"--web.external-url={self.url}",
        ]
        if self.cluster_port is None:
            # An empty address turns gossip off (otherwise it binds 0.0.0.0:9094).
            return [*flags, "--cluster.listen-address="]
        flags += [
            f"--cluster.listen-address={self.cluster_address}",
            f"--cluster.advertise-address={self.cluster_address}",
            f"--cluster.peer-timeout={duration(self.timings.cluster_peer_timeout)}",
            f"--cluster.gossip-interval={duration(self.timings.cluster_gossip_interval)}",
            f"--cluster.pushpull-interval={duration(self.timings.cluster_pushpull_interval)}",
        ]
        return flags + [f"--cluster.peer={peer}" for peer in self.peers]

    def alerts(self, *, filters: Mapping[str, str] | None = None) -> list[AlertmanagerAlert]:
        """Every alert Alertmanager holds, including silenced and inhibited ones (``GET /api/v2/alerts``).

        Example::

            [a.state for a in am.alerts(filters={"provider": "groq"})]   # ['suppressed']
        """
        params = [("filter", f'{name}="{value}"') for name, value in (filters or {}).items()]
        body = self._request("GET", "/api/v2/alerts", params=httpx.QueryParams(tuple(params)))
        return [
            AlertmanagerAlert(
                dict(item["labels"]),
                state=item["status"]["state"],
                starts_at=item["startsAt"],
                silenced_by=tuple(item["status"].get("silencedBy") or ()),
                inhibited_by=tuple(item["status"].get("inhibitedBy") or ()),
            )
            for item in body
        ]

    def add_silence(
        self,
        matchers: Mapping[str, str],
        duration: float,
        *,
        comment: str = "silenced by the canary pipeline launcher",
    ) -> str:
        """Silence alerts whose labels equal ``matchers`` for ``duration`` (seconds); returns the silence id.

        Example::

            silence_id = am.add_silence({"provider": "groq"}, duration=3600, comment="maintenance")
        """
        if not matchers:
            raise PipelineError("add_silence: at least one matcher is required (an empty one would mute all)")
        if duration <= 0:
            raise PipelineError(f"add_silence: duration must be positive, got {duration} s")
        now = dt.datetime.now(dt.UTC)
        body = {
            "matchers": [
                {"name": name, "value": value, "isRegex": False, "isEqual": True}
                for name, value in matchers.items()
            ],
            "startsAt": now.isoformat(),
            "endsAt": (now + dt.timedelta(seconds=duration)).isoformat(),
            "createdBy": "canary-pipeline",
            "comment": comment,
        }
        return str(self._request("POST", "/api/v2/silences", json=body)["silenceID"])

    def delete_silence(self, silence_id: str) -> None:
        """Expire a silence now (``DELETE /api/v2/silence/{id}``)."""
        self._request("DELETE", f"/api/v2/silence/{silence_id}")

    def silences(self) -> list[dict[str, object]]:
        """Every silence Alertmanager knows, including expired ones, as returned by the API."""
        return list(self._request("GET", "/api/v2/silences"))


@dataclass(eq=False, kw_only=True)
class VictoriaMetricsProcess(_QueryAPI):
    """A real single-node VictoriaMetrics on loopback: the storage and PromQL (MetricsQL) query side of the
    scaled topology (design.md §12), fed by ``VmagentProcess`` and by ``VmalertProcess``'s recording rules.

    Queries see samples at once (``-search.latencyOffset=0s``, no result cache): the compressed intervals
    of a loopback run would otherwise sit behind VictoriaMetrics' default 30 s latency offset.

    Example::

        with VictoriaMetricsProcess(tmp / "vm") as vm:
            vm.query("up")
    """

    binary_name = "victoria-metrics"
    ready_path = "/health"

    @property
    def write_url(self) -> str:
        """Where Prometheus remote-write clients (vmagent, vmalert) send samples."""
        return f"{self.url}/api/v1/write"

    def _flags(self) -> list[str]:
        return [
            f"-httpListenAddr={self.address}",
            f"-storageDataPath={self.work_dir / 'data'}",
            "-retentionPeriod=1d",
            "-search.latencyOffset=0s",
            "-search.disableCache",
            "-selfScrapeInterval=0",
            "-loggerLevel=WARN",
        ]


@dataclass(eq=False, kw_only=True)
class VmagentProcess(_Daemon):
    """A real vmagent on loopback: scrapes the shipped jobs (same job names, intervals compressed) and
    remote-writes every sample, ``up`` included, to ``remote_write_url``.

    Example::

        VmagentProcess(tmp / "vmagent", targets={"canary-exporter": ["127.0.0.1:1", "127.0.0.1:2"]},
                       remote_write_url=vm.write_url)
    """

    binary_name = "vmagent"
    ready_path = "/health"
    config_name = "scrape.yml"

    targets: Mapping[str, str | Sequence[str]]
    remote_write_url: str
    timings: Timings = field(default_factory=Timings)
    shipped_config: Path = SHIPPED_PROMETHEUS_CONFIG

    def _render(self) -> dict[str, object]:
        return scrape_config(
            load_yaml(self.shipped_config),
            config_dir=self.shipped_config.parent,
            targets=self.targets,
            timings=self.timings,
        )

    def _flags(self) -> list[str]:
        return [
            f"-httpListenAddr={self.address}",
            f"-promscrape.config={self.config_path}",
            f"-remoteWrite.url={self.remote_write_url}",
            f"-remoteWrite.tmpDataPath={self.work_dir / 'buffer'}",
            f"-remoteWrite.flushInterval={duration(self.timings.scrape_interval)}",
            "-loggerLevel=WARN",
        ]


@dataclass(eq=False, kw_only=True)
class VmalertProcess(_RulerAPI):
    """A real vmalert on loopback evaluating the shipped rule files, unchanged, against VictoriaMetrics.

    Recording rules are written back to ``datasource_url`` (remote write), alerts go to every
    ``alertmanagers`` address, and alert state is restored from the datasource after a restart.

    Example::

        VmalertProcess(tmp / "vmalert", datasource_url=vm.url, alertmanagers=[am.address])
    """

    binary_name = "vmalert"
    ready_path = "/health"

    datasource_url: str
    alertmanagers: Sequence[str]
    timings: Timings = field(default_factory=Timings)
    rule_globs: Sequence[str] = field(default_factory=shipped_rule_globs)

    def __post_init__(self) -> None:
        if not self.alertmanagers:
            raise PipelineError("vmalert needs at least one Alertmanager address (the rules contain alerts)")
        super().__post_init__()

    def _flags(self) -> list[str]:
        interval = duration(self.timings.evaluation_interval)
        return [
            f"-httpListenAddr={self.address}",
            f"-external.url={self.url}",
            *(f"-rule={pattern}" for pattern in self.rule_globs),
            f"-datasource.url={self.datasource_url}",
            f"-remoteWrite.url={self.datasource_url}",
            f"-remoteWrite.flushInterval={interval}",
            f"-remoteRead.url={self.datasource_url}",
            f"-evaluationInterval={interval}",
            f"-rule.resendDelay={duration(self.timings.resend_delay)}",
            *(f"-notifier.url=http://{address}" for address in self.alertmanagers),
            "-loggerLevel=WARN",
        ]
