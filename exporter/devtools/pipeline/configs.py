"""Pure rewriting of the shipped Prometheus and Alertmanager configs into configs for a local launch.

The launcher must exercise the routing, inhibition, jobs and rules the project ships, so these functions take
the shipped documents and change only what a loopback run needs: intervals, listen addresses, scrape targets,
the receiver's URL and the path of its token file. Everything else (routes, matchers, inhibit rules, job
names, rule files) passes through untouched.

Example::

    shipped = load_yaml(SHIPPED_ALERTMANAGER_CONFIG)
    config = alertmanager_config(shipped, webhook_url="http://127.0.0.1:8080/v1/alerts",
                                 token_file=Path("/tmp/token"), timings=Timings())
"""

from __future__ import annotations

import copy
import glob
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from exporter.paths import REPO_ROOT

SHIPPED_PROMETHEUS_CONFIG = REPO_ROOT / "config" / "prometheus.yml"
SHIPPED_ALERTMANAGER_CONFIG = REPO_ROOT / "config" / "alertmanager.yml"

# Names shared with config/*.yml and rules/canary.rules.yml; a test checks the shipped files use them.
EXPORTER_JOB = "canary-exporter"
RECEIVER_JOB = "canary-receiver"
RECEIVER_NAME = "canary-receiver"
ALERTMANAGER_JOB = "alertmanager"


class PipelineConfigError(ValueError):
    """A shipped config does not have the shape the launcher relies on, or an override is impossible."""


@dataclass(frozen=True)
class Timings:
    """Compressed intervals for a loopback run, in seconds (the shipped files hold the production values).

    ``repeat_interval`` stands for the production 15 minutes: a still-firing alert is re-sent after it.

    Example::

        Timings(scrape_interval=0.5, evaluation_interval=0.5)
    """

    scrape_interval: float = 1.0
    evaluation_interval: float = 1.0
    group_wait: float = 0.0
    group_interval: float = 1.0
    repeat_interval: float = 5.0
    resend_delay: float = 1.0
    cluster_peer_timeout: float = 1.0
    cluster_gossip_interval: float = 0.2
    cluster_pushpull_interval: float = 1.0

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if value < 0 or (value == 0 and name != "group_wait"):
                raise PipelineConfigError(f"Timings.{name}: must be positive, got {value}")


def duration(seconds: float) -> str:
    """Format seconds as a Prometheus/Alertmanager duration with millisecond resolution.

    Example::

        >>> duration(1.5), duration(0), duration(60)
        ('1500ms', '0s', '60s')
    """
    millis = round(seconds * 1000)
    if millis == 0:
        return "0s"
    if millis % 1000 == 0:
        return f"{millis // 1000}s"
    return f"{millis}ms"


def load_yaml(path: Path) -> dict[str, object]:
    """Read a YAML mapping safely, with an error naming the file if it is not one.

    Example::

        shipped = load_yaml(SHIPPED_PROMETHEUS_CONFIG)
    """
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise PipelineConfigError(f"{path}: cannot read YAML: {error}") from error
    if not isinstance(document, dict):
        raise PipelineConfigError(f"{path}: expected a YAML mapping at the top level")
    return document


