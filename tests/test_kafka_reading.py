"""Values read the way Kafka's generator reads them: Jackson's string coercion and the
version ranges of ``headerVersions`` keys (Kafka's ``Versions.parse`` on one range)."""

from __future__ import annotations

import pytest

from kcompat.rules.lint.headers import kafka_range
from kcompat.spec.jackson import scalar_text
from kcompat.spec.specfile import read_spec


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("int32", "int32"),
        (5, "5"),
        (True, "true"),
        (False, "false"),
        (1.5, "1.5"),
        (None, None),
        ([1], None),
        ({"a": 1}, None),
    ],
)
def test_scalar_text(value: object, text: str | None) -> None:
    assert scalar_text(value) == text


@pytest.mark.parametrize(
    ("key", "parsed"),
    [
        ("0+", (0, 0x7FFF)),
        (" 3 ", (3, 3)),
        ("0-1", (0, 1)),
        ("+1+", (1, 0x7FFF)),  # Java's Short.parseShort takes a leading plus
        ("0-32767", (0, 0x7FFF)),
        ("none", None),  # the empty range: no header version to map
        ("2-1", None),  # reversed: Kafka reads the empty range
        ("1--2", None),  # a negative bound throws
        ("-1", None),
        ("32768", None),
        ("1 - 2", None),  # parseShort("1 ") throws
        ("1,2", None),
        ("", None),
        ("x", None),
    ],
)
def test_header_range_keys_as_kafka_parses_them(key: str, parsed: tuple[int, int] | None) -> None:
    assert kafka_range(key) == parsed


def test_the_model_reads_coerced_names_and_types() -> None:
    spec = read_spec(
        "x/ProbeRecord.json",
        b'{"name": "ProbeRecord", "type": "metadata", "validVersions": 1,'
        b' "flexibleVersions": "0+", "fields": [{"name": 7, "type": 5, "versions": true,'
        b' "about": 3, "flexibleVersions": 0}]}',
    )
    assert spec.message is not None
    (field,) = spec.message.fields
    assert (field.name, field.type.text, field.about) == ("7", "5", "3")
    assert str(spec.message.valid_versions) == "1"
    assert field.versions.empty  # "true" is no range: invalid-versions says so
    assert str(field.flexible_versions) == "0"
