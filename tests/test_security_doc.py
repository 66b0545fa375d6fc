"""Every promise in ``docs/SECURITY.md`` keeps a test (issue 32): each numbered promise
of "What kcompat never does" is named by a section that says how it is tested, and every
test file and test function the page names exists, so a test that is renamed or removed
cannot leave a promise standing on nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "SECURITY.md").read_text(encoding="utf-8")


def test_every_promise_is_named_where_its_tests_are() -> None:
    never = PAGE.split("## What kcompat never does", 1)[1].split("\n## ", 1)[0]
    promises = [int(n) for n in re.findall(r"^(\d+)\. \*\*", never, re.MULTILINE)]
    assert promises == list(range(1, len(promises) + 1)) and len(promises) >= 7
    tested = PAGE.split("## How each promise is tested", 1)[1]
    named: set[int] = set()
    for group in re.findall(r"\(promises? ([\d, and]+)\)", tested):
        named |= {int(n) for n in re.findall(r"\d+", group)}
    assert named >= set(promises), sorted(set(promises) - named)


def test_every_test_the_page_names_exists() -> None:
    files = set(re.findall(r"`(tests/[\w/]+\.py)`", PAGE))
    assert len(files) >= 20
    missing = sorted(f for f in files if not (ROOT / f).is_file())
    assert missing == []
    defined = {
        name
        for path in (ROOT / "tests").glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }
    names = set(re.findall(r"`(test_\w+)`", PAGE))
    assert len(names) >= 10
    assert sorted(names - defined) == []
