"""Checking webhook deliveries as BurnBox's webhook-dispatcher signs them."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from email.message import Message
from typing import Any, Callable, Iterable, List, Mapping, Optional, Tuple, Union

from .errors import WebhookVerificationError

__all__ = [
    "SIGNATURE_HEADER",
    "DELIVERY_ID_HEADER",
    "EVENT_HEADER",
    "WebhookDelivery",
    "verify_webhook",
    "ReplayGuard",
]

#: ``t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>``: the signature that covers the send time.
SIGNATURE_HEADER = "X-Service-Signature-256"
#: The delivery's id, the same on every attempt and redelivery of it.
DELIVERY_ID_HEADER = "X-Service-Delivery-ID"
#: ``email.received``, ``inbox.created``, ``inbox.expired``.
EVENT_HEADER = "X-Service-Event"

#: How far the signed send time may lie from now by default, in seconds.
DEFAULT_TOLERANCE = 300.0

_T = re.compile(r"\d{1,12}")
_V1 = re.compile(r"[0-9a-f]{64}")

#: A mapping of the request's headers (names in any case), an ``email.message.Message``, pairs, or a WSGI environ.
Headers = Union[Mapping[str, Any], Message, Iterable[Tuple[str, str]]]


@dataclass(frozen=True)
class WebhookDelivery:
    """A delivery's body: ``{id, event, timestamp, data}``."""

    #: The delivery's id, the same as ``X-Service-Delivery-ID`` on every attempt of it.
    id: str
    #: ``email.received``, ``inbox.created``, ``inbox.expired``.
    event: str
    #: When the event happened (ISO 8601).
    timestamp: str
    data: Mapping[str, Any] = field(default_factory=dict)


def _header(headers: Headers, name: str) -> Optional[str]:
    wanted = name.lower()
    # a Mapping, an email.message.Message (http.client, http.server), or (name, value) pairs
    items = headers.items() if hasattr(headers, "items") else headers
    for key, value in items:
        if str(key).lower() == wanted:
            if isinstance(value, (list, tuple)):
                return str(value[0]) if value else None
            return None if value is None else str(value)
    # WSGI environ (Flask's request.environ, Django's request.META)
    if hasattr(headers, "get"):
        value = headers.get("HTTP_" + wanted.upper().replace("-", "_"))
        if value is not None:
            return str(value)
    return None


def _parse(value: str) -> Optional[Tuple[int, List[bytes]]]:
    """``t=...,v1=...[,v1=...]`` as (t, [digest, ...]); None when it is not of that form."""
    t: Optional[int] = None
    v1: List[bytes] = []
    for part in value.split(","):
        key, eq, val = part.partition("=")
        key, val = key.strip(), val.strip()
        if not eq or not key:
            return None
        if key == "t":
            if t is not None or not _T.fullmatch(val):
                return None
            t = int(val)
        elif key == "v1":
            if not _V1.fullmatch(val):
                return None
            v1.append(bytes.fromhex(val))
        # other schemes are ignored, so a new one can be added beside v1
    if t is None or not v1:
        return None
    return t, v1


