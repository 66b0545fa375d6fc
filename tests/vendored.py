"""Repositories of another shape: a Kafka-compatible product that vendors Kafka's specs.

Such a product (a broker, a proxy, a client library) keeps a copy of the specs that:
renames its files to snake_case (``list_offset_request.json``); keeps a subset of the
versions (it advertises only those); does not follow upstream's renames (its
``ListOffsetRequest`` is upstream's ``ListOffsetsRequest``) and renames some fields of its
own; adds messages of its own; lives beside other ``.json`` files that are not specs (API
doc templates with ``{{placeholders}}``, which do not even parse); and tags its releases
``vX.Y.Z`` on release branches (``v1.1.x``), with pre-release tags (``v1.1.0-rc1``).

Two builders, one shape:

- :func:`vendor_from_kafka`: the copy made from the bundle's Kafka 3.4.0 (tests that use
  it are marked ``corpus``);
- :func:`synthetic_pair`: a small upstream with three releases and a copy of its middle
  one, hand-written, for the fast tier.

Nothing is copied into the project: both are built in a temp directory by the tests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import json5

from tests.diff_runner import commit_tree, git, init_repo

#: Where the copy's specs live (a broker's protocol folder).
SPEC_DIR = "src/v/kafka/protocol/schemata"
#: Where its API-doc templates live: ``.json`` files that are not specs.
TEMPLATE_DIRS = ("docs/api", "src/v/kafka/protocol/templates")
KAFKA_DIR = "clients/src/main/resources/common/message"

#: The APIs the product implements (by API key), of Kafka 3.4.0's.
API_KEYS = (
    *range(0, 4),
    *range(8, 27),
    *range(28, 34),
    35,
    36,
    37,
    42,
    43,
    44,
    47,
    48,
    49,
    60,
)
#: Names kept from before upstream renamed them (2.2.0's names).
OLD_NAMES = {
    "ListOffsetsRequest": "ListOffsetRequest",
    "ListOffsetsResponse": "ListOffsetResponse",
    "ElectLeadersRequest": "ElectPreferredLeadersRequest",
    "ElectLeadersResponse": "ElectPreferredLeadersResponse",
}
#: The highest version the product advertises, where it is lower than 3.4.0's.
HIGHEST = {"Fetch": 11, "Metadata": 9, "OffsetFetch": 6, "CreateTopics": 5, "JoinGroup": 7}
#: The lowest version, where it is higher than 3.4.0's (old clients it never served).
LOWEST = {"Produce": 3, "OffsetCommit": 2}
#: Fields the product renamed: (message, field path, its own name).
LOCAL_RENAMES = (
    ("ProduceRequest", "Acks", "RequiredAcks"),
    ("FetchRequest", "MaxWaitMs", "MaxWaitTime"),
    ("FetchRequest", "Topics.Partitions.PartitionMaxBytes", "MaxBytes"),
    ("MetadataResponse", "Brokers.NodeId", "BrokerId"),
    ("ApiVersionsResponse", "ApiKeys.ApiKey", "Key"),
    ("JoinGroupRequest", "SessionTimeoutMs", "SessionTimeout"),
)


def snake_case(name: str) -> str:
    """``ListOffsetRequest`` -> ``list_offset_request``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def template(name: str, number: int) -> str:
    """An API-doc template: JSON-shaped, with placeholders (not JSON at all)."""
    return (
        "{\n"
        f'  "title": "{name}",\n'
        '  "summary": "{{ summary }}",\n'
        '  "apiKey": {{ api_key }},\n'
        '  "fields": [{{#each fields}}{"name": "{{name}}", "type": "{{type}}"}{{/each}}],\n'
        f'  "revision": {number}\n'
        "}\n"
    )


def templates(revision: int) -> dict[str, str]:
    """Ten templates (``revision`` changes each one's text)."""
    names = ("produce", "fetch", "metadata", "offsets", "groups", "acls", "configs")
    out = {f"{TEMPLATE_DIRS[0]}/{n}.json": template(n, revision) for n in names}
    for n in ("request", "response", "error"):
        out[f"{TEMPLATE_DIRS[1]}/{n}.json"] = template(n, revision)
    return out


def own_messages(api_key: int, name: str, versions: str) -> dict[str, str]:
    """A request and response of the product's own (an API key Kafka does not use)."""
    out = {}
    for kind, fields in (
        ("request", [{"name": "Node", "type": "int32", "versions": "0+", "about": "x"}]),
        (
            "response",
            [
                {"name": "ErrorCode", "type": "int16", "versions": "0+", "about": "x"},
                {"name": "Healthy", "type": "bool", "versions": "0+", "about": "x"},
            ],
        ),
    ):
        message = f"{name}{kind.capitalize()}"
        spec = {
            "apiKey": api_key,
            "type": kind,
            "name": message,
            "validVersions": versions,
            "flexibleVersions": "0+",
            "fields": fields,
        }
        out[f"{SPEC_DIR}/{snake_case(message)}.json"] = _dumped(spec)
    return out


