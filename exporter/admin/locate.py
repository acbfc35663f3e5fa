"""Where a command finds the receiver (and the exporter) a person means: the flags, the environment, the run
record of a local run, the configuration, in that order.

For the receiver: ``--receiver URL``; else ``$CANARY_RECEIVER_URL``; else, with ``--config FILE``, the live
run record of that configuration (``exporter.runrecord``: beside the file or in the per-user index) and then
the file's ``receiver.listen``; else the live run record in the directory of ``--token-file`` (a run's
``WORKDIR/admin.token``); else, with neither, the newest local run still running (``canary demo``,
``scripts/run``); else the default ``receiver.listen``. Each answer says where it came from, so an
error can name it.

Example::

    found = locate_receiver(receiver=None, config="canary.yaml", token_file=None, environ=os.environ)
    found.url, found.origin   # ('http://127.0.0.1:40123', 'the run record /tmp/demo-x/canary-run.json')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from exporter.configkit import Problems, load_yaml
from exporter.receiver.config import ReceiverConfig
from exporter.runrecord import (
    RunRecord,
    live,
    read_latest_run_record,
    read_run_record,
    read_run_record_in,
)
from exporter.web.hostport import http_url, parse_host_port

URL_ENV = "CANARY_RECEIVER_URL"
DEFAULT_RECEIVER = http_url(*ReceiverConfig.model_fields["listen"].default, local=True)


class LocateError(Exception):
    """The flags lead nowhere usable; the message says what to pass instead."""


@dataclass(frozen=True, slots=True)
class Found:
    url: str
    origin: str  # where the URL came from, for messages


def _live_record(record: RunRecord | None) -> RunRecord | None:
    return record if record is not None and live(record) else None


def _from_record(record: RunRecord | None, service: str, origin: str) -> Found | None:
    """The URL of ``service`` in a run record, if it names one; ``origin`` says which record it is."""
    if record is None or not record["urls"].get(service):
        return None
    return Found(record["urls"][service], f"{origin} {record['source']}")


def _listen_url(path: Path) -> str | None:
    try:
        data = load_yaml(path.read_text(encoding="utf-8"), Problems(str(path)))
    except OSError as exc:
        raise LocateError(f"--config {path}: {exc.strerror}") from None
    listen = data.get("receiver", {}).get("listen") if isinstance(data, dict) else None
    if listen is None:
        return None
    try:
        host, port = parse_host_port(listen)
    except ValueError as exc:
        raise LocateError(f"--config {path}: receiver.listen: {exc}") from None
    if port == 0:
        raise LocateError(
            f"--config {path}: receiver.listen is {listen} (any free port) and no running canary demo "
            "recorded where its receiver listens; pass --receiver URL, or --token-file WORKDIR/admin.token "
            "of the run"
        )
    return http_url(host, port, local=True)


def run_record_for(config: str | None, token_file: str | None) -> RunRecord | None:
    """The live run record ``--config`` or ``--token-file`` leads to, if any."""
    if config and (record := _live_record(read_run_record(Path(config)))) is not None:
        return record
    if token_file:
        return _live_record(read_run_record_in(Path(token_file).resolve().parent))
    return None


def locate_receiver(
    *, receiver: str | None, config: str | None, token_file: str | None, environ: Mapping[str, str]
) -> Found:
    if receiver:
        return Found(receiver, "--receiver")
    if environ.get(URL_ENV, "").strip():
        return Found(environ[URL_ENV].strip(), f"${URL_ENV}")
    if (found := _from_record(run_record_for(config, token_file), "receiver", "the run record")) is not None:
        return found
    if config:
        url = _listen_url(Path(config))
        if url is not None:
            return Found(url, f"receiver.listen of {config}")
    elif not token_file:  # no lead at all: the local run still running, if any
        latest = _live_record(read_latest_run_record())
        if (found := _from_record(latest, "receiver", "the newest local run's record")) is not None:
            return found
    return Found(DEFAULT_RECEIVER, "the default receiver.listen")


def locate_exporter(*, exporter: str | None, config: str | None, token_file: str | None) -> Found | None:
    """The exporter's URL from ``--exporter`` or the run record; None when neither says."""
    if exporter:
        return Found(exporter, "--exporter")
    record = run_record_for(config, token_file)
    if record is None and not config and not token_file:
        record = _live_record(read_latest_run_record())
    return _from_record(record, "exporter", "the run record")


__all__ = ["DEFAULT_RECEIVER", "URL_ENV", "Found", "LocateError", "locate_exporter", "locate_receiver"]