def prometheus_config(
    shipped: Mapping[str, object],
    *,
    config_dir: Path,
    targets: Mapping[str, str | Sequence[str]],
    alertmanagers: Sequence[str],
    timings: Timings,
    external_labels: Mapping[str, str] | None = None,
) -> dict[str, object]:
    """The shipped Prometheus config with loopback targets, absolute rule paths and compressed intervals.

    ``targets`` maps shipped job names to ``host:port`` (or a list of them: sharded exporter replicas);
    shipped jobs not named there are left out (so the rules see them as absent). ``external_labels`` are
    set as the global external labels (one replica of a Prometheus HA pair). ``config_dir`` is the shipped
    file's directory, against which its relative ``rule_files`` globs are resolved. ``alertmanagers`` are
    ``host:port`` addresses (none: no alerting).

    Example::

        prometheus_config(load_yaml(SHIPPED_PROMETHEUS_CONFIG), config_dir=SHIPPED_PROMETHEUS_CONFIG.parent,
                          targets={"canary-exporter": "127.0.0.1:40001"}, alertmanagers=["127.0.0.1:40002"],
                          timings=Timings())
    """
    config = copy.deepcopy(dict(shipped))
    scrape = duration(timings.scrape_interval)
    config["global"] = {
        **_mapping(config.get("global"), "global"),
        "scrape_interval": scrape,
        "scrape_timeout": scrape,
        "evaluation_interval": duration(timings.evaluation_interval),
        **({"external_labels": dict(external_labels)} if external_labels else {}),
    }
    rule_files = _strings(config.get("rule_files"), "rule_files")
    config["rule_files"] = _absolute_globs(rule_files, config_dir, "rule_files")

    jobs = _mappings(config.get("scrape_configs"), "scrape_configs")
    shipped_names = [job.get("job_name") for job in jobs]
    unknown = sorted(set(targets) - set(shipped_names))
    if unknown:
        raise PipelineConfigError(
            f"targets: no scrape job named {', '.join(unknown)} in the shipped config "
            f"(it has: {', '.join(str(name) for name in shipped_names)})"
        )
    kept = [job for job in jobs if job.get("job_name") in targets]
    for job in kept:
        wanted = targets[str(job["job_name"])]
        job["static_configs"] = [{"targets": [wanted] if isinstance(wanted, str) else list(wanted)}]
    config["scrape_configs"] = kept

    if alertmanagers:
        alerting = _mapping(config.get("alerting"), "alerting")
        shipped_am = _mappings(alerting.get("alertmanagers"), "alerting.alertmanagers") or [
            {"api_version": "v2"}
        ]
        first = dict(shipped_am[0])
        first["static_configs"] = [{"targets": list(alertmanagers)}]
        config["alerting"] = {"alertmanagers": [first]}
    else:
        config.pop("alerting", None)
    return config


def shipped_rule_globs(shipped_config: Path = SHIPPED_PROMETHEUS_CONFIG) -> list[str]:
    """The shipped config's ``rule_files`` as absolute globs: the files any ruler (Prometheus, vmalert) loads.

    Example::

        shipped_rule_globs()   # ['/repo/rules/*.yml']
    """
    patterns = _strings(load_yaml(shipped_config).get("rule_files"), "rule_files")
    return _absolute_globs(patterns, shipped_config.parent, "rule_files")


def scrape_config(
    shipped: Mapping[str, object],
    *,
    config_dir: Path,
    targets: Mapping[str, str | Sequence[str]],
    timings: Timings,
) -> dict[str, object]:
    """Only the scraping part of ``prometheus_config`` (global intervals and jobs), for a scraper such as
    vmagent that ships samples elsewhere and evaluates no rules.

    Example::

        scrape_config(load_yaml(SHIPPED_PROMETHEUS_CONFIG), config_dir=SHIPPED_PROMETHEUS_CONFIG.parent,
                      targets={"canary-exporter": ["127.0.0.1:40001", "127.0.0.1:40002"]}, timings=Timings())
    """
    full = prometheus_config(
        shipped, config_dir=config_dir, targets=targets, alertmanagers=[], timings=timings
    )
    scraping = {k: v for k, v in _mapping(full["global"], "global").items() if k != "evaluation_interval"}
    return {"global": scraping, "scrape_configs": full["scrape_configs"]}


