"""The few GitHub REST calls the Action makes: who the token is, a pull request's labels
and comments, and one comment created or updated.

Only a comment that starts with kcompat's marker **and** was written by the token's own
user is ever updated: anyone can write a comment that starts with the marker, and
updating theirs would put the report where its author can edit it back to "no errors".
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

#: Who writes comments made with a workflow's ``GITHUB_TOKEN`` (an installation token of
#: the GitHub Actions app, which ``GET /user`` refuses).
ACTIONS_BOT = "github-actions[bot]"
#: Pages of 100 comments read at most (a pull request with 10,000 comments is a bot war).
MAX_PAGES = 100
#: A reply larger than this is not one GitHub's comment API sends.
MAX_REPLY_BYTES = 32 * 1024 * 1024


class ApiError(Exception):
    """A request that failed: its method, path, HTTP status and GitHub's message."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class GitHubApi:
    """GitHub's REST API for one repository, with one token."""

    url: str  # GITHUB_API_URL
    repository: str  # owner/name
    token: str = field(repr=False)

    def request(self, method: str, path: str, payload: Any = None) -> Any:
        data = json.dumps(payload).encode("utf-8") if payload is not None else None
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={
                "Authorization": f"Bearer {self.token}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "Content-Type": "application/json",
                "User-Agent": "kcompat-action",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read(MAX_REPLY_BYTES).decode("utf-8")
        except urllib.error.HTTPError as err:
            raise ApiError(f"{method} {path}: HTTP {err.code} {_message(err)}", err.code) from None
        except (urllib.error.URLError, OSError, ValueError) as err:
            raise ApiError(f"{method} {path}: {getattr(err, 'reason', err)}") from None
        try:
            return json.loads(text) if text else None
        except ValueError:
            raise ApiError(f"{method} {path}: the reply is not JSON") from None

    def login(self) -> str:
        """The token's user: ``GET /user`` for a personal token; an installation token
        (the workflow's ``GITHUB_TOKEN``) is refused there and writes as the Actions bot."""
        try:
            user = self.request("GET", "/user")
        except ApiError as err:
            if err.status in (401, 403):
                return ACTIONS_BOT
            raise
        return str(user.get("login", "")) if isinstance(user, dict) else ""

    def labels(self, number: int) -> tuple[str, ...]:
        """The pull request's labels now (a re-run's event file holds the old ones)."""
        found = self.request("GET", f"/repos/{self.repository}/issues/{number}/labels")
        return tuple(str(label.get("name", "")) for label in found if isinstance(label, dict))

    def comments(self, number: int) -> Iterator[dict[str, Any]]:
        path = f"/repos/{self.repository}/issues/{number}/comments?per_page=100"
        for page in range(1, MAX_PAGES + 1):
            found = self.request("GET", f"{path}&page={page}")
            if not found:
                return
            yield from (c for c in found if isinstance(c, dict))

    def own_comment(self, number: int, marker: str, author: str) -> int | None:
        """The id of the comment ``author`` wrote that starts with ``marker``, if any."""
        for comment in self.comments(number):
            user = comment.get("user")
            login = user.get("login") if isinstance(user, dict) else None
            found = comment.get("id")
            if not isinstance(found, int) or isinstance(found, bool):
                continue  # not a comment GitHub would send: nothing to update
            if login == author and str(comment.get("body", "")).startswith(marker):
                return found
        return None

    def post(self, number: int, body: str) -> None:
        self.request("POST", f"/repos/{self.repository}/issues/{number}/comments", {"body": body})

    def update(self, comment_id: int, body: str) -> None:
        self.request(
            "PATCH", f"/repos/{self.repository}/issues/comments/{comment_id}", {"body": body}
        )


def _message(err: urllib.error.HTTPError) -> str:
    """GitHub's ``message`` from an error reply, else the reason phrase."""
    try:
        return str(json.loads(err.read(65536)).get("message", err.reason))
    except (ValueError, AttributeError, OSError):
        return str(err.reason)
