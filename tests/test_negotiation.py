"""The pure core of ``kcompat matrix``: Kafka's rule for picking a version, who serves an
API, which client releases a broker strands, and what dropping deprecated versions does."""

from __future__ import annotations

import pytest

from kcompat.negotiation.apis import ApiSpec, ReleaseApis, Role, role_of
from kcompat.negotiation.grid import apis_of, build, chosen
from kcompat.negotiation.negotiate import (
    ABSENT,
    STRANDED,
    UNSERVED,
    negotiated,
    outcome,
    strand_phrase,
    stranded_spans,
)
from kcompat.negotiation.summary import moves, reaches, removals, what_if_dropped
from kcompat.spec.versions import Versions


def v(text: str) -> Versions:
    return Versions.parse(text)


def api(key: int, name: str, valid: str, **extra: object) -> ApiSpec:
    return ApiSpec(key, name, v(valid), **extra)  # type: ignore[arg-type]


def test_the_client_takes_the_highest_version_both_offer() -> None:
    assert negotiated(v("0-5"), v("0-10")) == 5
    assert negotiated(v("3-12"), v("0-7")) == 7
    assert negotiated(v("0-2, 5-9"), v("3-4, 6")) == 6  # a gap in one range
    assert negotiated(v("0-5"), v("6-10")) is None


def test_outcomes_tell_stranded_from_newer_than_the_broker() -> None:
    assert outcome(v("0-5"), v("0-3"), served_before=True) == 3
    assert outcome(v("0-2"), v("3-5"), served_before=True) == STRANDED
    assert outcome(v("0-2"), None, served_before=True) == STRANDED  # removed from brokers
    assert outcome(v("0-2"), None, served_before=False) == UNSERVED  # newer than the broker
    assert outcome(None, v("0-2"), served_before=True) == ABSENT


def test_an_unstable_latest_version_is_not_offered_unless_configured() -> None:
    spec = api(68, "ConsumerGroupHeartbeatRequest", "0-1", unstable=True)
    assert spec.offered() == v("0")
    assert spec.offered(unstable=True) == v("0-1")
    only = api(76, "ShareGroupHeartbeatRequest", "0", unstable=True)
    assert only.offered().empty  # nothing stable: the API is not advertised at all


@pytest.mark.parametrize(
    ("listeners", "role", "served"),
    [
        ((), Role.CLIENT, True),  # before listeners existed: every broker served it
        ((), Role.CONTROLLER, False),  # and there was no KRaft controller
        (("zkBroker", "broker"), Role.CLIENT, True),
        (("zkBroker",), Role.CLIENT, True),
        (("controller",), Role.CLIENT, False),
        (("controller",), Role.CONTROLLER, True),
        (("broker",), Role.CONTROLLER, False),
        (("controller",), Role.INTER_BROKER, True),
    ],
)
def test_who_serves_an_api(listeners: tuple[str, ...], role: Role, served: bool) -> None:
    assert api(60, "DescribeClusterRequest", "0-1", listeners=listeners).served(role) is served


def test_roles_come_from_kafkas_list_and_the_listeners() -> None:
    assert role_of(api(4, "LeaderAndIsrRequest", "0-7", listeners=("zkBroker",))) is (
        Role.INTER_BROKER
    )
    assert role_of(api(27, "WriteTxnMarkersRequest", "0-1", listeners=("broker",))) is (
        Role.INTER_BROKER
    )
    assert role_of(api(90, "FooRequest", "0", listeners=("controller",))) is Role.CONTROLLER
    assert role_of(api(1, "FetchRequest", "0-17", listeners=("broker", "controller"))) is (
        Role.CLIENT
    )
    assert role_of(api(91, "BarRequest", "0")) is Role.CLIENT


