"""The BurnBox client: inboxes, mail, and waiting for mail, its codes and links."""

from __future__ import annotations

import json
import os
import socket
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import __version__
from .errors import APIError, ConfigurationError, NothingExtractedError, TransportError, WaitTimeoutError
from .models import Email, EmailSummary, Inbox, Page, WaitResult

__all__ = ["BurnBox", "HeaderMatch"]

#: Headers a wait matches exactly: ``{"X-Test-Run": run_id}``, or ``"Name: value"`` lines.
HeaderMatch = Union[Mapping[str, str], str, Sequence[str]]

#: The longest wait the server holds (extensions section 1).
MAX_WAIT_SECONDS = 120.0
#: The wait's timeout when none is given (the server's default).
DEFAULT_WAIT_SECONDS = 30.0

Query = List[Tuple[str, str]]


def _seconds(timeout: Union[float, timedelta]) -> float:
    value = timeout.total_seconds() if isinstance(timeout, timedelta) else float(timeout)
    if not (0 <= value <= MAX_WAIT_SECONDS):
        raise ValueError(f"timeout must be between 0 and {MAX_WAIT_SECONDS:g} seconds, not {value:g}")
    return value


def _duration(seconds: float) -> str:
    """Seconds in the wait's duration syntax: ``0``, ``1500ms``."""
    ms = round(seconds * 1000)
    return "0" if ms == 0 else f"{ms}ms"


def _header_lines(headers: Optional[HeaderMatch]) -> List[str]:
    if headers is None:
        return []
    if isinstance(headers, str):
        return [headers]
    if isinstance(headers, Mapping):
        lines = []
        for name, value in headers.items():
            if ":" in name:
                raise ValueError(f"header name {name!r} contains a colon")
            lines.append(f"{name}: {value}")
        return lines
    return [str(h) for h in headers]