def _dumped(spec: Mapping[str, Any]) -> str:
    return "// Vendored from Apache Kafka; see NOTICE.\n" + json.dumps(spec, indent=2) + "\n"


def _lowest(versions: str) -> int:
    return int(versions.split("-")[0].rstrip("+"))


def _start(versions: str) -> int:
    return -1 if versions == "none" else _lowest(versions)


def _end(versions: str) -> int:
    if versions == "none":
        return -1
    return 99 if versions.endswith("+") else int(versions.rpartition("-")[2])


def _within(fields: list[dict[str, Any]], lowest: int, highest: int) -> list[dict[str, Any]]:
    """Fields that exist at some version from ``lowest`` to ``highest`` (the others go:
    the copy has no version that has them)."""
    kept = []
    for spec in fields:
        versions = spec.get("versions", "0+")
        if _start(versions) > highest or _end(versions) < lowest:
            continue
        if "fields" in spec:
            spec = {**spec, "fields": _within(spec["fields"], lowest, highest)}
        kept.append(spec)
    return kept


def _renamed(fields: list[dict[str, Any]], path: str, new: str) -> bool:
    head, _, rest = path.partition(".")
    for spec in fields:
        if spec.get("name") != head:
            continue
        if not rest:
            spec["name"] = new
            return True
        return _renamed(spec.get("fields", []), rest, new)
    return False


def vendored_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """One Kafka 3.4.0 spec as the product keeps it."""
    name = spec["name"]
    api = re.sub("(Request|Response)$", "", name)
    low, _, high = spec["validVersions"].partition("-")
    highest = min(int(high or low), HIGHEST.get(api, 99))
    lowest = max(int(low), LOWEST.get(api, 0))
    out = dict(spec)
    out["validVersions"] = f"{lowest}-{highest}" if highest > lowest else str(lowest)
    out["fields"] = _within(spec["fields"], lowest, highest)
    out.pop("latestVersionUnstable", None)
    for message, path, new in LOCAL_RENAMES:
        if message == name:
            assert _renamed(out["fields"], path, new), (name, path)
    out["name"] = OLD_NAMES.get(name, name)
    return out


def kafka_specs(kafka: Path, tag: str) -> list[dict[str, Any]]:
    """The request, response and header specs of Kafka's clients at ``tag``."""
    listed = git(kafka, "ls-tree", "--name-only", f"{tag}:{KAFKA_DIR}").split()
    out = []
    for name in listed:
        if name.endswith(("Request.json", "Response.json", "Header.json")):
            out.append(json5.loads(git(kafka, "show", f"{tag}:{KAFKA_DIR}/{name}")))
    return out


def copy_of(specs: Iterable[dict[str, Any]]) -> dict[str, str]:
    """The product's spec folder: the APIs it implements, its way."""
    out = {}
    for spec in specs:
        if spec["type"] in ("request", "response") and spec["apiKey"] not in API_KEYS:
            continue
        mine = vendored_spec(spec)
        out[f"{SPEC_DIR}/{snake_case(mine['name'])}.json"] = _dumped(mine)
    return out


def tag_releases(repo: Path, versions: list[tuple[str, Mapping[str, str]]]) -> None:
    """Main moves through each tree; each release gets a branch (``v1.1.x``) with a
    pre-release tag, a version bump, its release tag and a patch release."""
    for number, (version, tree) in enumerate(versions):
        commit_tree(repo, tree, f"towards {version}")
        branch = "v" + version.rpartition(".")[0] + ".x"
        git(repo, "checkout", "-q", "-b", branch)
        git(repo, "tag", f"v{version}-rc1")
        git(repo, "commit", "-q", "--allow-empty", "-m", f"bump version to {version}")
        git(repo, "tag", f"v{version}")
        patched = {**tree, **templates(100 + number)}
        commit_tree(repo, patched, "docs: templates")
        git(repo, "tag", "v" + version.rpartition(".")[0] + ".1")
        git(repo, "checkout", "-q", "main")


def vendor_from_kafka(kafka: Path, target: Path) -> Path:
    """The product's repository, vendored from Kafka 3.4.0 (the bundle's clone).

    v1.0.0 has the copy without the product's PartitionMove API; v1.1.0 adds it; each
    release changes every template, so a release audit meets all ten.
    """
    copy = copy_of(kafka_specs(kafka, "3.4.0"))
    readme = {"README.md": "A Kafka-compatible broker.\n", "package.json": '{"name": "x"}\n'}
    first = {**readme, **copy, **own_messages(1000, "ClusterHealth", "0-1"), **templates(1)}
    second = {**first, **own_messages(1001, "PartitionMove", "0"), **templates(2)}
    init_repo(target)
    tag_releases(target, [("1.0.0", first), ("1.1.0", second)])
    return target


