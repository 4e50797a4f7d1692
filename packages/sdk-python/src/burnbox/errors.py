"""The exceptions of the client: every one is a :class:`BurnBoxError`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional

if TYPE_CHECKING:
    from .models import EmailSummary, WaitResult

__all__ = [
    "BurnBoxError",
    "APIError",
    "TransportError",
    "ConfigurationError",
    "WaitTimeoutError",
    "NothingExtractedError",
    "WebhookVerificationError",
]

# The envelope's code when an answer carries none (a proxy's error page, an empty body).
_FALLBACK_CODES = {
    400: "validation_error",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    429: "rate_limited",
}


class BurnBoxError(Exception):
    """The base of every error this package raises."""


class APIError(BurnBoxError):
    """BurnBox answered with a status other than 2xx.

    ``code`` is the error envelope's ``code`` (``validation_error``, ``unauthenticated``,
    ``forbidden``, ``not_found``, ``conflict``, ``rate_limited``, ...): compare it, not the message.
    A 429 carries ``retry_after`` (seconds).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        body: Any = None,
        *,
        retry_after: Optional[float] = None,
        error_id: Optional[str] = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body
        self.retry_after = retry_after
        self.error_id = error_id

    @property
    def details(self) -> list[Mapping[str, Any]]:
        """The fields a 400 names (``[{"path": ..., "message": ...}]``), else empty."""
        if isinstance(self.body, dict) and isinstance(self.body.get("details"), list):
            return [d for d in self.body["details"] if isinstance(d, dict)]
        return []

    @classmethod
    def from_response(cls, status: int, body: Any, retry_after_header: Optional[str] = None) -> APIError:
        """The error for an answer of ``status`` whose body is ``body`` (parsed JSON, text or None)."""
        envelope = body if isinstance(body, dict) else {}
        code = envelope.get("code")
        if not isinstance(code, str):
            code = _FALLBACK_CODES.get(status, "internal_error" if status >= 500 else f"http_{status}")
        message = envelope.get("error")
        if not isinstance(message, str):
            message = body[:200] if isinstance(body, str) and body else f"HTTP {status}"
        retry_after: Optional[float] = None
        if status == 429:
            from_body = envelope.get("retry_after")
            if isinstance(from_body, (int, float)) and not isinstance(from_body, bool):
                retry_after = float(from_body)
            elif retry_after_header:
                try:
                    retry_after = float(retry_after_header)
                except ValueError:
                    retry_after = None
        error_id = envelope.get("error_id")
        return cls(
            status,
            code,
            message,
            body,
            retry_after=retry_after,
            error_id=error_id if isinstance(error_id, str) else None,
        )


class TransportError(BurnBoxError, ConnectionError):
    """BurnBox could not be reached, or its answer could not be read."""


class ConfigurationError(BurnBoxError, ValueError):
    """The client cannot be set up from what it was given (a setting is missing)."""


class WaitTimeoutError(BurnBoxError, TimeoutError):
    """Fewer matching emails than asked for came within the wait's timeout.

    ``result`` is the wait's answer: what did match (``result.emails``) and how many
    (``result.matched``).
    """

    def __init__(self, result: WaitResult) -> None:
        super().__init__(f"timed out waiting for email: {result.matched} matched")
        self.result = result


class NothingExtractedError(BurnBoxError, LookupError):
    """The mail came, but it holds no code (or no link of the kind asked for)."""

    def __init__(self, message: str, email: EmailSummary) -> None:
        super().__init__(message)
        self.email = email


class WebhookVerificationError(BurnBoxError, ValueError):
    """:func:`burnbox.verify_webhook` refused a delivery.

    ``reason`` is one of ``missing_signature``, ``malformed_signature``, ``stale_timestamp``,
    ``bad_signature``, ``malformed_body``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
