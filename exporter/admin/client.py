"""A small client of the receiver's HTTP API: the admin endpoints (bearer token) and the read endpoints.

It codes against today's endpoints and shapes (``exporter/receiver/app.py``): ``GET /v1/ignore?model=``,
``GET /v1/suspensions`` (paged with ``next_after``), ``GET /v1/incidents``,
``GET /v1/decisions?since=&limit=`` (paged with ``next_since``), ``POST /v1/admin/lift``,
``POST /v1/admin/incidents``,
``DELETE /v1/admin/incidents/{id}?reason=``. The token, when there is one, is sent on every call, so read
endpoints that come to need a token keep working.

Example::

    with AdminClient("http://127.0.0.1:9465", token) as admin:
        admin.lift("moonshotai/kimi-k2-0905", "deepinfra/fp8", "false positive, see ticket 42")
"""

from __future__ import annotations

import json as json_module
from collections.abc import Mapping
from typing import TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, JsonValue, ValidationError

from exporter.lifecycle import Closing
from exporter.receiver.bodies import (
    DecisionRecord,
    Decisions,
    DecisionsPage,
    IgnoreList,
    IncidentAdded,
    Incidents,
    Suspensions,
)
from exporter.web.models import problems

DECISION_PAGE = 1000  # the receiver's largest page
MAX_DECISION_PAGES = 100  # bounds a --since walk at 100 000 decisions
B = TypeVar("B", bound=BaseModel)
MAX_SUSPENSION_PAGES = 100  # bounds the listing at 100 000 routes


class AdminError(Exception):
    """The receiver refused a call or could not be reached; the message says what to do."""


