"""The pytest plugin, registered by the ``pytest11`` entry point when ``burnbox`` is installed.

Fixtures:

- ``burnbox``: a :class:`~burnbox.BurnBox` client from ``BURNBOX_URL`` and ``BURNBOX_API_KEY``
  (one per session); a test that asks for it errors, saying which, when one is not set.
- ``burnbox_inbox``: a fresh :class:`~burnbox.Inbox` for the test, deleted after it (whether the
  test passed or not).
"""

from __future__ import annotations

from typing import Iterator

import pytest

from .client import BurnBox
from .models import Inbox


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("burnbox_inbox_ttl", "how long the burnbox_inbox fixture's inboxes live (e.g. 10m)", default="")


@pytest.fixture(scope="session")
def burnbox() -> BurnBox:
    """A BurnBox client from ``BURNBOX_URL`` and ``BURNBOX_API_KEY``."""
    return BurnBox.from_env()


@pytest.fixture
def burnbox_inbox(burnbox: BurnBox, request: pytest.FixtureRequest) -> Iterator[Inbox]:
    """A fresh inbox, deleted after the test."""
    ttl = request.config.getini("burnbox_inbox_ttl") or None
    with burnbox.create_inbox(ttl=ttl) as inbox:
        yield inbox
