"""What BurnBox answers, as frozen dataclasses.

Each keeps the JSON object it was read from in ``raw``, so a field this version does not name is
still at hand (``inbox.raw["smtp_behaviour"]``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Generic, Iterator, Mapping, Optional, Sequence, TypeVar, Union

if TYPE_CHECKING:
    from datetime import timedelta

    from .client import BurnBox, HeaderMatch

__all__ = [
    "Code",
    "Link",
    "Extracted",
    "Inbox",
    "EmailSummary",
    "Email",
    "WaitResult",
    "Page",
]

T = TypeVar("T")
JSON = Mapping[str, Any]


def parse_time(value: Any) -> Optional[datetime]:
    """An ISO 8601 time of the API (``2026-11-27T07:00:00.000Z``) as an aware datetime."""
    if not isinstance(value, str) or not value:
        return None
    text = value[:-1] + "+00:00" if value.endswith("Z") else value
    parsed = datetime.fromisoformat(text)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


@dataclass(frozen=True)
class Code:
    """A one-time code found in a mail: ``value`` as typed (``123 456`` gives ``123456``)."""

    value: str
    #: Up to 60 characters of the text around the code, the code included.
    context: str

    @classmethod
    def from_json(cls, o: JSON) -> Code:
        return cls(value=str(o["value"]), context=str(o.get("context", "")))


@dataclass(frozen=True)
class Link:
    """A link found in a mail."""

    url: str
    #: The anchor's text; empty for a URL of the text part or of a List-Unsubscribe header.
    text: str
    #: ``verify``, ``reset``, ``magic_link``, ``unsubscribe`` or ``other``.
    kind: str

    @classmethod
    def from_json(cls, o: JSON) -> Link:
        return cls(url=str(o["url"]), text=str(o.get("text", "")), kind=str(o.get("kind", "other")))


@dataclass(frozen=True)
class Extracted:
    """The codes and links of a mail, worked out once when it was received."""

    codes: tuple[Code, ...] = ()
    links: tuple[Link, ...] = ()

    @classmethod
    def from_json(cls, o: Optional[JSON]) -> Extracted:
        if not o:
            return cls()
        return cls(
            codes=tuple(Code.from_json(c) for c in o.get("codes") or ()),
            links=tuple(Link.from_json(link) for link in o.get("links") or ()),
        )

    @property
    def code(self) -> Optional[str]:
        """The first code's value, or None."""
        return self.codes[0].value if self.codes else None

    def link(self, kind: Optional[str] = None) -> Optional[str]:
        """The URL of the first link of ``kind`` (None: the first that is not an unsubscribe link)."""
        for link in self.links:
            if (link.kind == kind) if kind is not None else (link.kind != "unsubscribe"):
                return link.url
        return None


@dataclass(frozen=True)
class EmailSummary:
    """An email as lists and waits give it (no body; ``snippet`` is its start)."""

    id: str
    inbox_id: str
    from_address: str
    subject: str
    snippet: str
    received_at: Optional[datetime]
    is_read: bool
    has_attachments: bool
    size_bytes: int
    extracted: Extracted
    #: ``pass`` when DMARC passes, ``fail`` when it fails, else ``none``.
    authentication_summary: str
    raw: JSON = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_json(cls, o: JSON) -> EmailSummary:
        return cls(
            id=str(o["id"]),
            inbox_id=str(o["inbox_id"]),
            from_address=str(o.get("from_address", "")),
            subject=str(o.get("subject", "")),
            snippet=str(o.get("snippet", "")),
            received_at=parse_time(o.get("received_at")),
            is_read=bool(o.get("is_read", False)),
            has_attachments=bool(o.get("has_attachments", False)),
            size_bytes=int(o.get("size_bytes", 0)),
            extracted=Extracted.from_json(o.get("extracted")),
            authentication_summary=str(o.get("authentication_summary", "none")),
            raw=o,
        )