def test_spans_group_neighbours_with_the_same_highest_version() -> None:
    clients = [
        ("2.2.0", v("0-5")),
        ("2.3.0", v("0-5")),
        ("2.4.0", v("0-6")),
        ("2.5.0", v("0-7")),
        ("2.6.0", v("0-5")),  # not a neighbour of 2.3.0: its own span
    ]
    spans = stranded_spans(clients, v("7-10"))
    assert [(s.releases, s.highest, s.count) for s in spans] == [
        ("2.2.0–2.3.0", 5, 2),
        ("2.4.0", 6, 1),
        ("2.6.0", 5, 1),
    ]
    assert strand_phrase("ListOffsets", spans[:1]) == (
        "clients of 2.2.0–2.3.0 can no longer send ListOffsets (their highest version is 5)"
    )
    assert strand_phrase("ListOffsets", spans, "to HEAD brokers") == (
        "clients of 2.2.0–2.3.0 (highest version 5), 2.4.0 (highest version 6) and 2.6.0 "
        "(highest version 5) can no longer send ListOffsets to HEAD brokers"
    )
    assert strand_phrase("ListOffsets", ()) == ""


def _releases() -> list[ReleaseApis]:
    """Four releases of a small protocol: an API renamed, one added (its first version
    unstable), one removed, one whose lowest version is raised after a deprecation, one
    only a controller serves."""
    return [
        ReleaseApis.of(
            "1.0.0",
            [
                api(2, "ListOffsetRequest", "0-5"),
                api(13, "OldRequest", "0-1"),
                api(9, "ShrinkRequest", "0-2"),
            ],
        ),
        ReleaseApis.of(
            "1.1.0",
            [
                api(2, "ListOffsetsRequest", "0-6", listeners=("broker",)),
                api(13, "OldRequest", "0-1", listeners=("broker",)),
                api(9, "ShrinkRequest", "0-3", deprecated=v("0-2"), listeners=("broker",)),
                api(11, "NewRequest", "0", unstable=True, listeners=("broker",)),
            ],
        ),
        ReleaseApis.of(
            "2.0.0",
            [
                api(2, "ListOffsetsRequest", "0-7", listeners=("broker",)),
                api(13, "OldRequest", "0-1", listeners=("zkBroker",)),
                api(9, "ShrinkRequest", "3-4", listeners=("broker",)),
                api(11, "NewRequest", "0-1", listeners=("broker",)),
                api(90, "QuorumRequest", "0", listeners=("controller",)),
            ],
        ),
        ReleaseApis.of(
            "HEAD",
            [
                api(2, "ListOffsetsRequest", "0-8", deprecated=v("0-6"), listeners=("broker",)),
                api(9, "ShrinkRequest", "3-4", listeners=("broker",)),
                api(11, "NewRequest", "0-2", listeners=("broker",)),
                api(90, "QuorumRequest", "0-1", listeners=("controller",)),
            ],
            head=True,
        ),
    ]


def test_the_grid_keys_apis_by_key_across_renames() -> None:
    every = apis_of(_releases())
    assert [(a.key, a.name, a.names, a.role) for a in every] == [
        (2, "ListOffsetsRequest", ("ListOffsetRequest", "ListOffsetsRequest"), Role.CLIENT),
        (9, "ShrinkRequest", ("ShrinkRequest",), Role.CLIENT),
        (11, "NewRequest", ("NewRequest",), Role.CLIENT),
        (13, "OldRequest", ("OldRequest",), Role.CLIENT),
        (90, "QuorumRequest", ("QuorumRequest",), Role.CONTROLLER),
    ]
    # QuorumRequest is controller-only: left out by default, in with its role or its key
    assert [a.key for a in chosen(every, frozenset({Role.CLIENT}), None)] == [2, 9, 11, 13]
    assert [a.key for a in chosen(every, frozenset(Role), None)] == [2, 9, 11, 13, 90]
    assert [a.key for a in chosen(every, frozenset({Role.CLIENT}), frozenset({90}))] == [90]


