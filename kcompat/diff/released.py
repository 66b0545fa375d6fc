"""Which versions of a BASE message count as released.

``latestVersionUnstable`` may only be written on requests, but request and response
versions move together, so a response's highest version is unstable exactly when its
request's is. Released versions are therefore computed with the request in view.
"""

from __future__ import annotations

from collections.abc import Iterable

from kcompat.diff.match import ReleasedFor
from kcompat.spec.model import Message
from kcompat.spec.versions import Versions


class BaseReleased(ReleasedFor):
    """Every version BASE has, minus the unstable latest one (request or its response)."""

    def __init__(self, base_messages: Iterable[Message]) -> None:
        self.unstable: dict[int, int] = {}
        for message in base_messages:
            if (
                message.kind == "request"
                and message.api_key is not None
                and message.latest_version_unstable
                and not message.valid_versions.empty
            ):
                self.unstable[message.api_key] = message.valid_versions.highest

    def __call__(self, message: Message) -> tuple[Versions, str]:
        versions = message.released_versions
        if message.kind == "response" and message.api_key in self.unstable:
            highest = self.unstable[message.api_key]
            versions = versions - Versions.of(highest, highest)
        return versions, "base"


def request_name_for(response_name: str) -> str | None:
    """FooResponse -> FooRequest (where Kafka keeps a response's request)."""
    if response_name.endswith("Response"):
        return response_name.removesuffix("Response") + "Request"
    return None
