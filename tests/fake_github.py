"""A stand-in for GitHub's REST API where the Action posts its comment: a local HTTP server
on an ephemeral port, one per test, that keeps the pull request's comments and records
every request.

It answers what the Action asks: ``GET /user`` (a personal token's user; an installation
token such as ``GITHUB_TOKEN`` gets GitHub's 403 "Resource not accessible by
integration"), and an issue's comments: list (paginated), create, update. A comment is
written by the token's user (``github-actions[bot]`` for an installation token), as on
GitHub.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: The author of comments made with a workflow's GITHUB_TOKEN.
ACTIONS_BOT = "github-actions[bot]"


@dataclass
class FakeGitHub:
    """The server's state: comments of one pull request, and the requests it was sent."""

    url: str = ""
    user: str | None = None  # GET /user's login; None: an installation token (403)
    comments: list[dict[str, Any]] = field(default_factory=list)
    labels: list[str] | None = None  # GET .../labels; None: 404
    requests: list[tuple[str, str, Any]] = field(default_factory=list)
    page_size: int = 100
    read_only: bool = False  # a fork's pull request: the token may read, not write
    _next_id: int = 1000

    @property
    def author(self) -> str:
        return self.user if self.user is not None else ACTIONS_BOT

    def comment(self, body: str, *, by: str, number: int = 7) -> dict[str, Any]:
        """A comment already on pull request ``number``."""
        self._next_id += 1
        made = {"id": self._next_id, "body": body, "user": {"login": by}, "issue": number}
        self.comments.append(made)
        return made

    def writes(self) -> list[tuple[str, str, Any]]:
        """The requests that changed something (POST, PATCH)."""
        return [r for r in self.requests if r[0] in ("POST", "PATCH")]

    def by_id(self, comment_id: int) -> dict[str, Any]:
        return next(c for c in self.comments if c["id"] == comment_id)


def _handler(state: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _reply(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _body(self) -> Any:
            length = int(self.headers.get("Content-Length", 0))
            return json.loads(self.rfile.read(length)) if length else None

        def do_GET(self) -> None:
            state.requests.append(("GET", self.path, self.headers.get("Authorization")))
            path, _, query = self.path.partition("?")
            if path == "/user":
                if state.user is None:
                    self._reply(403, {"message": "Resource not accessible by integration"})
                else:
                    self._reply(200, {"login": state.user, "type": "User"})
                return
            if (found := re.fullmatch(r"/repos/[^/]+/[^/]+/issues/(\d+)/labels", path)) and (
                state.labels is not None
            ):
                self._reply(200, [{"name": name} for name in state.labels])
                return
            found = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/(\d+)/comments", path)
            if found is None:
                self._reply(404, {"message": "Not Found"})
                return
            number = int(found.group(1))
            page = int(dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("page", 1))
            mine = [c for c in state.comments if c["issue"] == number]
            chunk = mine[(page - 1) * state.page_size : page * state.page_size]
            self._reply(200, [{k: v for k, v in c.items() if k != "issue"} for c in chunk])

        def _refused(self) -> bool:
            if state.read_only:
                self._reply(403, {"message": "Resource not accessible by integration"})
            return state.read_only

        def do_POST(self) -> None:
            body = self._body()
            state.requests.append(("POST", self.path, body))
            if self._refused():
                return
            found = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/(\d+)/comments", self.path)
            if found is None:
                self._reply(404, {"message": "Not Found"})
                return
            made = state.comment(body["body"], by=state.author, number=int(found.group(1)))
            self._reply(201, {"id": made["id"], "user": made["user"]})

        def do_PATCH(self) -> None:
            body = self._body()
            state.requests.append(("PATCH", self.path, body))
            if self._refused():
                return
            found = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/comments/(\d+)", self.path)
            if found is None:
                self._reply(404, {"message": "Not Found"})
                return
            comment = state.by_id(int(found.group(1)))
            comment["body"] = body["body"]  # a maintainer's token may edit anyone's comment
            self._reply(200, {"id": comment["id"], "user": comment["user"]})

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def serving(state: FakeGitHub | None = None) -> Iterator[FakeGitHub]:
    """Serve ``state`` on 127.0.0.1 at a port the system picks, until the block ends."""
    state = state if state is not None else FakeGitHub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
