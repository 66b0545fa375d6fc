"""What kcompat tells a user whose revision is not here: the command that fixes it."""

from __future__ import annotations

from kcompat.sources.githints import fetch_hint


def test_a_remote_branch_of_a_remote_that_is_not_there_names_the_remotes() -> None:
    """``upstream/trunk`` in a clone with only ``origin``: fetching ``upstream/trunk``
    from origin alone would not help (before: "git fetch origin upstream/trunk")."""
    said = fetch_hint("upstream/trunk", ["origin"], False, maybe=True)
    assert said == (
        "no remote is named 'upstream' (remotes: origin): add it with git remote add "
        "upstream URL && git fetch upstream; if it is a branch not fetched yet: "
        "git fetch origin upstream/trunk"
    )


def test_a_branch_of_a_known_remote_is_fetched_from_it() -> None:
    said = fetch_hint("origin/trunk", ["origin", "upstream"], False)
    assert said == "fetch it first: git fetch origin trunk"


def test_a_plain_branch_and_a_shallow_clone_keep_their_advice() -> None:
    assert fetch_hint("topic", ["origin"], False) == "fetch it first: git fetch origin topic"
    assert "--unshallow" in fetch_hint("upstream/trunk", ["origin"], True)
