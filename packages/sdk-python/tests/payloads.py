"""Answers as BurnBox gives them, for the stand-in to send."""

from __future__ import annotations

from typing import Any, Dict, List, Optional


def inbox_json(**over: Any) -> Dict[str, Any]:
    o = {
        "id": "0193a0c4-0000-7000-8000-00000000000a",
        "address": "signup-1a2b3c",
        "full_address": "signup-1a2b3c@qa.example.test",
        "domain_assignment_id": "0193a0c4-0000-7000-8000-0000000000da",
        "domain_id": "0193a0c4-0000-7000-8000-0000000000d0",
        "team_id": "0193a0c4-0000-7000-8000-00000000007e",
        "org_id": "0193a0c4-0000-7000-8000-0000000000a9",
        "created_by": "0193a0c4-0000-7000-8000-0000000000c8",
        "is_active": True,
        "private": False,
        "smtp_behaviour": None,
        "email_count": 0,
        "unread_count": 0,
        "expires_at": "2026-11-27T08:00:00.000Z",
        "created_at": "2026-11-27T07:00:00.000Z",
    }
    o.update(over)
    return o


def summary_json(codes: Optional[List[str]] = None, links: Optional[List[Dict[str, str]]] = None, **over: Any) -> Dict[str, Any]:
    o = {
        "id": "0193a0c4-0000-7000-8000-0000000000e1",
        "inbox_id": "0193a0c4-0000-7000-8000-00000000000a",
        "from_address": "noreply@shop.example",
        "subject": "Your sign-up code",
        "snippet": "Your code is 482913",
        "received_at": "2026-11-27T07:00:01.250Z",
        "is_read": False,
        "has_attachments": False,
        "size_bytes": 812,
        "authentication_summary": "none",
        "extracted": {
            "codes": [{"value": c, "context": f"Your code is {c}"} for c in (codes or [])],
            "links": links or [],
        },
    }
    o.update(over)
    return o
