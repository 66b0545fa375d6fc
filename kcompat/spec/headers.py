"""Which header version an API version uses: derived on both sides, never sent.

As Kafka's generated ``ApiMessageType.requestHeaderVersion``/``responseHeaderVersion``
do (FORMAT-NOTES, "Header versions follow from the API version"): a request uses
RequestHeader v2 when its API version is flexible, else v1, except ControlledShutdown
(API key 7) v0, which uses v0; a response uses ResponseHeader v1 when flexible, else v0,
except ApiVersions (API key 18), always v0. Before Kafka 2.4 numbered them, a header spec
had a single version that every API version used, and ControlledShutdown v0's header
was written by hand (without ClientId), not from the spec.
"""

from __future__ import annotations

from kcompat.spec.model import Message

REQUEST_HEADER = "RequestHeader"
RESPONSE_HEADER = "ResponseHeader"

#: The groups of API versions that share a header version, in the words findings use.
PLAIN = "non-flexible API versions"
FLEXIBLE = "flexible API versions"
CONTROLLED_SHUTDOWN_V0 = "ControlledShutdown v0"
API_VERSIONS = "ApiVersions responses"

_NUMBERED = {
    REQUEST_HEADER: {PLAIN: 1, FLEXIBLE: 2, CONTROLLED_SHUTDOWN_V0: 0},
    RESPONSE_HEADER: {PLAIN: 0, FLEXIBLE: 1, API_VERSIONS: 0},
}
_SINGLE = {
    REQUEST_HEADER: {PLAIN: 0},
    RESPONSE_HEADER: {PLAIN: 0, API_VERSIONS: 0},
}


def is_wire_header(message: Message) -> bool:
    """Kafka's request or response header, whose versions follow from API versions."""
    return message.kind == "header" and message.name in _NUMBERED


def header_versions(message: Message) -> dict[str, int]:
    """Group of API versions -> the header version of ``message`` they use (groups whose
    version the spec does not define are left out)."""
    valid = message.valid_versions
    single = not valid.empty and valid.lowest == valid.highest == 0
    table = (_SINGLE if single else _NUMBERED).get(message.name, {})
    return {group: version for group, version in table.items() if version in valid}


def renumbered(base: Message, head: Message) -> list[tuple[str, int, int]]:
    """(group, BASE's header version, HEAD's) for each group of API versions whose
    header version number changed."""
    if not (is_wire_header(base) and is_wire_header(head)) or base.name != head.name:
        return []
    before, after = header_versions(base), header_versions(head)
    return [
        (group, version, after[group])
        for group, version in before.items()
        if group in after and after[group] != version
    ]
