"""One release's APIs: what each request spec says about who serves it and which versions.

An API is its ``apiKey``: names change (2.2.0's ``ListOffsetRequest`` is today's
``ListOffsetsRequest``) and the key never does. A broker advertises, per API, its
``validVersions`` less an unstable latest version (unless it is configured to advertise
those); a client offers the same range of its own release's spec. Who serves an API is
the spec's ``listeners``; specs written before listeners existed (Kafka before 2.8) are
served by every broker and by no separate controller.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from kcompat.spec.model import Message, releasable
from kcompat.spec.versions import Versions

#: The listeners of a broker (a KRaft broker, a ZooKeeper-era broker).
BROKER_LISTENERS = frozenset({"broker", "zkBroker"})
CONTROLLER_LISTENER = "controller"

#: Kafka's APIs that only brokers and controllers send to each other: the spec does not
#: say who sends a request, so this is Kafka's own list (its ``ApiKeys`` cluster actions,
#: the KRaft quorum's RPCs, broker registration and the share-group state RPCs), by key.
INTER_BROKER_KEYS = frozenset(
    {4, 5, 6, 7, 27, 52, 53, 54, 56, 58, 59, 62, 63, 67, 70, 73, 82, 83, 84, 85, 86, 87}
)


class Role(StrEnum):
    """Who talks an API: clients (the default of a matrix), only a controller, or only
    brokers and controllers among themselves."""

    CLIENT = "client"
    CONTROLLER = "controller-only"
    INTER_BROKER = "inter-broker"


@dataclass(frozen=True, slots=True)
class ApiSpec:
    """One API as one release's request spec declares it."""

    key: int
    name: str
    valid: Versions
    deprecated: Versions = field(default_factory=Versions.none)
    unstable: bool = False  # latestVersionUnstable
    listeners: tuple[str, ...] = ()  # () where the spec names none

    def offered(self, unstable: bool = False) -> Versions:
        """The versions a release offers (a broker advertises, a client may send): valid
        ones less an unstable latest one, unless ``unstable`` (a broker configured with
        ``unstable.api.versions.enable``)."""
        return self.valid if unstable else releasable(self.valid, self.unstable)

    def served(self, role: Role) -> bool:
        """Whether a server of this release answers the API in ``role``: brokers serve
        client APIs, controllers controller-only ones, and inter-broker APIs are served
        wherever their listeners say. No listeners: every broker (before KRaft)."""
        if role is Role.INTER_BROKER:
            return True
        if not self.listeners:
            return role is Role.CLIENT
        if role is Role.CLIENT:
            return not BROKER_LISTENERS.isdisjoint(self.listeners)
        return CONTROLLER_LISTENER in self.listeners

    def without_deprecated(self) -> ApiSpec:
        """This API as if its ``deprecatedVersions`` were removed (KIP-896's question)."""
        return replace(self, valid=self.valid - self.deprecated, deprecated=Versions.none())


def role_of(spec: ApiSpec) -> Role:
    """An API's role, from its newest spec: inter-broker by Kafka's list, controller-only
    when its listeners name the controller and no broker, else a client API."""
    if spec.key in INTER_BROKER_KEYS:
        return Role.INTER_BROKER
    if spec.listeners and BROKER_LISTENERS.isdisjoint(spec.listeners):
        return Role.CONTROLLER
    return Role.CLIENT


def api_spec(message: Message) -> ApiSpec | None:
    """The API a message declares: a request with an ``apiKey`` (None for anything else)."""
    if message.kind != "request" or message.api_key is None:
        return None
    return ApiSpec(
        message.api_key,
        message.name,
        message.valid_versions,
        message.deprecated_versions,
        message.latest_version_unstable,
        message.listeners,
    )


@dataclass(frozen=True)
class ReleaseApis:
    """The APIs of one release (a tag, or the compared HEAD), by key."""

    name: str
    apis: Mapping[int, ApiSpec] = field(default_factory=lambda: MappingProxyType({}))
    head: bool = False  # HEAD or the working tree: not a release tag

    @staticmethod
    def of(name: str, specs: list[ApiSpec], head: bool = False) -> ReleaseApis:
        """A release from its APIs: the first spec of a key wins (the caller orders them)."""
        found: dict[int, ApiSpec] = {}
        for spec in specs:
            found.setdefault(spec.key, spec)
        return ReleaseApis(name, MappingProxyType(dict(sorted(found.items()))), head)

    def without_deprecated(self) -> ReleaseApis:
        """The release as if every ``deprecatedVersions`` range were removed."""
        apis = {key: spec.without_deprecated() for key, spec in self.apis.items()}
        return ReleaseApis(self.name, MappingProxyType(apis), self.head)
