"""The pytest plugin, run in a pytest of its own (pytester) against the stand-in."""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from payloads import inbox_json, summary_json

KEY = "bb_" + "cd" * 32
INBOX = inbox_json()


@pytest.fixture(autouse=True)
def _importable(monkeypatch):
    """The inner pytest imports burnbox from where this one does (the sources of a checkout)."""
    import burnbox

    where = str(Path(burnbox.__file__).resolve().parent.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [where, os.environ.get("PYTHONPATH")])))


def _plugin_args() -> list:
    """The installed package registers the plugin by its entry point; a checkout names it."""
    eps = entry_points()
    group = eps.select(group="pytest11") if hasattr(eps, "select") else eps.get("pytest11", [])
    return [] if any(ep.value == "burnbox.pytest_plugin" for ep in group) else ["-p", "burnbox.pytest_plugin"]


def test_burnbox_inbox_is_a_fresh_inbox_deleted_after_the_test_pass_or_fail(pytester, stand_in, monkeypatch):
    stand_in.on("POST", "/api/v1/inboxes", 201, INBOX)
    stand_in.on("DELETE", f"/api/v1/inboxes/{INBOX['id']}", 204)
    stand_in.on(
        "GET",
        f"/api/v1/inboxes/{INBOX['id']}/emails/wait",
        200,
        {"data": [summary_json(["482913"])], "matched": 1, "timed_out": False},
    )
    monkeypatch.setenv("BURNBOX_URL", stand_in.url)
    monkeypatch.setenv("BURNBOX_API_KEY", KEY)
    monkeypatch.setenv("BURNBOX_DOMAIN_ASSIGNMENT_ID", INBOX["domain_assignment_id"])
    pytester.makeini("[pytest]\nburnbox_inbox_ttl = 10m\n")
    pytester.makepyfile(
        """
        def test_sign_up(burnbox_inbox):
            assert burnbox_inbox.address.endswith("@qa.example.test")
            assert burnbox_inbox.wait_for_code(subject="sign-up") == "482913"

        def test_that_fails(burnbox_inbox):
            assert False, "the app sent no mail"

        def test_client(burnbox):
            assert burnbox.base_url.endswith("/api/v1")
        """
    )
    result = pytester.runpytest_subprocess(*_plugin_args())
    result.assert_outcomes(passed=2, failed=1)
    creates = [s for s in stand_in.seen if s.method == "POST"]
    deletes = [s for s in stand_in.seen if s.method == "DELETE"]
    assert len(creates) == 2 and len(deletes) == 2
    assert creates[0].body["ttl"] == "10m"
    assert all(s.headers["authorization"] == f"Bearer {KEY}" for s in creates + deletes)


def test_without_the_settings_a_test_using_the_fixtures_errors_saying_which(pytester, monkeypatch):
    monkeypatch.delenv("BURNBOX_URL", raising=False)
    monkeypatch.delenv("BURNBOX_API_KEY", raising=False)
    pytester.makepyfile("def test_sign_up(burnbox_inbox):\n    pass\n")
    result = pytester.runpytest_subprocess(*_plugin_args())
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*BURNBOX_URL is not set*"])
