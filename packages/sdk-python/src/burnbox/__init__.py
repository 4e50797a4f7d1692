"""BurnBox for Python: disposable inboxes for tests, waiting for mail, its codes and links, and
checking webhook signatures. The standard library only.

    from burnbox import BurnBox

    bb = BurnBox.from_env()  # BURNBOX_URL, BURNBOX_API_KEY
    with bb.create_inbox() as inbox:
        sign_up(inbox.address)
        code = inbox.wait_for_code(subject="Confirm")
"""

__version__ = "0.1.0"

from .client import BurnBox, HeaderMatch, wait_query  # noqa: E402
from .errors import (  # noqa: E402
    APIError,
    BurnBoxError,
    ConfigurationError,
    NothingExtractedError,
    TransportError,
    WaitTimeoutError,
    WebhookVerificationError,
)
from .models import Code, Email, EmailSummary, Extracted, Inbox, Link, Page, WaitResult  # noqa: E402
from .webhook import ReplayGuard, WebhookDelivery, verify_webhook  # noqa: E402

__all__ = [
    "__version__",
    "BurnBox",
    "HeaderMatch",
    "wait_query",
    "Inbox",
    "Email",
    "EmailSummary",
    "Extracted",
    "Code",
    "Link",
    "Page",
    "WaitResult",
    "verify_webhook",
    "WebhookDelivery",
    "ReplayGuard",
    "BurnBoxError",
    "APIError",
    "TransportError",
    "ConfigurationError",
    "WaitTimeoutError",
    "NothingExtractedError",
    "WebhookVerificationError",
]
