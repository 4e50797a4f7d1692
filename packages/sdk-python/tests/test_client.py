from __future__ import annotations

import socket
from datetime import datetime, timedelta, timezone

import pytest
from payloads import inbox_json, summary_json

from burnbox import (
    APIError,
    BurnBox,
    ConfigurationError,
    Inbox,
    NothingExtractedError,
    TransportError,
    WaitTimeoutError,
    wait_query,
)

KEY = "bb_" + "ab" * 32
INBOX = inbox_json()
WAIT = f"/api/v1/inboxes/{INBOX['id']}/emails/wait"


@pytest.fixture
def bb(stand_in) -> BurnBox:
    return BurnBox(stand_in.url, KEY, domain_assignment_id=INBOX["domain_assignment_id"])


def test_create_inbox_sends_the_key_and_the_body_and_reads_the_inbox(stand_in, bb):
    stand_in.on("POST", "/api/v1/inboxes", 201, INBOX)
    inbox = bb.create_inbox(alias="signup", ttl=timedelta(minutes=10))

    seen = stand_in.last("POST", "/api/v1/inboxes")
    assert seen.headers["authorization"] == f"Bearer {KEY}"
    assert seen.headers["content-type"] == "application/json"
    assert seen.headers["user-agent"].startswith("burnbox-python/")
    assert seen.body == {"domain_assignment_id": INBOX["domain_assignment_id"], "alias": "signup", "ttl": "600s"}
    assert inbox.id == INBOX["id"]
    assert inbox.address == "signup-1a2b3c@qa.example.test"
    assert str(inbox) == inbox.address
    assert inbox.local_part == "signup-1a2b3c"
    assert inbox.expires_at == datetime(2026, 11, 27, 8, 0, tzinfo=timezone.utc)
    assert inbox.raw["org_id"] == INBOX["org_id"]


def test_create_inbox_without_an_assignment_takes_the_first_domain_the_key_may_use(stand_in):
    stand_in.on("GET", "/api/v1/my/domains", 200, {"data": [{"id": "assign-1"}], "page": 1, "per_page": 1, "total": 3, "total_pages": 3})
    stand_in.on("POST", "/api/v1/inboxes", 201, INBOX)
    bb = BurnBox(f"{stand_in.url}/api/v1/", KEY)
    bb.create_inbox()
    bb.create_inbox()
    assert stand_in.last("POST", "/api/v1/inboxes").body == {"domain_assignment_id": "assign-1"}
    assert [s.path for s in stand_in.seen].count("/api/v1/my/domains") == 1


def test_create_inbox_when_no_domain_is_assigned_says_what_to_do(stand_in):
    stand_in.on("GET", "/api/v1/my/domains", 200, {"data": [], "page": 1, "per_page": 1, "total": 0, "total_pages": 0})
    with pytest.raises(ConfigurationError, match="domain_assignment_id"):
        BurnBox(stand_in.url, KEY).create_inbox()


def test_an_inbox_used_as_a_context_manager_is_deleted_when_the_block_ends_even_on_error(stand_in, bb):
    stand_in.on("POST", "/api/v1/inboxes", 201, INBOX)
    stand_in.on("DELETE", f"/api/v1/inboxes/{INBOX['id']}", 204)
    with pytest.raises(RuntimeError, match="the test failed"):
        with bb.create_inbox() as inbox:
            assert isinstance(inbox, Inbox)
            raise RuntimeError("the test failed")
    assert stand_in.last("DELETE", f"/api/v1/inboxes/{INBOX['id']}").headers["authorization"] == f"Bearer {KEY}"


def test_delete_inbox_raises_not_found_unless_missing_ok(stand_in, bb):
    # the stand-in answers 404 in the envelope for every route it does not know
    with pytest.raises(APIError) as err:
        bb.delete_inbox("gone")
    assert (err.value.status, err.value.code) == (404, "not_found")
    bb.delete_inbox("gone", missing_ok=True)


def test_an_error_answer_carries_the_envelope_code_message_and_details(stand_in, bb):
    envelope = {
        "error": "Validation failed",
        "code": "validation_error",
        "error_id": "err-1",
        "details": [{"path": "alias", "message": "Invalid"}],
    }
    stand_in.on("POST", "/api/v1/inboxes", 400, envelope)
    with pytest.raises(APIError) as err:
        bb.create_inbox(alias="Not Valid!")
    e = err.value
    assert (e.status, e.code, e.message, e.error_id) == (400, "validation_error", "Validation failed", "err-1")
    assert e.details == [{"path": "alias", "message": "Invalid"}]
    assert "validation_error" in str(e)