def _mapping(value: object, where: str) -> dict[str, object]:
    """A YAML mapping of the shipped config (absent: empty), else an error naming where it is."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PipelineConfigError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value


def _mappings(value: object, where: str) -> list[dict[str, object]]:
    """A YAML list of mappings (absent: empty), else an error naming where it is."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise PipelineConfigError(f"{where}: expected a list, got {type(value).__name__}")
    return [_mapping(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _strings(value: object, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise PipelineConfigError(f"{where}: expected a list of strings")
    return value


def _absolute_globs(patterns: Sequence[str], config_dir: Path, key: str) -> list[str]:
    absolute = []
    for pattern in patterns:
        path = pattern if Path(pattern).is_absolute() else str((config_dir / pattern).resolve())
        if not glob.glob(path):
            raise PipelineConfigError(f"{key}: {pattern!r} (resolved to {path}) matches no file")
        absolute.append(path)
    return absolute


def _point_chat(slack: Mapping[str, object], chat_url: str) -> dict[str, object]:
    hook = {key: value for key, value in slack.items() if key != "api_url_file"}
    hook["api_url"] = chat_url
    return hook


def alertmanager_config(
    shipped: Mapping[str, object],
    *,
    webhook_url: str,
    token_file: Path,
    timings: Timings,
    people_webhook_url: str | None = None,
    chat_url: str | None = None,
    config_dir: Path = SHIPPED_ALERTMANAGER_CONFIG.parent,
) -> dict[str, object]:
    """The shipped Alertmanager config pointed at a loopback receiver, with compressed timings.

    The ``canary-receiver`` receiver gets ``webhook_url`` and ``token_file`` (absolute). With ``chat_url``,
    the chat receivers (``slack_configs``) keep their shipped integration and templates, posting to
    ``chat_url``. Every other receiver (pager and dead man's switch placeholders, and the chat ones without
    ``chat_url``) becomes one webhook to ``people_webhook_url``, or, without it, a receiver with no
    integration at all so nothing leaves the machine. Routes, matchers and inhibit rules are kept; every
    ``group_wait``/``group_interval``/``repeat_interval`` is replaced by the compressed value; ``templates``
    globs are resolved against ``config_dir`` (the shipped file's directory).

    Example::

        alertmanager_config(load_yaml(SHIPPED_ALERTMANAGER_CONFIG), webhook_url="http://127.0.0.1:9/v1/alerts",
                            token_file=Path("/tmp/token"), timings=Timings())
    """
    config = copy.deepcopy(dict(shipped))
    if templates := _strings(config.get("templates"), "templates"):
        config["templates"] = _absolute_globs(templates, config_dir, "templates")
    route = config.get("route")
    if not isinstance(route, dict):
        raise PipelineConfigError("route: the shipped Alertmanager config has no routing tree")
    _compress_route(route, timings, is_root=True)

    receivers = _mappings(config.get("receivers"), "receivers")
    names = [receiver.get("name") for receiver in receivers]
    if RECEIVER_NAME not in names:
        raise PipelineConfigError(
            f"receivers: no receiver named {RECEIVER_NAME!r} in the shipped config (it has: "
            f"{', '.join(str(name) for name in names)})"
        )
    rewritten = []
    for receiver in receivers:
        name = receiver["name"]
        if name == RECEIVER_NAME:
            rewritten.append(_point_receiver(receiver, webhook_url, token_file))
        elif chat_url is not None and (
            slack := _mappings(receiver.get("slack_configs"), f"receivers.{name}")
        ):
            rewritten.append({"name": name, "slack_configs": [_point_chat(c, chat_url) for c in slack]})
        elif people_webhook_url is not None:
            rewritten.append(
                {"name": name, "webhook_configs": [{"url": people_webhook_url, "send_resolved": True}]}
            )
        else:
            rewritten.append({"name": name})
    config["receivers"] = rewritten
    return config


def _compress_route(route: dict[str, object], timings: Timings, *, is_root: bool) -> None:
    values = {
        "group_wait": duration(timings.group_wait),
        "group_interval": duration(timings.group_interval),
        "repeat_interval": duration(timings.repeat_interval),
    }
    for key, value in values.items():
        if is_root or key in route:
            route[key] = value
    for child in _mappings(route.get("routes"), "route.routes"):
        _compress_route(child, timings, is_root=False)


def _point_receiver(receiver: dict[str, object], webhook_url: str, token_file: Path) -> dict[str, object]:
    hooks = _mappings(receiver.get("webhook_configs"), f"receivers.{RECEIVER_NAME}.webhook_configs")
    if len(hooks) != 1:
        raise PipelineConfigError(
            f"receivers.{RECEIVER_NAME}: expected exactly one webhook_config, found {len(hooks)}"
        )
    hook = dict(hooks[0])
    hook["url"] = webhook_url
    http_config = dict(_mapping(hook.get("http_config"), "http_config"))
    authorization = dict(_mapping(http_config.get("authorization"), "authorization") or {"type": "Bearer"})
    authorization.pop("credentials", None)
    authorization["credentials_file"] = str(token_file.resolve())
    http_config["authorization"] = authorization
    hook["http_config"] = http_config
    return {**receiver, "webhook_configs": [hook]}
