"""Fuzzing the diff path: a real spec against a mutated copy, checked and rendered.

A bounded, fixed-seed run of :mod:`tests.diff_fuzz` (``benchmarks/fuzz_lint.py`` runs it
for as long as you like, on Kafka's specs too): for each family of edits, a few pairs of
an example spec and its mutant, prepared and checked as ``kcompat diff`` does with the
proof on, then rendered in every format. No exception, every finding in one of the two
files, JSON and SARIF that parse, JUnit that is XML, nothing raw a terminal acts on.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.diff_fuzz import FAMILIES, check_case, make_case
from tests.test_fuzz_lint import example_seeds

#: Cases per family: twelve families, a few seconds in all.
CASES = 12


@pytest.mark.parametrize("family", FAMILIES)
def test_diff_of_mutated_pairs(family: str, tmp_path: Path) -> None:
    seeds = example_seeds()
    rng = random.Random(f"kcompat-diff-fuzz-{family}")
    for _ in range(CASES):
        case = make_case(rng, seeds, family)
        if case.known:  # a NUL or lone surrogate in a name: another change (issue 12, defect 9)
            continue
        try:
            check_case(case, tmp_path, samples=2)
        except Exception as err:
            raise AssertionError(f"{case.to_json()}: {err}") from err
