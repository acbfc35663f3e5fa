"""The ``receiver:`` section of the canary configuration file, read into a frozen ``ReceiverConfig``.

Example (every key with its default, except the three required ones)::

    receiver:
      listen: 127.0.0.1:9465
      mode: observe                      # observe | enforce
      store_dir: ./receiver-store        # required; relative to this file's directory
      webhook_token: {env: CANARY_WEBHOOK_TOKEN}   # required; {env: NAME} or {file: PATH}
      admin_token: {file: /run/secrets/canary-admin}  # required; must differ from webhook_token
      builtin_exclusions: ../config/builtin-exclusions.yaml   # optional
      min_routable_hosts: 2
      ladder: [1d, 3d, 7d]
      fade_after: 14d
      max_body_bytes: 1048576
      read_token: {env: CANARY_READ_TOKEN}         # optional: GET /v1/decisions then needs it
"""

from __future__ import annotations

import hmac
import itertools
from dataclasses import dataclass
from pathlib import Path

from exporter.configkit import Problems, Secret, Section, parse_duration
from exporter.receiver.decide import Policy
from exporter.receiver.exclusions import BuiltinExclusion, read_exclusions
from exporter.receiver.ladder import Ladder
from exporter.receiver.state import Mode
from exporter.web.hostport import parse_host_port

DEFAULT_LADDER = (86400.0, 3 * 86400.0, 7 * 86400.0)


@dataclass(frozen=True, slots=True)
class ReceiverConfig:
    store_dir: Path
    webhook_token: Secret
    admin_token: Secret
    host: str = "127.0.0.1"
    port: int = 9465
    mode: Mode = Mode.OBSERVE
    builtin_exclusions_path: Path | None = None
    builtin: tuple[BuiltinExclusion, ...] = ()
    min_routable_hosts: int = 2
    ladder: tuple[float, ...] = DEFAULT_LADDER
    fade_after: float = 14 * 86400.0
    max_body_bytes: int = 1024 * 1024
    read_token: Secret | None = None  # when set, GET /v1/decisions needs it (the audit log is sensitive)

    def policy(self) -> Policy:
        """The judgement rules the decision functions take."""
        return Policy(self.mode, Ladder(self.ladder, self.fade_after), self.min_routable_hosts, self.builtin)


def read_receiver_config(section: Section, base_dir: Path) -> ReceiverConfig:
    """Read the ``receiver`` section; every problem is added to ``section.problems`` (raise with
    ``problems.raise_if_any()``). On problems the returned value is a placeholder, never to be used.

    Example::

        problems = Problems("canary.yaml")
        root = Section.load_file("canary.yaml", problems)
        config = read_receiver_config(root.section("receiver", required=True), Path("."))
        problems.raise_if_any()
    """
    listen = section.string("listen", default="127.0.0.1:9465")
    host, port = "127.0.0.1", 9465
    try:
        host, port = parse_host_port(listen)
    except ValueError:
        section.problem("listen", f"expected HOST:PORT such as 127.0.0.1:9465 (got {listen!r})")
    mode = Mode(section.choice("mode", ("observe", "enforce"), default="observe"))
    store_raw = section.string("store_dir")
    webhook = section.secret("webhook_token", required=True)
    admin = section.secret("admin_token", required=True)
    read = section.secret("read_token")
    if (
        webhook is not None
        and admin is not None
        and hmac.compare_digest(
            webhook.value.encode("utf-8", "surrogateescape"), admin.value.encode("utf-8", "surrogateescape")
        )
    ):
        section.problem(
            "admin_token", "must differ from webhook_token (a leaked webhook token must not grant admin)"
        )
    exclusions_raw = section.string("builtin_exclusions", default=None)
    minimum = section.integer("min_routable_hosts", default=2, minimum=1)
    ladder = _read_ladder(section)
    fade_after = section.duration("fade_after", default=14 * 86400.0, minimum=1.0)
    max_body = section.integer("max_body_bytes", default=1024 * 1024, minimum=1024, maximum=64 * 1024 * 1024)
    section.finish()

    store_dir = (base_dir / store_raw) if store_raw else base_dir / "receiver-store"
    exclusions_path = (base_dir / exclusions_raw) if exclusions_raw else None
    builtin: tuple[BuiltinExclusion, ...] = ()
    if exclusions_path is not None:
        file_problems = Problems(str(exclusions_path))
        builtin = read_exclusions(exclusions_path, file_problems)
        section.problems.items.extend(file_problems.items)
    placeholder = Secret("missing", "")
    return ReceiverConfig(
        store_dir=store_dir.resolve() if store_raw else store_dir,
        webhook_token=webhook or placeholder,
        admin_token=admin or placeholder,
        host=host,
        port=port,
        mode=mode,
        builtin_exclusions_path=exclusions_path,
        builtin=builtin,
        min_routable_hosts=minimum,
        ladder=ladder,
        fade_after=fade_after,
        max_body_bytes=max_body,
        read_token=read,
    )


def _read_ladder(section: Section) -> tuple[float, ...]:
    raw = section.raw("ladder", None)
    if raw is None:
        return DEFAULT_LADDER
    if not isinstance(raw, list) or not raw:
        section.problem(
            "ladder", f"expected a non-empty list of durations such as [1d, 3d, 7d] (got {raw!r})"
        )
        return DEFAULT_LADDER
    rungs: list[float] = []
    for i, item in enumerate(raw):
        try:
            seconds = parse_duration(item)
        except ValueError as exc:
            section.problem("ladder", f"item {i}: {exc} (got {item!r})")
            continue
        if seconds <= 0:
            section.problem("ladder", f"item {i}: a rung must be longer than zero (got {item!r})")
        rungs.append(seconds)
    if any(b < a for a, b in itertools.pairwise(rungs)):
        section.problem("ladder", "rungs must not get shorter (each offense is suspended at least as long)")
    return tuple(rungs) if len(rungs) == len(raw) else DEFAULT_LADDER
