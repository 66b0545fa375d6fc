"""Version ranges: the text forms Kafka writes, and the set algebra the rules rely on."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kcompat.spec.versions import MAX_VERSION, Versions, VersionSyntaxError

# -- text ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ranges"),
    [
        ("none", ()),
        ("0", ((0, 0),)),
        ("7", ((7, 7),)),
        ("0-4", ((0, 4),)),
        ("3-12", ((3, 12),)),
        ("0+", ((0, MAX_VERSION),)),
        ("5+", ((5, MAX_VERSION),)),
        ("0-2, 5+", ((0, 2), (5, MAX_VERSION))),
    ],
)
def test_parse_and_str_round_trip(text: str, ranges: tuple[tuple[int, int], ...]) -> None:
    parsed = Versions.parse(text)
    assert parsed.ranges == ranges
    assert str(parsed) == text
    assert Versions.parse(str(parsed)) == parsed


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (" 1-3 ", "1-3"),
        ("3-3", "3"),
        ("0-32767", "0+"),
        ("01", "1"),
        ("0-1, 2-3", "0-3"),  # neighbours merge
        ("5+, 0-1", "0-1, 5+"),  # sorted
    ],
)
def test_parse_normalises(text: str, canonical: str) -> None:
    assert str(Versions.parse(text)) == canonical


@pytest.mark.parametrize("text", ["2-1", "10-3", "32767-0"])
def test_reversed_range_is_an_error(text: str) -> None:
    with pytest.raises(VersionSyntaxError, match="reversed"):
        Versions.parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "None",
        "all",
        "-1",
        "1-",
        "+",
        "+5",
        "1+2",
        "1--2",
        "1.5",
        "0x10",
        "a-b",
        "1-2-3",
        "\u0663",  # ARABIC-INDIC DIGIT THREE: \d matches it, Kafka's parseShort would not
        "1 - 3",  # Kafka splits at '-' and parseShort("1 ") fails
        "0 +",
    ],
)
def test_garbage_is_an_error(text: str) -> None:
    with pytest.raises(VersionSyntaxError):
        Versions.parse(text)


@pytest.mark.parametrize("text", ["32768", "0-40000", "9" * 5000, "1-" + "9" * 5000])
def test_versions_above_the_maximum_are_errors_not_crashes(text: str) -> None:
    with pytest.raises(VersionSyntaxError, match="above 32767"):
        Versions.parse(text)


def test_space_inside_a_range_gets_its_own_message() -> None:
    with pytest.raises(VersionSyntaxError, match="no spaces inside a range"):
        Versions.parse("1 - 3")


def test_try_parse_returns_none_for_bad_input() -> None:
    assert Versions.try_parse("2-1") is None
    assert Versions.try_parse(3) is None
    assert Versions.try_parse(None) is None
    assert Versions.try_parse("1+") == Versions.of(1)


def test_bounds_and_flags() -> None:
    versions = Versions.parse("2-4, 9+")
    assert (versions.lowest, versions.highest) == (2, MAX_VERSION)
    assert versions.open_ended
    assert not versions.contiguous
    assert not Versions.parse("2-4").open_ended
    assert Versions.none().empty and not Versions.none()
    with pytest.raises(ValueError):
        _ = Versions.none().lowest
    with pytest.raises(ValueError):
        _ = Versions.none().highest


def test_membership_iteration_and_length() -> None:
    versions = Versions.parse("1-2, 5")
    assert list(versions) == [1, 2, 5]
    assert len(versions) == 3
    assert 5 in versions and 3 not in versions
    assert "1" not in versions  # only ints are versions
    assert list(Versions.parse("30000+").clip(30002)) == [30000, 30001, 30002]


def test_of_builds_a_range_or_nothing() -> None:
    assert Versions.of(3) == Versions.parse("3+")
    assert Versions.of(3, 4) == Versions.parse("3-4")
    assert Versions.of(4, 3).empty


def test_subtract_that_splits_keeps_both_sides() -> None:
    # A single Kafka-style range cannot express this; the set must.
    assert Versions.parse("0+") - Versions.parse("3-4") == Versions.parse("0-2, 5+")
    assert str(Versions.parse("0+").subtract(Versions.parse("3-4"))) == "0-2, 5+"


@pytest.mark.parametrize(
    ("a", "b", "difference"),
    [
        ("1-4", "1-2", "3-4"),
        ("3+", "4+", "3"),
        ("4+", "3+", "none"),
        ("1-5", "2-4", "1, 5"),
        ("1-5", "none", "1-5"),
        ("1-5", "7+", "1-5"),
    ],
)
def test_subtract_examples(a: str, b: str, difference: str) -> None:
    assert str(Versions.parse(a) - Versions.parse(b)) == difference


def test_contains_and_overlaps_examples() -> None:
    assert Versions.parse("0+").contains(Versions.parse("3-4"))
    assert Versions.parse("3-4").contains(Versions.none())
    assert not Versions.parse("3-4").contains(Versions.parse("3-5"))
    assert Versions.parse("0-3").overlaps(Versions.parse("3+"))
    assert not Versions.parse("0-2").overlaps(Versions.parse("3+"))
    assert not Versions.none().overlaps(Versions.parse("0+"))


# -- properties against Python sets -------------------------------------------------------

#: Small bounds make overlaps, neighbours and splits common; MAX_VERSION is included so
#: open-ended ranges take part (compared by clipping them to BOUND).
BOUND = 20


@st.composite
def version_sets(draw: st.DrawFn) -> Versions:
    """A set of versions built from up to four random ranges, some of them open-ended."""
    ranges = []
    for _ in range(draw(st.integers(0, 4))):
        low = draw(st.integers(0, BOUND))
        high = draw(st.one_of(st.integers(low, BOUND), st.just(MAX_VERSION)))
        ranges.append((low, high))
    return Versions.from_ranges(ranges)


def as_set(versions: Versions) -> set[int]:
    """The members up to BOUND, plus a marker for 'continues to MAX_VERSION'."""
    members = set(versions.clip(BOUND))
    if MAX_VERSION in versions:
        members.add(MAX_VERSION)
    return members


def is_normalised(versions: Versions) -> bool:
    ranges = versions.ranges
    return all(low <= high for low, high in ranges) and all(
        a[1] + 1 < b[0] for a, b in itertools.pairwise(ranges)
    )


@settings(max_examples=300, deadline=None)
@given(version_sets(), version_sets())
def test_intersect_is_set_intersection(a: Versions, b: Versions) -> None:
    result = a.intersect(b)
    assert as_set(result) == as_set(a) & as_set(b)
    assert is_normalised(result)
    assert result == b & a


@settings(max_examples=300, deadline=None)
@given(version_sets(), version_sets())
def test_union_is_set_union(a: Versions, b: Versions) -> None:
    result = a.union(b)
    assert as_set(result) == as_set(a) | as_set(b)
    assert is_normalised(result)
    assert result == b | a


@settings(max_examples=300, deadline=None)
@given(version_sets(), version_sets())
def test_subtract_is_set_difference(a: Versions, b: Versions) -> None:
    result = a.subtract(b)
    assert as_set(result) == as_set(a) - as_set(b)
    assert is_normalised(result)
    assert (result & b).empty
    assert (result | (a & b)) == a


@settings(max_examples=300, deadline=None)
@given(version_sets(), version_sets())
def test_contains_and_overlaps_match_sets(a: Versions, b: Versions) -> None:
    # Every range reaching MAX_VERSION also covers BOUND+1..MAX, so clipping is exact.
    assert a.contains(b) == (as_set(b) <= as_set(a))
    assert a.overlaps(b) == bool(as_set(a) & as_set(b))


@settings(max_examples=300, deadline=None)
@given(version_sets(), st.integers(0, BOUND + 2))
def test_membership_matches_sets(a: Versions, version: int) -> None:
    expected = version in as_set(a) or (version > BOUND and MAX_VERSION in as_set(a))
    assert (version in a) == expected


@settings(max_examples=300, deadline=None)
@given(version_sets())
def test_str_parse_round_trip(a: Versions) -> None:
    assert Versions.parse(str(a)) == a