# -- the synthetic pair (fast tier) -------------------------------------------------------
def _field(name: str, kind: str, versions: str = "0+", **more: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "versions": versions, "about": name, **more}


def _message(
    api_key: int, kind: str, name: str, versions: str, fields: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "apiKey": api_key,
        "type": kind,
        "name": name,
        "validVersions": versions,
        "flexibleVersions": "none",
        "fields": fields,
    }


def upstream_release(number: int) -> dict[str, dict[str, Any]]:
    """Upstream's specs at release ``1.<number>.0`` (0, 1 or 2), by message name.

    - Lookup (key 1): v0-1 in 1.0, v2 (adds Limit) in 1.1, v3 (adds Cursor) in 1.2;
    - ListThings (key 2), called ListThing in 1.0 (upstream renamed it in 1.1);
      its Count field is called Total from 1.2;
    - Ping (key 3): v0 throughout.
    """
    lookup_versions = ("0-1", "0-2", "0-3")[number]
    lookup = [
        _field("Name", "string"),
        _field("TimeoutMs", "int32"),
        _field("Limit", "int32", "2+"),
        _field("Cursor", "int64", "3+"),
    ]
    lookup = [f for f in lookup if _start(f["versions"]) <= number + 1]
    things = "ListThing" if number == 0 else "ListThings"
    count = "Total" if number == 2 else "Count"
    specs = [
        _message(1, "request", "LookupRequest", lookup_versions, lookup),
        _message(1, "response", "LookupResponse", lookup_versions, [_field("Found", "bool")]),
        _message(2, "request", f"{things}Request", "0-1", [_field("Prefix", "string")]),
        _message(
            2,
            "response",
            f"{things}Response",
            "0-1",
            [_field(count, "int32"), _field("Things", "[]string", "1+")],
        ),
        _message(3, "request", "PingRequest", "0", [_field("Nonce", "int64")]),
        _message(3, "response", "PingResponse", "0", [_field("Nonce", "int64")]),
    ]
    return {spec["name"]: spec for spec in specs}


def synthetic_upstream(target: Path) -> Path:
    """Upstream's repository: three releases (1.0.0, 1.1.0, 1.2.0) tagged on release
    branches, Kafka's way; trunk goes on past 1.2.0."""
    init_repo(target)
    for number in range(3):
        tree = {
            f"{KAFKA_DIR}/{name}.json": json.dumps(spec, indent=2) + "\n"
            for name, spec in upstream_release(number).items()
        }
        commit_tree(target, tree, f"release 1.{number} branch point")
        git(target, "checkout", "-q", "-b", f"1.{number}")
        git(target, "commit", "-q", "--allow-empty", "-m", "bump version")
        git(target, "tag", f"1.{number}.0")
        git(target, "checkout", "-q", "main")
    git(target, "commit", "-q", "--allow-empty", "-m", "trunk goes on")
    return target


def synthetic_copy() -> dict[str, str]:
    """The product's copy of upstream 1.1.0: snake_case files, Lookup without v0, the old
    name ListThing kept, its Count field renamed Number, a message of its own."""
    specs = upstream_release(1)
    lookup = dict(specs["LookupRequest"], validVersions="1-2")
    lookup_response = dict(specs["LookupResponse"], validVersions="1-2")
    things = dict(specs["ListThingsRequest"], name="ListThingRequest")
    things_response = json.loads(json.dumps(specs["ListThingsResponse"]))
    things_response["name"] = "ListThingResponse"
    things_response["fields"][0]["name"] = "Number"
    own = _message(900, "request", "StatsRequest", "0", [_field("Verbose", "bool")])
    own_response = _message(900, "response", "StatsResponse", "0", [_field("Count", "int64")])
    copy = [
        lookup,
        lookup_response,
        things,
        things_response,
        specs["PingRequest"],
        specs["PingResponse"],
        own,
        own_response,
    ]
    return {f"{SPEC_DIR}/{snake_case(s['name'])}.json": _dumped(s) for s in copy}


def synthetic_vendor(target: Path) -> Path:
    """The product's repository around :func:`synthetic_copy`, with templates and ``v``
    tags on release branches."""
    readme = {"README.md": "A Kafka-compatible broker.\n"}
    first = {**readme, **synthetic_copy(), **templates(1)}
    init_repo(target)
    tag_releases(target, [("1.0.0", first), ("1.1.0", {**first, **templates(2)})])
    return target