def test_a_429_carries_retry_after_from_the_body_else_from_the_header(stand_in, bb):
    stand_in.on("GET", "/api/v1/inboxes", 429, {"error": "Too many requests", "retry_after": 7})
    with pytest.raises(APIError) as err:
        bb.list_inboxes()
    assert (err.value.code, err.value.retry_after) == ("rate_limited", 7.0)
    stand_in.on("GET", "/api/v1/inboxes", 429, "slow down", {"Retry-After": "3"})
    with pytest.raises(APIError) as err:
        bb.list_inboxes()
    assert (err.value.code, err.value.message, err.value.retry_after) == ("rate_limited", "slow down", 3.0)


def test_an_answer_without_an_envelope_gets_the_code_of_its_status(stand_in, bb):
    stand_in.on("GET", "/api/v1/emails/x", 502, "<html>Bad gateway</html>")
    with pytest.raises(APIError) as err:
        bb.get_email("x")
    assert (err.value.status, err.value.code) == (502, "internal_error")
    assert err.value.body == "<html>Bad gateway</html>"


def test_a_server_that_is_not_there_is_a_transport_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(TransportError):
        BurnBox(f"http://127.0.0.1:{port}", KEY).list_inboxes()


def test_lists_are_pages_of_models(stand_in, bb):
    stand_in.on("GET", "/api/v1/inboxes", 200, {"data": [INBOX], "page": 2, "per_page": 1, "total": 2, "total_pages": 2})
    stand_in.on(
        "GET",
        f"/api/v1/inboxes/{INBOX['id']}/emails",
        200,
        {"data": [summary_json(["482913"])], "page": 1, "per_page": 20, "total": 1, "total_pages": 1},
    )
    page = bb.list_inboxes(page=2, per_page=1, q="signup")
    assert stand_in.last("GET", "/api/v1/inboxes").query == [("page", "2"), ("per_page", "1"), ("q", "signup")]
    assert (page.page, page.total, len(page)) == (2, 2, 1)
    (inbox,) = page
    emails = inbox.emails()
    assert [e.extracted.code for e in emails] == ["482913"]
    assert emails.items[0].received_at == datetime(2026, 11, 27, 7, 0, 1, 250000, tzinfo=timezone.utc)


def test_get_email_reads_the_whole_email(stand_in, bb):
    email = {
        **summary_json(["482913"], [{"url": "https://shop.example/verify?t=1", "text": "Verify", "kind": "verify"}]),
        "to_address": INBOX["full_address"],
        "body_text": "Your code is 482913",
        "body_html": None,
        "headers": {"X-Test-Run": "42"},
        "message_id": "<m1@shop.example>",
        "attachments": [],
        "authentication": {"spf": {"result": "none", "domain": "shop.example"}, "dkim": [], "dmarc": {}, "arc": {}},
    }
    stand_in.on("GET", f"/api/v1/emails/{email['id']}", 200, email)
    got = bb.get_email(email["id"])
    assert (got.body_text, got.body_html, got.headers["X-Test-Run"]) == ("Your code is 482913", None, "42")
    assert got.extracted.link("verify") == "https://shop.example/verify?t=1"
    assert got.authentication is not None and got.authentication["spf"]["result"] == "none"


def test_the_wait_sends_every_matcher_as_the_server_reads_it():
    since = datetime(2026, 11, 27, 8, 0, tzinfo=timezone(timedelta(hours=1)))
    q = wait_query(
        count=2,
        timeout=2.5,
        from_="shop.example",
        to="qa@",
        subject="code",
        body="welcome",
        subject_re="^Your",
        body_re=r"\d{6}",
        headers={"X-Test-Run": "42"},
        since=since,
        unread=True,
    )
    assert q == [
        ("from", "shop.example"),
        ("to", "qa@"),
        ("subject", "code"),
        ("body", "welcome"),
        ("subject_re", "^Your"),
        ("body_re", r"\d{6}"),
        ("header", "X-Test-Run: 42"),
        ("since", "2026-11-27T07:00:00.000Z"),
        ("unread", "true"),
        ("count", "2"),
        ("timeout", "2500ms"),
    ]
    assert wait_query() == []
    assert wait_query(timeout=0, headers=["A: 1", "B: 2"], since="email-id") == [
        ("header", "A: 1"),
        ("header", "B: 2"),
        ("since", "email-id"),
        ("timeout", "0"),
    ]
    assert wait_query(timeout=timedelta(minutes=2)) == [("timeout", "120000ms")]