def test_every_cell_negotiates_or_says_why_not() -> None:
    releases = _releases()
    every = apis_of(releases)
    matrix = build(releases, every)
    assert matrix.releases == ("1.0.0", "1.1.0", "2.0.0", "HEAD") and matrix.head
    one, two, head = matrix.index("1.0.0"), matrix.index("2.0.0"), matrix.index("HEAD")
    keys = [a.key for a in every]
    cell = dict(zip(keys, matrix.outcomes[one][head], strict=True))
    # 1.0.0's ListOffsetRequest (0-5) still talks to HEAD's ListOffsetsRequest (0-8)
    assert cell[2] == 5
    assert cell[13] == STRANDED  # HEAD no longer has OldRequest: removed
    assert cell[9] == STRANDED  # 0-2 against 3-4
    assert cell[11] == ABSENT  # 1.0.0 has no NewRequest
    assert cell[90] == ABSENT
    new_old = dict(zip(keys, matrix.outcomes[head][one], strict=True))
    assert new_old[11] == UNSERVED  # HEAD's NewRequest is newer than 1.0.0 brokers
    assert new_old[90] == UNSERVED  # and so is QuorumRequest (no controller then)
    assert new_old[9] == STRANDED  # HEAD's clients send 3-4, 1.0.0 brokers take 0-2
    assert new_old[13] == ABSENT
    # 1.1.0's NewRequest had only an unstable version: no client of it has the API
    assert matrix.offered[matrix.index("1.1.0")][keys.index(11)] is None
    assert dict(zip(keys, matrix.outcomes[two][two], strict=True)) == {
        2: 7, 9: 4, 11: 1, 13: 1, 90: 0,
    }  # fmt: skip
    links = {link.api.key: link for link in matrix.links(one, head)}
    assert links[2].shared == v("0-5") and links[9].shared.empty


def test_reaches_and_moves() -> None:
    releases = _releases()
    matrix = build(releases, apis_of(releases))
    by_broker = {r.broker: r for r in reaches(matrix)}
    assert by_broker["1.0.0"].oldest == "1.0.0"
    # HEAD's clients send ShrinkRequest 3-4: 1.0.0 brokers (0-2) strand them
    assert [(c, [a.key for a in apis]) for c, apis in by_broker["1.0.0"].stranded] == [
        ("2.0.0", [9]),
        ("HEAD", [9]),
    ]
    head = by_broker["HEAD"]
    assert head.oldest == "HEAD"
    assert [(c, [a.key for a in apis]) for c, apis in head.stranded] == [
        ("1.0.0", [9, 13]),
        ("1.1.0", [13]),
        ("2.0.0", [13]),
    ]
    shrink = moves(matrix, 1)
    assert [(m.release, str(m.offered), str(m.served), str(m.deprecated)) for m in shrink] == [
        ("1.0.0", "0-2", "0-2", "none"),
        ("1.1.0", "0-3", "0-3", "0-2"),
        ("2.0.0", "3-4", "3-4", "none"),
    ]
    new = moves(matrix, 2)  # NewRequest: first offered by 2.0.0 (1.1.0's was unstable)
    assert [(m.release, str(m.offered)) for m in new] == [("2.0.0", "0-1"), ("HEAD", "0-2")]


def test_dropping_deprecated_versions_strands_the_clients_that_only_had_them() -> None:
    releases = _releases()
    every = apis_of(releases)
    matrix, removed = what_if_dropped(releases, every)
    assert [(r.api.key, str(r.removed), str(r.remaining)) for r in removed] == [(2, "0-6", "7-8")]
    spans = removed[0].clients
    assert [(s.releases, s.highest) for s in spans] == [("1.0.0", 5), ("1.1.0", 6)]
    # HEAD's clients would send only 7-8: 1.0.0 and 1.1.0 brokers (0-5, 0-6) strand them
    assert [(s.releases, s.highest) for s in removed[0].brokers] == [("1.0.0", 5), ("1.1.0", 6)]
    key = [a.key for a in every].index(2)
    assert matrix.outcomes[matrix.index("1.1.0")][matrix.index("HEAD")][key] == STRANDED
    assert matrix.outcomes[matrix.index("2.0.0")][matrix.index("HEAD")][key] == 7
    plain = build(releases, every)
    assert plain.outcomes[matrix.index("1.1.0")][matrix.index("HEAD")][key] == 6
    assert removals(releases, plain) == removed


def test_a_release_keeps_the_first_spec_of_a_key() -> None:
    release = ReleaseApis.of("1.0.0", [api(3, "ARequest", "0-1"), api(3, "BRequest", "0-9")])
    assert release.apis[3].name == "ARequest"
