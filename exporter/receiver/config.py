"""The ``receiver:`` section of the canary configuration file: the model ``ReceiverConfig`` (frozen) is the
one definition of its keys and defaults (README's configuration reference is generated from it; a complete
file: config/openrouter.example.yaml)."""

from __future__ import annotations

import itertools
from hmac import compare_digest
from pathlib import Path
from typing import Annotated, ClassVar

from pydantic import AfterValidator, Field, ValidationInfo, field_validator

from exporter.configkit import (
    Duration,
    Int,
    Listening,
    Problems,
    ReadContext,
    Secret,
    SecretValue,
    What,
    choice,
    host_port,
    invalid,
    key,
    relative_path,
)
from exporter.receiver.decide import Policy
from exporter.receiver.exclusions import BuiltinExclusion, read_exclusions
from exporter.receiver.ladder import Ladder
from exporter.receiver.state import Mode
from exporter.web.auth import token_bytes


def _rungs(rungs: tuple[float, ...]) -> tuple[float, ...]:
    if not rungs:
        raise invalid("expected a non-empty list of durations such as [1d, 3d, 7d]")
    if any(b < a for a, b in itertools.pairwise(rungs)):
        raise invalid("rungs must not get shorter (each offense is suspended at least as long)")
    return rungs


HostPort = Annotated[tuple[str, int], host_port("127.0.0.1:9465"), What("HOST:PORT")]
Rungs = Annotated[
    tuple[Annotated[Duration, Field(gt=0)], ...],
    AfterValidator(_rungs),
    What("a list of durations"),
]


class ReceiverConfig(Listening):
    """The receiver's settings; ``policy()`` is what the decision functions take."""

    internal: ClassVar[frozenset[str]] = frozenset({"builtin"})

    listen: HostPort = key(
        ("127.0.0.1", 9465), "address of the webhook and the API", shown="`127.0.0.1:9465`"
    )
    mode: Annotated[Mode, choice(Mode), What("observe or enforce")] = key(
        Mode.OBSERVE,
        "`observe` records would-be suspensions and excludes nothing; `enforce` excludes",
        shown="`observe`",
    )
    store_dir: Annotated[
        Path, relative_path("a directory such as ./receiver-store", resolve=True), What("a directory path")
    ] = key(meaning="the durable store (relative to the config file)")
    webhook_token: SecretValue = key(
        meaning="secret the webhook's bearer token must match (Alertmanager `credentials_file`)"
    )
    admin_token: SecretValue = key(
        meaning="secret for lifts and incidents; must differ from the webhook token"
    )
    read_token: SecretValue | None = key(None, "secret `GET /v1/decisions` then needs (the audit log)")
    builtin_exclusions_path: (
        Annotated[Path, relative_path("a file path such as builtin-exclusions.yaml"), What("a file path")]
        | None
    ) = key(
        None,
        "the reviewed exclusions file, e.g. "
        "[`config/builtin-exclusions.yaml`](config/builtin-exclusions.yaml)",
        alias="builtin_exclusions",
    )
    # Read from the builtin_exclusions file (not a key of this one), whatever else is wrong here.
    builtin: tuple[BuiltinExclusion, ...] = Field((), validate_default=True)
    min_routable_hosts: Int = key(2, "the capacity floor per model", ge=1)
    discovered_horizon: Duration = key(
        86400.0,
        "a host new to a model's `discovered_providers` list counts for the floor once listed this long "
        "without a break (a model's first list counts at once)",
        ge=0.0,
        le=30 * 86400.0,
    )
    ladder: Rungs = key(
        (86400.0, 3 * 86400.0, 7 * 86400.0), "suspension length per offense", shown="`[1d, 3d, 7d]`"
    )
    fade_after: Duration = key(
        14 * 86400.0, "offenses older than this (with none since) are forgotten", ge=1.0
    )
    max_body_bytes: Int = key(1024 * 1024, "webhook body limit", ge=1024, le=64 * 1024 * 1024)

    @field_validator("admin_token")
    @classmethod
    def _distinct(cls, admin: Secret, info: ValidationInfo) -> Secret:
        webhook = info.data.get("webhook_token")  # compared as the bearer check compares tokens
        theirs = token_bytes(webhook.value) if isinstance(webhook, Secret) else b""
        if admin.value and compare_digest(theirs, token_bytes(admin.value)):
            raise invalid("must differ from webhook_token (a leaked webhook token must not grant admin)")
        return admin

    @field_validator("builtin")
    @classmethod
    def _read_exclusions(
        cls, builtin: tuple[BuiltinExclusion, ...], info: ValidationInfo
    ) -> tuple[BuiltinExclusion, ...]:
        path, context = info.data.get("builtin_exclusions_path"), info.context
        if path is None or not isinstance(context, ReadContext):
            return builtin
        problems = Problems(str(path))
        builtin = read_exclusions(path, problems)
        context.others.extend(problems.items)
        return builtin

    def policy(self) -> Policy:
        """The judgement rules the decision functions take."""
        return Policy(
            self.mode,
            Ladder(self.ladder, self.fade_after),
            self.min_routable_hosts,
            self.builtin,
            self.discovered_horizon,
        )