def verify_webhook(
    secret: str,
    headers: Headers,
    body: Union[bytes, str],
    *,
    tolerance: Optional[float] = DEFAULT_TOLERANCE,
    now: Optional[Callable[[], float]] = None,
) -> WebhookDelivery:
    """Checks a delivery by its ``X-Service-Signature-256: t=<unix seconds>,v1=<hex>`` header and
    gives its parsed body.

    ``v1`` is the lowercase hex HMAC-SHA256, keyed with the webhook's secret (its text, as shown
    when the webhook was created), of ``t + "." + body`` over the exact body bytes; ``t`` is when
    this attempt was sent. Pass the body exactly as received (``request.get_data()``,
    ``await request.body()``), never re-serialized JSON. ``headers`` is any mapping of the request's
    headers (names in any case) or a WSGI environ. ``t`` must lie within ``tolerance`` seconds of
    ``now()`` (``time.time`` by default), so a captured delivery replayed later is refused;
    ``tolerance=None`` turns that off (then drop repeated ids with :class:`ReplayGuard`). One
    matching ``v1`` of several is enough (a secret being rotated); digests are compared in
    constant time.

    Raises :class:`~burnbox.WebhookVerificationError` whose ``reason`` is ``missing_signature``,
    ``malformed_signature``, ``stale_timestamp``, ``bad_signature`` or ``malformed_body``.
    """
    given = (_header(headers, SIGNATURE_HEADER) or "").strip()
    if not given:
        raise WebhookVerificationError("missing_signature", f"no {SIGNATURE_HEADER} header")
    parsed = _parse(given)
    if parsed is None:
        raise WebhookVerificationError(
            "malformed_signature", f"{SIGNATURE_HEADER} is not t=<unix seconds>,v1=<64 lowercase hex>"
        )
    signed_at, digests = parsed
    if tolerance is not None:
        current = (now or time.time)()
        if abs(current - signed_at) > tolerance:
            raise WebhookVerificationError(
                "stale_timestamp", f"the delivery was signed at {signed_at}, outside {tolerance:g} s of now"
            )
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    expected = hmac.new(secret.encode("utf-8"), str(signed_at).encode("ascii") + b"." + raw, hashlib.sha256).digest()
    matched = False
    for digest in digests:  # every value is compared, so the time taken says nothing about which matched
        matched = hmac.compare_digest(expected, digest) or matched
    if not matched:
        raise WebhookVerificationError("bad_signature", "no signature matches the body and its send time")
    try:
        o = json.loads(raw.decode("utf-8"))
    except ValueError:
        raise WebhookVerificationError("malformed_body", "the body is not JSON") from None
    if not isinstance(o, dict) or not isinstance(o.get("id"), str) or not isinstance(o.get("event"), str):
        raise WebhookVerificationError("malformed_body", "the body is not a delivery {id, event, timestamp, data}")
    data = o.get("data")
    return WebhookDelivery(
        id=o["id"],
        event=o["event"],
        timestamp=str(o.get("timestamp", "")),
        data=data if isinstance(data, dict) else {},
    )


class ReplayGuard:
    """Drops a delivery id already handled: a retry of a delivery that was handled but answered
    too late, a redelivery, or a captured delivery replayed within the tolerance.

    Call :meth:`seen` after :func:`verify_webhook` accepted a delivery; when it is true, answer
    2xx without handling it again; call :meth:`forget` when handling failed, so the retry gets
    through. Ids are kept in memory (one process) for ``ttl`` seconds, at most ``max_size`` of
    them, the least recently seen going first. Safe to share between threads.
    """

    def __init__(self, ttl: float = 24 * 60 * 60, max_size: int = 10_000, *, now: Optional[Callable[[], float]] = None):
        if not ttl > 0:
            raise ValueError("ttl must be positive")
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self.ttl = ttl
        self.max_size = max_size
        self._now = now or time.monotonic
        self._ids: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def seen(self, delivery_id: str) -> bool:
        """True when this id was seen within the TTL (drop the delivery); else records it."""
        with self._lock:
            at = self._now()
            expires = self._ids.pop(delivery_id, None)
            if expires is not None and expires > at:
                self._ids[delivery_id] = expires  # most recent again; the expiry stays the first sighting's
                return True
            self._ids[delivery_id] = at + self.ttl
            while len(self._ids) > self.max_size:
                self._ids.popitem(last=False)
            return False

    def forget(self, delivery_id: str) -> None:
        """Forgets an id whose handling failed, so that its retry is handled."""
        with self._lock:
            self._ids.pop(delivery_id, None)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, delivery_id: object) -> bool:
        with self._lock:
            expires = self._ids.get(delivery_id)  # type: ignore[call-overload]
            return expires is not None and expires > self._now()
