"""The house limit on complexity: no function of kcompat above radon's rank C (a
cyclomatic complexity of 20). Ruff's mccabe check (``C901``, pyproject.toml) holds the
same number, but counts less than radon does (no boolean operator, no comprehension's
``if``), so three functions at rank D passed it; this asks radon itself."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT


def test_no_function_is_above_rank_c() -> None:
    complexity = pytest.importorskip("radon.complexity")
    above = []
    for path in sorted((ROOT / "kcompat").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for block in complexity.cc_visit(source):
            if complexity.cc_rank(block.complexity) > "C":
                where = path.relative_to(ROOT)
                above.append(f"{where}:{block.lineno} {block.name} ({block.complexity})")
    assert above == []
