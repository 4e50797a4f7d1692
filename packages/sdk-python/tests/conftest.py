"""A BurnBox stand-in on a local port: the client's tests speak real HTTP to it."""

from __future__ import annotations

import json
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple
from urllib.parse import parse_qsl, urlsplit

import pytest

try:
    import burnbox  # noqa: F401  (installed: the tests run against the installed package)
except ImportError:  # a checkout: the sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

pytest_plugins = ["pytester"]


@dataclass
class Seen:
    """One request as the stand-in received it."""

    method: str
    path: str
    query: List[Tuple[str, str]]
    headers: Dict[str, str]
    body: Any


Answer = Tuple[int, Any, Dict[str, str]]
Route = Callable[[Seen], Answer]


@dataclass
class StandIn:
    url: str
    routes: Dict[Tuple[str, str], Route] = field(default_factory=dict)
    seen: List[Seen] = field(default_factory=list)

    def on(self, method: str, path: str, status: int = 200, body: Any = None, headers: Optional[Dict[str, str]] = None) -> None:
        """Answers ``method path`` with ``status`` and ``body`` (JSON; a str is sent as it is)."""
        self.routes[(method, path)] = lambda _seen: (status, body, headers or {})

    def route(self, method: str, path: str, fn: Route) -> None:
        self.routes[(method, path)] = fn

    def last(self, method: str, path: str) -> Seen:
        for s in reversed(self.seen):
            if s.method == method and s.path == path:
                return s
        raise AssertionError(f"no {method} {path} among {[(s.method, s.path) for s in self.seen]}")


@pytest.fixture
def stand_in() -> Iterator[StandIn]:
    state: Dict[str, StandIn] = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _answer(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            seen = Seen(
                method=self.command,
                path=parts.path,
                query=parse_qsl(parts.query, keep_blank_values=True),
                headers={k.lower(): v for k, v in self.headers.items()},
                body=json.loads(raw) if raw else None,
            )
            s = state["s"]
            s.seen.append(seen)
            route = s.routes.get((self.command, parts.path))
            status, body, headers = (
                route(seen) if route else (404, {"error": "Not found", "code": "not_found"}, {})
            )
            data = b"" if body is None else (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
            self.send_response(status)
            if body is not None:
                self.send_header("Content-Type", "application/json" if not isinstance(body, str) else "text/plain")
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = do_PATCH = _answer

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state["s"] = StandIn(url=f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield state["s"]
    finally:
        server.shutdown()
        server.server_close()
