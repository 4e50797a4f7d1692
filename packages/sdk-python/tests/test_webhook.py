from __future__ import annotations

import hashlib
import hmac
import json
import threading
from email.message import Message
from pathlib import Path
from typing import Any, Dict

import pytest

from burnbox import ReplayGuard, WebhookVerificationError, verify_webhook

# The vectors every BurnBox client checks; the TypeScript SDK's webhook.spec.ts reads the same file.
VECTORS = json.loads((Path(__file__).resolve().parents[2] / "sdk" / "test-vectors" / "webhook.json").read_text("utf-8"))
SECRET = VECTORS["secret"]
FIXED = VECTORS["cases"][0]


def judge(case: dict, **kw) -> str:
    options: Dict[str, Any] = {"now": lambda: case["now"]}
    if "tolerance" in case:
        options["tolerance"] = case["tolerance"]
    try:
        verify_webhook(case.get("secret", SECRET), case["headers"], case["body"], **options, **kw)
    except WebhookVerificationError as err:
        return err.reason
    return "accepted"


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["name"] for c in VECTORS["cases"]])
def test_the_shared_vectors(case):
    assert judge(case) == case["expect"]


def test_the_fixed_vector_gives_the_parsed_delivery_from_bytes_as_from_text():
    for body in (FIXED["body"], FIXED["body"].encode("utf-8"), bytearray(FIXED["body"].encode("utf-8"))):
        delivery = verify_webhook(SECRET, FIXED["headers"], body, now=lambda: FIXED["now"])
        assert (delivery.id, delivery.event, delivery.timestamp) == (
            FIXED["delivery"]["id"],
            FIXED["delivery"]["event"],
            FIXED["delivery"]["timestamp"],
        )
        assert delivery.data["subject"] == "Your code: 482 913 — café"


def test_headers_are_found_in_any_case_in_a_message_a_list_of_pairs_or_a_wsgi_environ():
    value = FIXED["headers"]["X-Service-Signature-256"]
    message = Message()
    message["x-SERVICE-signature-256"] = value
    forms = [
        message,
        [("Content-Type", "application/json"), ("X-Service-Signature-256", value)],
        {"HTTP_X_SERVICE_SIGNATURE_256": value, "CONTENT_TYPE": "application/json"},
        {"X-Service-Signature-256": [value]},
    ]
    for headers in forms:
        assert verify_webhook(SECRET, headers, FIXED["body"], now=lambda: FIXED["now"]).event == "email.received"


def test_a_delivery_signed_now_is_accepted_with_the_real_clock():
    import time

    body = json.dumps({"id": "d-1", "event": "inbox.created", "timestamp": "2026-11-27T07:00:00Z", "data": {"id": "i-1"}})
    t = int(time.time())
    v1 = hmac.new(SECRET.encode(), f"{t}.{body}".encode(), hashlib.sha256).hexdigest()
    delivery = verify_webhook(SECRET, {"X-Service-Signature-256": f"t={t},v1={v1}"}, body)
    assert delivery.data == {"id": "i-1"}


def test_a_refusal_is_a_value_error_with_its_reason():
    with pytest.raises(ValueError, match="X-Service-Signature-256"):
        verify_webhook(SECRET, {}, FIXED["body"])


def test_the_replay_guard_remembers_an_id_for_its_ttl():
    now = [1000.0]
    guard = ReplayGuard(ttl=60, now=lambda: now[0])
    assert guard.seen("a") is False
    assert guard.seen("b") is False
    assert guard.seen("a") is True
    assert "a" in guard
    now[0] += 59.999
    assert guard.seen("a") is True
    now[0] += 0.002
    assert "a" not in guard
    assert guard.seen("a") is False
    assert guard.seen("a") is True


def test_the_replay_guard_forgets_the_least_recently_seen_first_and_on_request():
    guard = ReplayGuard(max_size=2)
    guard.seen("a")
    guard.seen("b")
    assert guard.seen("a") is True  # a is now the most recent
    guard.seen("c")  # b goes
    assert len(guard) == 2
    assert guard.seen("a") is True
    assert guard.seen("b") is False
    guard.forget("b")
    assert guard.seen("b") is False


def test_the_replay_guard_lets_one_of_many_threads_through():
    guard = ReplayGuard()
    results = []
    threads = [threading.Thread(target=lambda: results.append(guard.seen("same"))) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] + [True] * 15


@pytest.mark.parametrize("bad", [{"ttl": 0}, {"max_size": 0}])
def test_the_replay_guard_refuses_a_bound_that_is_not_positive(bad):
    with pytest.raises(ValueError):
        ReplayGuard(**bad)
