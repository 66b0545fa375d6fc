"""How soon ``kcompat lsp`` re-lints after an edit (goal: under 0.2 s for Kafka's largest
spec, debounce included).

An editor session over stdio, as in the tests: Kafka trunk's clients message folder (187
specs) with FetchRequest.json open; each round sends one edit (a reused tag, then its
fix, alternately) and times the wait until the diagnostics of that version arrive. That
is the debounce (:data:`kcompat.lsp.session.DEBOUNCE_SECONDS`), the lint of the open spec
against the folder, and the protocol both ways. The lint alone is timed in-process too
(warm: the siblings read once, as the server keeps them).

    python benchmarks/lsp_bench.py               # 30 edits
    python benchmarks/lsp_bench.py --edits 100

Needs ../shared/corpus/kafka-spec-history.bundle (cloned to a temp dir) and the lsp extra.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calibration import describe  # noqa: E402

from kcompat.config import Config  # noqa: E402
from kcompat.lsp.documents import parse  # noqa: E402
from kcompat.lsp.folder import DiskSpecs, lint_folder  # noqa: E402
from kcompat.lsp.session import DEBOUNCE_SECONDS  # noqa: E402
from tests.lsp_client import editing  # noqa: E402

BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
FOLDER = "clients/src/main/resources/common/message"
SPEC = "FetchRequest.json"
GOAL_SECONDS = 0.2
#: The edit: FetchRequest's first tagged field takes the tag of the second (a reused tag).
TAG_BEFORE, TAG_AFTER = '"tag": 1', '"tag": 0'


async def session(repo: Path, edits: int) -> list[float]:
    """Seconds from each didChange to its diagnostics."""
    path = repo / FOLDER / SPEC
    original = path.read_text(encoding="utf-8")
    broken = original.replace(TAG_BEFORE, TAG_AFTER, 1)
    assert broken != original, "the edit found nothing to change"
    waits = []
    async with editing(repo) as editor:
        uri = editor.open(path)
        await editor.diagnostics(uri, 1)
        for round_ in range(edits):
            text = broken if round_ % 2 == 0 else original
            sent = time.perf_counter()
            version = editor.change(uri, text)
            found = await editor.diagnostics(uri, version)
            waits.append(time.perf_counter() - sent)
            assert bool(found) == (text is broken), found
    return waits


def lint_alone(repo: Path, runs: int) -> list[float]:
    """Seconds of the server's lint of the open spec against its folder (warm)."""
    folder = repo / FOLDER
    disk = DiskSpecs()
    text = (folder / SPEC).read_text(encoding="utf-8").replace(TAG_BEFORE, TAG_AFTER, 1)
    lint_folder([parse(str(folder / SPEC), text).spec], disk.folder(str(folder)), Config())
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        opened = parse(str(folder / SPEC), text)
        lint_folder([opened.spec], disk.folder(str(folder)), Config())
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=30)
    args = parser.parse_args()
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}", file=sys.stderr)
        return 2
    print(describe())
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "kafka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(repo)], check=True)
        alone = lint_alone(repo, args.edits)
        waits = asyncio.run(session(repo, args.edits))
    print(describe())
    print(
        f"lint of {SPEC} against {FOLDER} (in-process, warm): median "
        f"{statistics.median(alone) * 1000:.1f} ms, max {max(alone) * 1000:.1f} ms"
    )
    print(
        f"didChange -> publishDiagnostics over stdio ({len(waits)} edits, debounce "
        f"{DEBOUNCE_SECONDS * 1000:.0f} ms included): median "
        f"{statistics.median(waits) * 1000:.1f} ms, 90th percentile "
        f"{statistics.quantiles(waits, n=10)[-1] * 1000:.1f} ms, max {max(waits) * 1000:.1f} ms "
        f"(edit {waits.index(max(waits)) + 1}) (goal: under {GOAL_SECONDS * 1000:.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
