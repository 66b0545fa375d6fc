"""The core is safe for threads: the same pairs checked on eight threads at once (proof
on, every memo shared) give exactly what one thread gives, pair by pair.

The pairs are every diff rule page's examples (``rules/*.md``), BASE and HEAD as
directories. The process memos start empty, so the threads race to fill them: parses,
layouts, compiled codecs, proofs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kcompat.config import Config
from kcompat.diff.check import CheckOptions, check
from kcompat.diff.prepared import PreparedPair, prepare_pair
from kcompat.memo import Lru
from kcompat.modes import ReleasedMode
from kcompat.report.columns import finding_dict
from kcompat.rules.registry import get_rule
from kcompat.sources.directory import DirectorySource
from kcompat.spec.specfile import parsed_once
from tests.rule_docs import all_rule_docs, parse_rule_doc


def _pairs(root: Path) -> list[PreparedPair]:
    pairs = []
    for page in all_rule_docs():
        rule = get_rule(page.stem)
        if rule is None or rule.kind != "diff":
            continue
        doc = parse_rule_doc(page)
        for kind in ("fail", "pass"):
            if doc.files(f"{kind}-release"):
                continue  # released by a tag: needs git
            sides = []
            for role in ("base", "head"):
                folder = root / page.stem / kind / role
                folder.mkdir(parents=True)
                for name, text in doc.files(f"{kind}-{role}"):
                    (folder / name).write_text(text, encoding="utf-8")
                sides.append(DirectorySource(role, folder))
            if any(not side.paths() for side in sides):
                continue
            pairs.append(prepare_pair(*sides, released_mode=ReleasedMode.BASE, config=Config()))
    return pairs


def _checked(pair: PreparedPair) -> str:
    """Every finding of the pair, as the JSON report writes them."""
    with parsed_once():  # this thread's run, as a command's
        outcome = check(pair, CheckOptions(Config(), proof=True, samples=8))
    return json.dumps([finding_dict(f) for f in outcome.findings], sort_keys=True)


@pytest.fixture()
def empty_memos(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process memos empty (the threads fill them), and threads switching often."""
    from kcompat.codec import compiler, proof, runtime

    monkeypatch.setattr(compiler, "_CODE", Lru("compiled codecs", 512))
    monkeypatch.setattr(proof, "_PROVEN", Lru("proofs", 20_000))
    monkeypatch.setattr(runtime, "_STRUCTS", Lru("packers", 4096))
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(before)


def test_eight_threads_check_as_one_does(tmp_path: Path, empty_memos: None) -> None:
    pairs = _pairs(tmp_path)
    assert len(pairs) > 40
    alone = [_checked(pair) for pair in pairs]
    assert sum(text != "[]" for text in alone) > 20  # most pages' failing pairs find it
    from kcompat.codec import compiler, proof

    compiler._CODE = Lru("compiled codecs", 4)  # evicting all the time (the fixture restores)
    proof._PROVEN = Lru("proofs", 4)
    again = [PreparedPair.from_row(pair.to_row()) for pair in pairs]  # new message objects
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(_checked, again * 3))
    assert together == alone * 3