@dataclass(frozen=True)
class Email:
    """A whole email (``GET /emails/{id}``)."""

    id: str
    inbox_id: str
    from_address: str
    to_address: str
    subject: str
    body_text: Optional[str]
    body_html: Optional[str]
    #: The message's headers, by name as received.
    headers: Mapping[str, str]
    message_id: Optional[str]
    received_at: Optional[datetime]
    is_read: bool
    size_bytes: int
    extracted: Extracted
    #: ``[{id, filename, content_type, size_bytes, ...}]`` as the API gives them.
    attachments: Sequence[JSON]
    #: SPF, DKIM, DMARC and ARC verdicts (``{"spf": {...}, "dkim": [...], ...}``); None on older mail.
    authentication: Optional[JSON]
    raw: JSON = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_json(cls, o: JSON) -> Email:
        return cls(
            id=str(o["id"]),
            inbox_id=str(o["inbox_id"]),
            from_address=str(o.get("from_address", "")),
            to_address=str(o.get("to_address", "")),
            subject=str(o.get("subject", "")),
            body_text=o.get("body_text"),
            body_html=o.get("body_html"),
            headers=dict(o.get("headers") or {}),
            message_id=o.get("message_id"),
            received_at=parse_time(o.get("received_at")),
            is_read=bool(o.get("is_read", False)),
            size_bytes=int(o.get("size_bytes", 0)),
            extracted=Extracted.from_json(o.get("extracted")),
            attachments=list(o.get("attachments") or ()),
            authentication=o.get("authentication"),
            raw=o,
        )


@dataclass(frozen=True)
class WaitResult:
    """The answer of a wait: ``emails`` the first matches (oldest first), ``matched`` how many match."""

    emails: list[EmailSummary]
    matched: int
    #: True when fewer emails than asked for matched within the timeout.
    timed_out: bool

    @classmethod
    def from_json(cls, o: JSON) -> WaitResult:
        return cls(
            emails=[EmailSummary.from_json(e) for e in o.get("data") or ()],
            matched=int(o.get("matched", 0)),
            timed_out=bool(o.get("timed_out", False)),
        )


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a list; iterating it gives its items."""

    items: list[T]
    page: int
    per_page: int
    total: int
    total_pages: int

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True)
class Inbox:
    """A disposable inbox. Mail sent to ``address`` lands in it.

    Used as a context manager it is deleted on leaving the block::

        with bb.create_inbox() as inbox:
            ...
    """

    id: str
    #: The full address, ``local@domain``: what a sign-up form is given.
    address: str
    #: The local part alone.
    local_part: str
    domain_assignment_id: str
    team_id: str
    expires_at: Optional[datetime]
    created_at: Optional[datetime]
    email_count: int
    unread_count: int
    raw: JSON = field(repr=False, compare=False, default_factory=dict)
    _client: Optional[BurnBox] = field(repr=False, compare=False, default=None)

    @classmethod
    def from_json(cls, o: JSON, client: Optional[BurnBox] = None) -> Inbox:
        return cls(
            id=str(o["id"]),
            address=str(o["full_address"]),
            local_part=str(o.get("address", "")),
            domain_assignment_id=str(o.get("domain_assignment_id", "")),
            team_id=str(o.get("team_id", "")),
            expires_at=parse_time(o.get("expires_at")),
            created_at=parse_time(o.get("created_at")),
            email_count=int(o.get("email_count", 0)),
            unread_count=int(o.get("unread_count", 0)),
            raw=o,
            _client=client,
        )

    def __str__(self) -> str:
        return self.address

    @property
    def client(self) -> BurnBox:
        if self._client is None:
            raise RuntimeError("this Inbox was built without a client")
        return self._client

    def __enter__(self) -> Inbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.delete(missing_ok=True)

    def delete(self, *, missing_ok: bool = False) -> None:
        """Deletes the inbox and its mail."""
        self.client.delete_inbox(self.id, missing_ok=missing_ok)

    def emails(self, *, page: int = 1, per_page: int = 20, q: Optional[str] = None) -> Page[EmailSummary]:
        """The inbox's emails, newest first."""
        return self.client.list_emails(self.id, page=page, per_page=per_page, q=q)

    def wait(self, **matchers: Any) -> WaitResult:
        """:meth:`BurnBox.wait` on this inbox."""
        return self.client.wait(self.id, **matchers)

    def wait_for_email(
        self,
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
        """:meth:`BurnBox.wait_for_email` on this inbox."""
        return self.client.wait_for_email(
            self.id, timeout=timeout, from_=from_, to=to, subject=subject, body=body,
            subject_re=subject_re, body_re=body_re, headers=headers, since=since, unread=unread,
        )  # fmt: skip

    def wait_for_code(
        self,
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
        """:meth:`BurnBox.wait_for_code` on this inbox."""
        return self.client.wait_for_code(
            self.id, timeout=timeout, from_=from_, to=to, subject=subject, body=body,
            subject_re=subject_re, body_re=body_re, headers=headers, since=since, unread=unread,
        )  # fmt: skip

    def wait_for_link(
        self,
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
        """:meth:`BurnBox.wait_for_link` on this inbox."""
        return self.client.wait_for_link(
            self.id, kind, timeout=timeout, from_=from_, to=to, subject=subject, body=body,
            subject_re=subject_re, body_re=body_re, headers=headers, since=since, unread=unread,
        )  # fmt: skip
