"""The README's first example, against a running BurnBox, and the rest of what the client covers."""

from __future__ import annotations

import uuid

import pytest

from burnbox import APIError, BurnBox, Inbox, WaitTimeoutError

# the inbox of test_sign_up, to check afterwards that the fixture deleted it
_used: dict = {}


def test_sign_up(burnbox_inbox, sign_up):
    sign_up(burnbox_inbox.address)
    code = burnbox_inbox.wait_for_code(subject="Confirm")
    assert code == "482913"
    _used["inbox"] = burnbox_inbox


def test_the_fixture_deleted_the_inbox_after_the_test(burnbox: BurnBox):
    inbox: Inbox = _used["inbox"]
    with pytest.raises(APIError) as err:
        burnbox.get_inbox(inbox.id)
    assert (err.value.status, err.value.code) == (404, "not_found")


def test_links_mail_and_a_wait_that_times_out(burnbox: BurnBox, send_mail):
    run = uuid.uuid4().hex[:8]
    with burnbox.create_inbox(alias=f"py-{run}", ttl="15m") as inbox:
        assert inbox.address.startswith(f"py-{run}@")
        send_mail(
            inbox.address,
            "Reset your password",
            "Reset it here: https://shop.example/reset?t=9",
            html='<a href="https://shop.example/reset?t=9">Reset password</a> <a href="https://shop.example/unsub">unsubscribe</a>',
            headers={"X-Test-Run": run},
        )
        link = inbox.wait_for_link("reset", headers={"X-Test-Run": run}, timeout=10)
        assert link == "https://shop.example/reset?t=9"

        (summary,) = inbox.emails()
        assert (summary.subject, summary.from_address) == ("Reset your password", "noreply@shop.example")
        email = burnbox.get_email(summary)
        assert email.headers.get("X-Test-Run") == run or email.headers.get("x-test-run") == run
        assert "https://shop.example/reset?t=9" in (email.body_text or "")
        assert [i.id for i in burnbox.list_inboxes(q=f"py-{run}")] == [inbox.id]

        # no such mail: the wait answers at once with timed_out, and wait_for_email raises
        result = inbox.wait(subject="never sent", timeout=0)
        assert (result.timed_out, result.matched, result.emails) == (True, 0, [])
        with pytest.raises(WaitTimeoutError):
            inbox.wait_for_email(subject="never sent", timeout=0.2)
        # mail already there counts, unless `since` puts it before the wait
        assert inbox.wait_for_email(subject="Reset", timeout=0).id == summary.id
        assert inbox.wait(subject="Reset", since=summary.id, timeout=0).timed_out
        with pytest.raises(APIError) as err:
            inbox.wait(subject_re="(unclosed", timeout=0)
        assert (err.value.status, err.value.code) == (400, "validation_error")
    with pytest.raises(APIError) as err:
        burnbox.get_inbox(inbox.id)
    assert err.value.code == "not_found"


def test_errors_carry_the_api_code(burnbox: BurnBox):
    with pytest.raises(APIError) as err:
        burnbox.get_email("0193a0c4-0000-7000-8000-000000000000")
    assert (err.value.status, err.value.code) == (404, "not_found")
    with pytest.raises(APIError) as err:
        burnbox.wait(str(uuid.uuid4()), timeout=0)
    assert (err.value.status, err.value.code) == (404, "not_found")
    anonymous = BurnBox(burnbox.base_url, "bb_" + "0" * 64)
    with pytest.raises(APIError) as err:
        anonymous.list_inboxes()
    assert (err.value.status, err.value.code) == (401, "unauthenticated")