class AdminClient(Closing):
    def __init__(self, base_url: str, token: str | None, *, timeout: float = 10.0) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.base_url = base_url.rstrip("/")
        self._token = token
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout)

    def close(self) -> None:
        self._http.close()

    # -- reads ---------------------------------------------------------------------------------------------
    def ignore(self, model: str) -> IgnoreList:
        return self._call("GET", "/v1/ignore", IgnoreList, params={"model": model})

    def suspensions(self) -> Suspensions:
        """The whole listing: its pages followed through ``next_after`` (at most ``MAX_SUSPENSION_PAGES``)."""
        document = self._call("GET", "/v1/suspensions", Suspensions)
        for _ in range(MAX_SUSPENSION_PAGES - 1):
            if not document.next_after:
                break
            page = self._call("GET", "/v1/suspensions", Suspensions, params={"after": document.next_after})
            document = document.model_copy(
                update={
                    "suspensions": [*document.suspensions, *page.suspensions],
                    "holds": [*document.holds, *page.holds],
                    "next_after": page.next_after,
                }
            )
        return document

    def incidents(self) -> Incidents:
        return self._call("GET", "/v1/incidents", Incidents)

    def decisions(self, since: str | None = None, limit: int = 100) -> list[DecisionRecord]:
        """The latest ``limit`` decisions, or with ``since`` (a seq or an RFC 3339 time) every decision
        after it, oldest first, following ``next_since`` page by page (at most ``limit`` of them); each as
        the receiver sent it (``codec.decision_from_json`` reads one)."""
        if since is None:
            latest = {"limit": min(limit, DECISION_PAGE)}
            return list(self._call("GET", "/v1/decisions", DecisionsPage, params=latest).decisions)
        out: list[DecisionRecord] = []
        cursor = since
        for _ in range(MAX_DECISION_PAGES):
            page_size = min(DECISION_PAGE, limit - len(out))
            params: dict[str, str | int] = {"since": cursor, "limit": page_size}
            page = self._call("GET", "/v1/decisions", DecisionsPage, params=params)
            out.extend(page.decisions)
            if len(page.decisions) < page_size or len(out) >= limit:
                break
            cursor = str(page.next_since)
        return out

    # -- admin ---------------------------------------------------------------------------------------------
    def lift(self, model: str, provider: str, reason: str) -> Decisions:
        body = {"model": model, "provider": provider, "reason": reason}
        return self._call("POST", "/v1/admin/lift", Decisions, json=body, admin=True)

    def add_incident(
        self, model: str, provider: str, reason: str, until: str | None = None, force: bool = False
    ) -> IncidentAdded:
        body: dict[str, str | bool] = {"model": model, "provider": provider, "reason": reason}
        if until is not None:
            body["until"] = until
        if force:  # only sent when asked: a receiver without the floor override rejects the key
            body["force"] = True
        return self._call("POST", "/v1/admin/incidents", IncidentAdded, json=body, admin=True)

    def remove_incident(self, incident_id: str, reason: str) -> Decisions:
        path = f"/v1/admin/incidents/{quote(incident_id, safe='')}"
        return self._call("DELETE", path, Decisions, params={"reason": reason}, admin=True)

    # -- plumbing ------------------------------------------------------------------------------------------
    def _call(
        self,
        method: str,
        path: str,
        answer: type[B],
        *,
        admin: bool = False,
        params: Mapping[str, str | int] | None = None,
        json: Mapping[str, str | bool] | None = None,
    ) -> B:
        """The receiver's answer validated as the body ``answer`` it sends. Fields this client does not know
        are ignored (a receiver newer than the CLI may add some); the ones it knows are checked."""
        if admin and not self._token:
            raise AdminError(
                "an admin token is needed: set CANARY_ADMIN_TOKEN or pass --token-file FILE "
                "(the receiver's receiver.admin_token)"
            )
        try:
            response = self._http.request(method, path, params=params, json=json)
        except httpx.HTTPError as exc:
            raise AdminError(
                f"cannot reach the receiver at {self.base_url} ({type(exc).__name__}: {exc}); "
                "check --receiver URL"
            ) from None
        if response.status_code >= 400:
            raise AdminError(_explain(method, path, response.status_code, _decoded(response.content)))
        try:
            return answer.model_validate_json(response.content, extra="ignore")
        except ValidationError as exc:
            found = "; ".join(problems(exc, answer)[:3])
            raise AdminError(
                f"{method} {path}: the receiver answered {response.status_code} with a body this client "
                f"does not read ({found})"
            ) from None


def _decoded(content: bytes) -> object:
    try:
        document: object = json_module.loads(content)
    except ValueError:
        return None
    return document


def _explain(method: str, path: str, status: int, document: object) -> str:
    message = ""
    if isinstance(document, dict):
        message = str(document.get("message") or document.get("error") or "")
        problems = document.get("problems")
        if isinstance(problems, list) and problems:
            message += ": " + "; ".join(str(p) for p in problems)
    if status == 401:
        message += " (is the token the receiver's admin_token?)"
    return f"{method} {path}: {status} {message}".rstrip()


EVIDENCE_MAX_BYTES = 1024 * 1024  # a page of three records is a few KiB; a bigger answer is not the exporter


def fetch_evidence(url: str, *, timeout: float = 10.0) -> list[dict[str, JsonValue]]:
    """The records of an exporter's ``/v1/evidence`` page at ``url`` (newest first)."""
    try:
        with httpx.Client(timeout=timeout) as http, http.stream("GET", url) as response:
            body = b""
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > EVIDENCE_MAX_BYTES:
                    raise AdminError(f"GET {url}: the answer exceeds {EVIDENCE_MAX_BYTES} bytes")
            status = response.status_code
    except httpx.HTTPError as exc:
        raise AdminError(f"cannot reach the exporter at {url} ({type(exc).__name__}: {exc})") from None
    document = _decoded(body)
    records = document.get("records") if isinstance(document, dict) else None
    if status >= 400 or not isinstance(records, list):
        raise AdminError(_explain("GET", url, status, document))
    return [r for r in records if isinstance(r, dict)]
