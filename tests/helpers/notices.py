"""A web hook on the loopback for the league's notices (Apprise's `json://` posts): an HTTP
server on 127.0.0.1 that keeps every JSON body posted, by path."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class Receiver:
    """An HTTP server on the loopback that keeps every JSON body posted, by path."""

    def __init__(self, port: int = 0) -> None:
        self.posts: list[tuple[str, dict[str, object]]] = []
        received = self.posts

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
                length = int(self.headers.get("Content-Length", "0"))
                received.append((self.path, json.loads(self.rfile.read(length))))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def take(self) -> list[tuple[str, dict[str, object]]]:
        taken = list(self.posts)
        self.posts.clear()
        return taken


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.server.shutdown()
    server.server.server_close()