def wait_query(
    *,
    count: int = 1,
    timeout: Union[float, timedelta, None] = None,
    from_: Optional[str] = None,
    to: Optional[str] = None,
    subject: Optional[str] = None,
    body: Optional[str] = None,
    subject_re: Optional[str] = None,
    body_re: Optional[str] = None,
    headers: Optional[HeaderMatch] = None,
    since: Union[datetime, str, None] = None,
    unread: bool = False,
) -> Query:
    """The query string of ``GET /inboxes/{id}/emails/wait`` for these matchers, as pairs."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 100:
        raise ValueError("count must be an integer from 1 to 100")
    q: Query = []
    for name, value in (
        ("from", from_),
        ("to", to),
        ("subject", subject),
        ("body", body),
        ("subject_re", subject_re),
        ("body_re", body_re),
    ):
        if value is not None:
            q.append((name, value))
    q.extend(("header", line) for line in _header_lines(headers))
    if since is not None:
        if isinstance(since, datetime):
            aware = since if since.tzinfo else since.replace(tzinfo=timezone.utc)
            since = aware.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        q.append(("since", since))
    if unread:
        q.append(("unread", "true"))
    if count != 1:
        q.append(("count", str(count)))
    if timeout is not None:
        q.append(("timeout", _duration(_seconds(timeout))))
    return q


class BurnBox:
    """A client of one BurnBox server.

    ``base_url`` is where BurnBox answers (``https://burnbox.example.com``; ``/api/v1`` is added
    unless it ends with it); ``api_key`` is a team API key (``bb_...``), or pass ``token``, a JWT
    access token. ``domain_assignment_id`` is where :meth:`create_inbox` creates inboxes when it is
    not told (absent: the first domain the key may use). ``timeout`` bounds every request other
    than a wait, in seconds; a wait's connection stays open for as long as the wait may last.

    Every method raises :class:`~burnbox.APIError` (with the API's ``code``) for an answer other
    than 2xx, and :class:`~burnbox.TransportError` when BurnBox cannot be reached.
    """

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        *,
        token: Optional[str] = None,
        domain_assignment_id: Optional[str] = None,
        timeout: float = 30.0,
    ) -> None:
        if not base_url:
            raise ValueError("base_url is required")
        if api_key is not None and not api_key.startswith("bb_"):
            raise ValueError("an API key starts with bb_")
        root = base_url.rstrip("/")
        self.base_url = root if root.endswith("/api/v1") else f"{root}/api/v1"
        self._credential = api_key if api_key is not None else token
        self.domain_assignment_id = domain_assignment_id
        self.timeout = timeout

    @classmethod
    def from_env(cls, environ: Optional[Mapping[str, str]] = None) -> BurnBox:
        """A client from ``BURNBOX_URL`` and ``BURNBOX_API_KEY`` (and, when set,
        ``BURNBOX_DOMAIN_ASSIGNMENT_ID``)."""
        env = os.environ if environ is None else environ
        url = env.get("BURNBOX_URL")
        if not url:
            raise ConfigurationError("BURNBOX_URL is not set: set it to where BurnBox answers, e.g. https://burnbox.example.com")
        key = env.get("BURNBOX_API_KEY")
        if not key:
            raise ConfigurationError("BURNBOX_API_KEY is not set: create a team API key (bb_...) and set it")
        return cls(url, key, domain_assignment_id=env.get("BURNBOX_DOMAIN_ASSIGNMENT_ID") or None)

    def __repr__(self) -> str:
        return f"BurnBox({self.base_url!r})"

    # ---- HTTP

    def _request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Query] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> Any:
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        headers = {"Accept": "application/json", "User-Agent": f"burnbox-python/{__version__}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self._credential:
            headers["Authorization"] = f"Bearer {self._credential}"
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as res:
                return _decode(res.read())
        except urllib.error.HTTPError as err:
            with err:
                raw = err.read()
            raise APIError.from_response(err.code, _decode(raw, lenient=True), err.headers.get("Retry-After")) from None
        except (urllib.error.URLError, socket.timeout, ConnectionError) as err:
            reason = getattr(err, "reason", err)
            raise TransportError(f"{method} {url}: {reason}") from err

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Union[str, Sequence[str]]]] = None,
        json: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """Any operation of the API this client does not name: ``path`` is relative to ``/api/v1``
        (``/orgs/{org}/teams/{team}/webhooks``); gives the answer's JSON (None when empty) and raises
        :class:`~burnbox.APIError` like every method."""
        pairs: Query = []
        for name, value in (query or {}).items():
            pairs.extend((name, v) for v in ([value] if isinstance(value, str) else value))
        return self._request(method.upper(), path if path.startswith("/") else f"/{path}", query=pairs, body=json)

    @staticmethod
    def _id(inbox: Union[Inbox, str]) -> str:
        return urllib.parse.quote(inbox.id if isinstance(inbox, Inbox) else inbox, safe="")

    # ---- inboxes

    def create_inbox(
        self,
        domain_assignment_id: Optional[str] = None,
        *,
        alias: Optional[str] = None,
        ttl: Union[str, timedelta, None] = None,
        private: Optional[bool] = None,
    ) -> Inbox:
        """Creates an inbox; ``alias`` chooses its local part, ``ttl`` how long it lives
        (``timedelta`` or ``"1h"``). Use it as a context manager to delete it afterwards."""
        assignment = domain_assignment_id or self.domain_assignment_id or self._default_assignment()
        body: Dict[str, Any] = {"domain_assignment_id": assignment}
        if alias is not None:
            body["alias"] = alias
        if ttl is not None:
            body["ttl"] = f"{int(ttl.total_seconds())}s" if isinstance(ttl, timedelta) else ttl
        if private is not None:
            body["private"] = private
        return Inbox.from_json(self._request("POST", "/inboxes", body=body), self)

    def _default_assignment(self) -> str:
        domains = self._request("GET", "/my/domains", query=[("per_page", "1")])
        data = domains.get("data") or []
        if not data:
            raise ConfigurationError(
                "no domain is assigned to this key's team: assign one, or pass domain_assignment_id "
                "(or set BURNBOX_DOMAIN_ASSIGNMENT_ID)"
            )
        self.domain_assignment_id = str(data[0]["id"])
        return self.domain_assignment_id

    def get_inbox(self, inbox: Union[Inbox, str]) -> Inbox:
        return Inbox.from_json(self._request("GET", f"/inboxes/{self._id(inbox)}"), self)

    def list_inboxes(self, *, page: int = 1, per_page: int = 20, q: Optional[str] = None) -> Page[Inbox]:
        """The inboxes the caller can see; ``q`` searches their addresses."""
        query: Query = [("page", str(page)), ("per_page", str(per_page))]
        if q:
            query.append(("q", q))
        o = self._request("GET", "/inboxes", query=query)
        return _page(o, [Inbox.from_json(i, self) for i in o.get("data") or ()])

    def delete_inbox(self, inbox: Union[Inbox, str], *, missing_ok: bool = False) -> None:
        """Deletes an inbox and its mail; ``missing_ok`` ignores one already gone."""
        try:
            self._request("DELETE", f"/inboxes/{self._id(inbox)}")
        except APIError as err:
            if not (missing_ok and err.code == "not_found"):
                raise

    # ---- mail

    def list_emails(
        self, inbox: Union[Inbox, str], *, page: int = 1, per_page: int = 20, q: Optional[str] = None
    ) -> Page[EmailSummary]:
        """An inbox's emails, newest first; ``q`` is a search (``from:billing@ -is:read``)."""
        query: Query = [("page", str(page)), ("per_page", str(per_page))]
        if q:
            query.append(("q", q))
        o = self._request("GET", f"/inboxes/{self._id(inbox)}/emails", query=query)
        return _page(o, [EmailSummary.from_json(e) for e in o.get("data") or ()])

    def get_email(self, email: Union[EmailSummary, str]) -> Email:
        """The whole email: bodies, headers, attachments' metadata, codes and links."""
        email_id = email.id if isinstance(email, EmailSummary) else email
        return Email.from_json(self._request("GET", f"/emails/{urllib.parse.quote(email_id, safe='')}"))

    # ---- waiting

    def wait(
        self,
        inbox: Union[Inbox, str],
        *,
        count: int = 1,
        timeout: Union[float, timedelta, None] = None,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        subject: Optional[str] = None,
        body: Optional[str] = None,
        subject_re: Optional[str] = None,
        body_re: Optional[str] = None,
        headers: Optional[HeaderMatch] = None,
        since: Union[datetime, str, None] = None,
        unread: bool = False,
    ) -> WaitResult:
        """``GET /inboxes/{id}/emails/wait``: answers once ``count`` emails match, or after
        ``timeout`` seconds (default 30, at most 120). A timed-out wait is an answer here
        (``timed_out`` is true), not an error: that is how a test asserts no such mail came.

        Matchers, all of which must hold: ``from_``, ``to``, ``subject``, ``body`` (case-insensitive
        substrings), ``subject_re``, ``body_re`` (RE2), ``headers`` (exact values), ``since`` (a
        time or an email id: only mail after it; absent, mail already there counts), ``unread``.
        """
        query = wait_query(
            count=count, timeout=timeout, from_=from_, to=to, subject=subject, body=body,
            subject_re=subject_re, body_re=body_re, headers=headers, since=since, unread=unread,
        )  # fmt: skip
        held = _seconds(timeout) if timeout is not None else DEFAULT_WAIT_SECONDS
        o = self._request("GET", f"/inboxes/{self._id(inbox)}/emails/wait", query=query, timeout=held + self.timeout)
        return WaitResult.from_json(o)

    def wait_for_emails(
        self,
        inbox: Union[Inbox, str],
        count: int,
        *,
        timeout: Union[float, timedelta, None] = None,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        subject: Optional[str] = None,
        body: Optional[str] = None,
        subject_re: Optional[str] = None,
        body_re: Optional[str] = None,
        headers: Optional[HeaderMatch] = None,
        since: Union[datetime, str, None] = None,
        unread: bool = False,
    ) -> List[EmailSummary]:
        """Waits for ``count`` matching emails and gives them, oldest first; raises
        :class:`~burnbox.WaitTimeoutError` when fewer came in time."""
        result = self.wait(
            inbox, count=count, timeout=timeout, from_=from_, to=to, subject=subject, body=body,
            subject_re=subject_re, body_re=body_re, headers=headers, since=since, unread=unread,
        )  # fmt: skip
        if result.timed_out:
            raise WaitTimeoutError(result)
        return result.emails

    def wait_for_email(
        self,
        inbox: Union[Inbox, str],
        *,
        timeout: Union[float, timedelta, None] = None,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        subject: Optional[str] = None,
        body: Optional[str] = None,
        subject_re: Optional[str] = None,
        body_re: Optional[str] = None,
        headers: Optional[HeaderMatch] = None,
        since: Union[datetime, str, None] = None,
        unread: bool = False,
    ) -> EmailSummary:
        """Waits for the first matching email (see :meth:`wait` for the matchers); raises
        :class:`~burnbox.WaitTimeoutError` when none came in time."""
        return self.wait_for_emails(
            inbox, 1, timeout=timeout, from_=from_, to=to, subject=subject, body=body,
            subject_re=subject_re, body_re=body_re, headers=headers, since=since, unread=unread,
        )[0]  # fmt: skip

    def wait_for_code(
        self,
        inbox: Union[Inbox, str],
        *,
        timeout: Union[float, timedelta, None] = None,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        subject: Optional[str] = None,
        body: Optional[str] = None,
        subject_re: Optional[str] = None,
        body_re: Optional[str] = None,
        headers: Optional[HeaderMatch] = None,
        since: Union[datetime, str, None] = None,
        unread: bool = False,
    ) -> str:
        """Waits for the first matching email and gives its first one-time code; raises
        :class:`~burnbox.NothingExtractedError` when that email holds none."""
        email = self.wait_for_email(
            inbox, timeout=timeout, from_=from_, to=to, subject=subject, body=body,
            subject_re=subject_re, body_re=body_re, headers=headers, since=since, unread=unread,
        )  # fmt: skip
        code = email.extracted.code
        if code is None:
            raise NothingExtractedError(f"email {email.id} ({email.subject!r}) holds no code", email)
        return code

    def wait_for_link(
        self,
        inbox: Union[Inbox, str],
        kind: Optional[str] = None,
        *,
        timeout: Union[float, timedelta, None] = None,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        subject: Optional[str] = None,
        body: Optional[str] = None,
        subject_re: Optional[str] = None,
        body_re: Optional[str] = None,
        headers: Optional[HeaderMatch] = None,
        since: Union[datetime, str, None] = None,
        unread: bool = False,
    ) -> str:
        """Waits for the first matching email and gives the URL of its first link of ``kind``
        (``verify``, ``reset``, ``magic_link``, ``unsubscribe``, ``other``; None: the first that is
        not an unsubscribe link); raises :class:`~burnbox.NothingExtractedError` when it has none."""
        email = self.wait_for_email(
            inbox, timeout=timeout, from_=from_, to=to, subject=subject, body=body,
            subject_re=subject_re, body_re=body_re, headers=headers, since=since, unread=unread,
        )  # fmt: skip
        url = email.extracted.link(kind)
        if url is None:
            what = f"{kind} link" if kind else "link"
            raise NothingExtractedError(f"email {email.id} ({email.subject!r}) holds no {what}", email)
        return url


def _decode(raw: bytes, *, lenient: bool = False) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        if lenient:
            return text
        raise TransportError(f"BurnBox answered something that is not JSON: {text[:200]!r}") from None


def _page(o: Mapping[str, Any], items: list) -> Page:  # type: ignore[type-arg]
    return Page(
        items=items,
        page=int(o.get("page", 1)),
        per_page=int(o.get("per_page", len(items))),
        total=int(o.get("total", len(items))),
        total_pages=int(o.get("total_pages", 1)),
    )
