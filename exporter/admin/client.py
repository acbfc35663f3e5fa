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

import json
from typing import Any
from urllib.parse import quote

import httpx

from exporter.lifecycle import Closing

DECISION_PAGE = 1000  # the receiver's largest page
MAX_DECISION_PAGES = 100  # bounds a --since walk at 100 000 decisions
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
    def ignore(self, model: str) -> dict[str, Any]:
        return self._call("GET", "/v1/ignore", params={"model": model})

    def suspensions(self) -> dict[str, Any]:
        """The whole listing: its pages followed through ``next_after`` (at most ``MAX_SUSPENSION_PAGES``)."""
        document = self._call("GET", "/v1/suspensions")
        for _ in range(MAX_SUSPENSION_PAGES - 1):
            if not document.get("next_after"):
                break
            page = self._call("GET", "/v1/suspensions", params={"after": document["next_after"]})
            for key in ("suspensions", "holds"):
                document[key] = [*document.get(key, []), *page.get(key, [])]
            document["next_after"] = page.get("next_after")
        return document

    def incidents(self) -> dict[str, Any]:
        return self._call("GET", "/v1/incidents")

    def decisions(self, since: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The latest ``limit`` decisions, or with ``since`` (a seq or an RFC 3339 time) every decision
        after it, oldest first, following ``next_since`` page by page (at most ``limit`` of them)."""
        if since is None:
            document = self._call("GET", "/v1/decisions", params={"limit": min(limit, DECISION_PAGE)})
            return list(document.get("decisions", []))
        out: list[dict[str, Any]] = []
        cursor = since
        for _ in range(MAX_DECISION_PAGES):
            page_size = min(DECISION_PAGE, limit - len(out))
            document = self._call("GET", "/v1/decisions", params={"since": cursor, "limit": page_size})
            page = list(document.get("decisions", []))
            out.extend(page)
            next_since = document.get("next_since")
            if len(page) < page_size or len(out) >= limit or next_since is None:
                break
            cursor = str(next_since)
        return out

    # -- admin ---------------------------------------------------------------------------------------------
    def lift(self, model: str, provider: str, reason: str) -> dict[str, Any]:
        body = {"model": model, "provider": provider, "reason": reason}
        return self._call("POST", "/v1/admin/lift", json=body, admin=True)

    def add_incident(
        self, model: str, provider: str, reason: str, until: str | None = None, force: bool = False
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"model": model, "provider": provider, "reason": reason}
        if until is not None:
            body["until"] = until
        if force:  # only sent when asked: a receiver without the floor override rejects the key
            body["force"] = True
        return self._call("POST", "/v1/admin/incidents", json=body, admin=True)

    def remove_incident(self, incident_id: str, reason: str) -> dict[str, Any]:
        path = f"/v1/admin/incidents/{quote(incident_id, safe='')}"
        return self._call("DELETE", path, params={"reason": reason}, admin=True)

    # -- plumbing ------------------------------------------------------------------------------------------
    def _call(self, method: str, path: str, *, admin: bool = False, **kwargs: Any) -> dict[str, Any]:
        if admin and not self._token:
            raise AdminError(
                "an admin token is needed: set CANARY_ADMIN_TOKEN or pass --token-file FILE "
                "(the receiver's receiver.admin_token)"
            )
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise AdminError(
                f"cannot reach the receiver at {self.base_url} ({type(exc).__name__}: {exc}); "
                "check --receiver URL"
            ) from None
        try:
            document = response.json()
        except ValueError:
            document = None
        if response.status_code >= 400:
            raise AdminError(_explain(method, path, response.status_code, document))
        if not isinstance(document, dict):
            raise AdminError(f"{method} {path}: the receiver answered {response.status_code} without JSON")
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


def fetch_evidence(url: str, *, timeout: float = 10.0) -> list[dict[str, Any]]:
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
    try:
        document = json.loads(body)
    except ValueError:
        document = None
    if status >= 400 or not isinstance(document, dict) or not isinstance(document.get("records"), list):
        raise AdminError(_explain("GET", url, status, document))
    return [r for r in document["records"] if isinstance(r, dict)]