@pytest.mark.parametrize(
    "bad",
    [{"count": 0}, {"count": 101}, {"count": True}, {"timeout": 121}, {"timeout": -1}, {"headers": {"X:Y": "1"}}],
)
def test_a_wait_the_server_would_refuse_is_refused_before_it_is_sent(bad):
    with pytest.raises(ValueError):
        wait_query(**bad)


def test_wait_for_code_gives_the_first_code_of_the_first_match(stand_in, bb):
    stand_in.on("GET", WAIT, 200, {"data": [summary_json(["482913", "1234"])], "matched": 1, "timed_out": False})
    inbox = Inbox.from_json(INBOX, bb)
    assert inbox.wait_for_code(subject="sign-up", timeout=5) == "482913"
    assert stand_in.last("GET", WAIT).query == [("subject", "sign-up"), ("timeout", "5000ms")]


def test_wait_for_link_gives_the_first_link_of_the_kind_else_the_first_that_is_not_unsubscribe(stand_in, bb):
    links = [
        {"url": "https://shop.example/unsubscribe", "text": "Unsubscribe", "kind": "unsubscribe"},
        {"url": "https://shop.example/help", "text": "Help", "kind": "other"},
        {"url": "https://shop.example/verify?t=1", "text": "Confirm", "kind": "verify"},
    ]
    stand_in.on("GET", WAIT, 200, {"data": [summary_json(links=links)], "matched": 1, "timed_out": False})
    assert bb.wait_for_link(INBOX["id"], "verify") == "https://shop.example/verify?t=1"
    assert bb.wait_for_link(INBOX["id"]) == "https://shop.example/help"
    with pytest.raises(NothingExtractedError, match="no reset link") as err:
        bb.wait_for_link(INBOX["id"], "reset")
    assert err.value.email.subject == "Your sign-up code"


def test_a_mail_without_a_code_is_nothing_extracted(stand_in, bb):
    stand_in.on("GET", WAIT, 200, {"data": [summary_json()], "matched": 1, "timed_out": False})
    with pytest.raises(NothingExtractedError, match="holds no code"):
        bb.wait_for_code(INBOX["id"])
    with pytest.raises(LookupError):
        bb.wait_for_code(INBOX["id"])


def test_a_timed_out_wait_is_an_answer_of_wait_and_an_error_of_wait_for_email(stand_in, bb):
    stand_in.on("GET", WAIT, 200, {"data": [summary_json()], "matched": 1, "timed_out": True})
    result = bb.wait(INBOX["id"], count=3, timeout=0)
    assert (result.timed_out, result.matched, len(result.emails)) == (True, 1, 1)
    with pytest.raises(WaitTimeoutError) as err:
        bb.wait_for_emails(INBOX["id"], 3, timeout=0)
    assert err.value.result.matched == 1
    with pytest.raises(TimeoutError):
        bb.wait_for_code(INBOX["id"], timeout=0)


def test_a_wait_ending_with_404_is_an_api_error(stand_in, bb):
    with pytest.raises(APIError) as err:
        bb.wait_for_email("deleted-during-the-wait", timeout=1)
    assert err.value.code == "not_found"


def test_from_env_reads_the_url_the_key_and_the_assignment():
    bb = BurnBox.from_env(
        {"BURNBOX_URL": "https://bb.example", "BURNBOX_API_KEY": KEY, "BURNBOX_DOMAIN_ASSIGNMENT_ID": "a-1"}
    )
    assert (bb.base_url, bb.domain_assignment_id) == ("https://bb.example/api/v1", "a-1")
    with pytest.raises(ConfigurationError, match="BURNBOX_URL"):
        BurnBox.from_env({"BURNBOX_API_KEY": KEY})
    with pytest.raises(ConfigurationError, match="BURNBOX_API_KEY"):
        BurnBox.from_env({"BURNBOX_URL": "https://bb.example"})
    with pytest.raises(ValueError, match="bb_"):
        BurnBox("https://bb.example", "not-a-key")
