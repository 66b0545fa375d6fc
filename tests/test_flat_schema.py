"""The flat schema checked by hand gives exactly jsonschema's errors (jsonschema is the
oracle here, as json5 is the loader's): on generated objects of every kind, on the
examples, and on every object of Kafka's specs at trunk and at every release tag."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from kcompat.rules.lint.flat_schema import FlatSchema, Unchecked, flat_schemas, schema_errors
from kcompat.rules.lint.scopes import written_objects
from kcompat.spec.specfile import read_spec
from tests.conftest import ROOT

KINDS = ("message", "field", "commonStruct")


def oracle(kind: str) -> Draft202012Validator:
    return Draft202012Validator(flat_schemas()[kind].schema)


def described(errors: Any) -> Counter[tuple[str, str, tuple[Any, ...], str]]:
    """Errors as comparable facts: keyword, expected value, path, value found."""
    return Counter(
        (
            error.validator,
            json.dumps(error.validator_value, sort_keys=True),
            tuple(error.path),
            repr(error.instance),
        )
        for error in errors
    )


def agree(kind: str, obj: Any) -> None:
    ours = described(schema_errors(flat_schemas()[kind].schema, obj))
    assert ours == described(oracle(kind).iter_errors(obj)), (kind, obj)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "0", "0+", "1-3", "int32", "request", "broker", "true", "x"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


def objects(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with the kind's own keys (and others) holding values of any JSON type."""
    known = sorted(flat_schemas()[kind].properties)
    keys = st.sampled_from([*known, "nullable", "Name", "typo"])
    return st.dictionaries(keys, VALUES, max_size=8)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), data=st.data())
def test_generated_objects_get_jsonschemas_errors(kind: str, data: st.DataObject) -> None:
    agree(kind, data.draw(objects(kind)))


def spec_objects(paths: Iterator[tuple[str, bytes]]) -> Iterator[tuple[str, Any]]:
    for path, text in paths:
        yield from written_objects(read_spec(path, text))


def test_the_examples_and_hostile_specs_agree() -> None:
    files = sorted((ROOT / "specs").rglob("*.json"))
    files += sorted((ROOT / "tests").rglob("*.json"))
    checked = 0
    for kind, obj in spec_objects((str(p), p.read_bytes()) for p in files):
        agree(kind, obj)
        checked += 1
    assert checked > 100


def test_a_keyword_not_checked_by_hand_goes_to_jsonschema() -> None:
    """A keyword this module does not know is never skipped: jsonschema checks it."""
    schema = {"type": "object", "properties": {"name": {"type": "string", "pattern": "^[A-Z]"}}}
    with pytest.raises(Unchecked):
        list(schema_errors(schema, {"name": "lower"}))
    errors = FlatSchema(schema).errors({"name": "lower"})  # type: ignore[arg-type]
    assert [(e.validator, list(e.path)) for e in errors] == [("pattern", ["name"])]


@pytest.mark.corpus
def test_every_object_of_kafkas_specs_agrees(kafka_repo: Path) -> None:
    """Trunk and every release tag: the same errors as jsonschema's, object by object."""
    refs = ["HEAD", *subprocess.run(
        ["git", "tag"], cwd=kafka_repo, capture_output=True, text=True, check=True
    ).stdout.split()]  # fmt: skip
    seen: set[bytes] = set()
    checked = 0
    for ref in refs:
        listing = subprocess.run(
            ["git", "ls-tree", "-r", "--format=%(objectname) %(path)", ref],
            cwd=kafka_repo, capture_output=True, text=True, check=True,
        ).stdout.splitlines()  # fmt: skip
        for line in listing:
            blob, path = line.split(" ", 1)
            if not path.endswith(".json") or blob.encode() in seen:
                continue
            seen.add(blob.encode())
            text = subprocess.run(
                ["git", "cat-file", "blob", blob], cwd=kafka_repo, capture_output=True, check=True
            ).stdout
            for kind, obj in spec_objects(iter([(path, text)])):
                agree(kind, obj)
                checked += 1
    assert checked > 5_000  # distinct texts: about 7,600 objects
