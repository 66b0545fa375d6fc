"""One release order and one response-to-request mapping, used everywhere."""

from __future__ import annotations

from kcompat.naming import release_order, request_name_for


def test_releases_sort_by_their_numbers() -> None:
    tags = ["3.10.0", "2.8.0", "3.9.1", "3.9.0", "v2.10.0"]
    assert sorted(tags, key=release_order) == ["2.8.0", "v2.10.0", "3.9.0", "3.9.1", "3.10.0"]


def test_a_response_follows_its_request() -> None:
    assert request_name_for("FetchResponse") == "FetchRequest"
    assert request_name_for("FetchRequest") is None
    assert request_name_for("ResponseHeader") is None
