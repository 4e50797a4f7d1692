"""A webhook receiver that checks BurnBox's signed deliveries with verify_webhook."""

from __future__ import annotations

import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, Iterator, List

import pytest

from burnbox import BurnBox, ReplayGuard, WebhookDelivery, WebhookVerificationError, verify_webhook


class Receiver:
    """Answers 204 to a verified delivery and 401 to any other request, and records both."""

    def __init__(self) -> None:
        self.secret = ""
        self.guard = ReplayGuard()
        self.delivered: Dict[str, WebhookDelivery] = {}  # inbox id -> delivery
        self.refused: List[str] = []
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    delivery = verify_webhook(receiver.secret, self.headers, body)
                except WebhookVerificationError as err:
                    receiver.refused.append(err.reason)
                    self.send_response(401)
                    self.end_headers()
                    return
                if not receiver.guard.seen(delivery.id):
                    with receiver.arrived:
                        receiver.delivered[str(delivery.data.get("inbox_id"))] = delivery
                        receiver.arrived.notify_all()
                self.send_response(204)
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def delivery_for(self, inbox_id: str, timeout: float) -> WebhookDelivery:
        with self.arrived:
            if not self.arrived.wait_for(lambda: inbox_id in self.delivered, timeout=timeout):
                raise AssertionError(f"no verified delivery for inbox {inbox_id} within {timeout} s; refused: {self.refused}")
            return self.delivered[inbox_id]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(burnbox: BurnBox) -> Iterator[Receiver]:
    org, team = os.environ["BURNBOX_ORG_ID"], os.environ["BURNBOX_TEAM_ID"]
    hooks = f"/orgs/{org}/teams/{team}/webhooks"
    r = Receiver()
    hook = burnbox.request("POST", hooks, json={"url": r.url, "events": ["email.received"]})
    r.secret = hook["secret"]
    try:
        yield r
    finally:
        burnbox.request("DELETE", f"{hooks}/{hook['id']}")
        r.close()


def test_a_received_mail_is_delivered_signed_and_verify_webhook_accepts_it(burnbox: BurnBox, receiver: Receiver, send_mail):
    with burnbox.create_inbox(ttl="15m") as inbox:
        send_mail(inbox.address, "Your receipt", "Thanks for your order")
        delivery = receiver.delivery_for(inbox.id, timeout=20)
    assert delivery.event == "email.received"
    assert delivery.data["subject"] == "Your receipt"
    assert receiver.refused == []
