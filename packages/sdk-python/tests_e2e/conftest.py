"""Against a running BurnBox: BURNBOX_URL, BURNBOX_API_KEY (a key of a team with a domain), and
BURNBOX_SMTP_HOST / BURNBOX_SMTP_PORT, the SMTP intake the "application under test" here sends to.
The burnbox and burnbox_inbox fixtures come from the installed plugin."""

from __future__ import annotations

import os
import smtplib
from email.message import EmailMessage
from typing import Callable

import pytest

SendMail = Callable[..., None]


@pytest.fixture(scope="session")
def send_mail() -> SendMail:
    """Sends a mail over SMTP as an application would: ``send_mail(to, subject, text, html=None, headers=None)``."""
    host = os.environ.get("BURNBOX_SMTP_HOST", "127.0.0.1")
    port = int(os.environ["BURNBOX_SMTP_PORT"])

    def send(to: str, subject: str, text: str, html: "str | None" = None, headers: "dict[str, str] | None" = None) -> None:
        msg = EmailMessage()
        msg["From"] = "Shop <noreply@shop.example>"
        msg["To"] = to
        msg["Subject"] = subject
        for name, value in (headers or {}).items():
            msg[name] = value
        msg.set_content(text)
        if html is not None:
            msg.add_alternative(html, subtype="html")
        with smtplib.SMTP(host, port, timeout=10) as smtp:
            smtp.send_message(msg)

    return send


@pytest.fixture
def sign_up(send_mail: SendMail) -> Callable[[str], None]:
    """The application under test: signing up sends a confirmation mail with a code and a link."""

    def sign_up(address: str) -> None:
        send_mail(
            address,
            "Confirm your account",
            "Welcome! Your verification code is 482913.\nOr open https://shop.example/verify?token=abc123",
            html='<p>Your verification code is <b>482913</b>.</p><a href="https://shop.example/verify?token=abc123">Confirm</a>',
        )

    return sign_up
