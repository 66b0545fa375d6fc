"""The language server on a spec written on one long line (issue 32.2): what its requests
cost as the line grows, CPU, in process; and the outline over stdio.

    python benchmarks/lsp_long_line.py [--fields 1000 4000 20000] [--before TREE]
                                       [--limit 120]

A generated request spec with N fields, all on one line (N = 20,000 is 1.3 MB): each
figure is the CPU time (``time.process_time``) of one child process doing one thing to
it after parsing it: ``symbols`` (``textDocument/documentSymbol``, which editors send on
open), ``diagnostics`` (the lint's findings made ranges: one per field here, as each
field lacks ``versions``) and ``positions`` (every field's offset to an editor position
and back, as hover and completion convert the cursor). ``--before TREE`` runs the same
children on another kcompat tree (``git archive main | tar -x -C TREE``); a child past
``--limit`` seconds is stopped and shown as over it. Then, on this tree only, an editor
over stdio (as in the tests) opens the 20,000-field text and times the outline's answer.
Printed with the calibration (``benchmarks/calibration.py``) before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calibration import describe  # noqa: E402

FIGURES = ("symbols", "diagnostics", "positions")
#: One figure in a child process: CPU seconds of the work, as JSON.
CHILD = """
import json, sys, time
from kcompat.config import Config
from kcompat.lsp.diagnostics import diagnostics
from kcompat.lsp.documents import parse
from kcompat.lsp.folder import lint_folder
from kcompat.lsp.symbols import document_symbols
figure, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
parsed = parse("WideRequest.json", text)
objects = [obj for _kind, obj, _path in parsed.objects]
start = time.process_time()
if figure == "symbols":
    document_symbols(parsed)
elif figure == "diagnostics":
    found = lint_folder([parsed.spec], [], Config())["WideRequest.json"]
    diagnostics(found, parsed)
else:
    index = parsed.index
    for obj in objects:
        line, character = index.position(parsed.offset(obj.pos))
        index.offset_at(line, character)
print(json.dumps(time.process_time() - start))
"""


def one_line_spec(fields: int) -> str:
    """A request of ``fields`` fields, every one without ``versions`` (a lint finding
    each), all on one line."""
    written = ", ".join(
        f'{{"name": "Field{n}", "type": "int32", "about": "Field number {n}."}}'
        for n in range(fields)
    )
    return (
        '{"apiKey": 160, "type": "request", "name": "WideRequest", "validVersions": "0", '
        f'"flexibleVersions": "none", "fields": [{written}]}}'
    )


def child(tree: Path, figure: str, spec: Path, limit: float) -> float | None:
    """CPU seconds of one figure on ``tree`` (None: stopped at ``limit`` seconds)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, figure, str(spec)],
            env=env,
            cwd=tree,
            capture_output=True,
            text=True,
            timeout=limit,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    return float(json.loads(done.stdout))


async def outline_over_stdio(folder: Path, spec: Path) -> tuple[float, int]:
    """Seconds from didOpen to the outline's answer over stdio, and its symbol count."""
    from tests.lsp_client import editing

    async with editing(folder) as editor:
        start = time.perf_counter()
        uri = editor.open(spec)
        symbols = await editor.symbols(uri)
        seconds = time.perf_counter() - start
    count = sum(1 + len(s.children or ()) for s in symbols or ())
    return seconds, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fields", type=int, nargs="+", default=[1000, 4000, 20000])
    parser.add_argument("--before", type=Path, default=None)
    parser.add_argument("--limit", type=float, default=120.0)
    args = parser.parse_args()
    trees = [("this tree", ROOT)]
    if args.before is not None:
        trees.insert(0, ("before", args.before.resolve()))
    print(describe())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for fields in args.fields:
            spec = folder / f"WideRequest{fields}.json"
            spec.write_text(one_line_spec(fields), encoding="utf-8")
            size = spec.stat().st_size
            for label, tree in trees:
                shown = []
                for figure in FIGURES:
                    seconds = child(tree, figure, spec, args.limit)
                    took = f"> {args.limit:.0f} s" if seconds is None else f"{seconds:.2f} s"
                    shown.append(f"{figure} {took}")
                print(f"{fields:>6} fields ({size / 1e6:.2f} MB), {label}: {', '.join(shown)}")
        largest = folder / f"WideRequest{max(args.fields)}.json"
        target = folder / "message" / "WideRequest.json"
        target.parent.mkdir()
        largest.rename(target)
        seconds, count = asyncio.run(outline_over_stdio(target.parent, target))
        print(
            f"over stdio, this tree: didOpen -> documentSymbol answered in {seconds:.2f} s "
            f"({count} symbols) for {max(args.fields)} fields on one line"
        )
    print(describe())
    return 0


if __name__ == "__main__":
    sys.exit(main())
