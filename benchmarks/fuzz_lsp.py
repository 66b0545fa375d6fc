"""Long fuzzing campaign for the language server: a stream of hostile documents over stdio.

    python benchmarks/fuzz_lsp.py --documents 300 --scale 20 --seed 32

``kcompat lsp`` runs as an editor runs it (``tests/lsp_client.py``), with Kafka trunk's
clients message folder open (from ../shared/corpus, cloned to a temp dir), or the
examples with ``--no-kafka``. Each document is drawn from the families of
``tests/lsp_hostile.py`` (specs on one long line, astral characters and lone surrogates,
nesting past the limit, megabytes in one string or comment, many lines, noise, a text
over the size limit, real specs cut and pasted; ``--scale 20`` makes one-line specs of
up to 20,000 fields), sent as the open spec's whole text; then hover, completion,
definition, references, code actions and the outline at random places. Every request
must be answered (within the client's 20 s bound: a hang fails the campaign), the
outline stays within its bound, and at the end the original text gets its original
findings back. Printed: documents per family, requests answered, and per request the
median and the slowest answer with the family that caused it, with the calibration.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calibration import describe  # noqa: E402

from tests.conftest import EXAMPLES  # noqa: E402
from tests.lsp_client import editing  # noqa: E402
from tests.lsp_hostile import hostile_session  # noqa: E402

BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
FOLDER = "clients/src/main/resources/common/message"
SPEC = "FetchRequest.json"


async def campaign(folder: Path, spec: Path, documents: int, scale: int, seed: int) -> int:
    times: dict[str, list[tuple[float, str]]] = defaultdict(list)

    def timed(family: str, request: str, seconds: float) -> None:
        times[request].append((seconds, family))

    original = spec.read_text(encoding="utf-8")
    started = time.perf_counter()
    async with editing(folder) as editor:
        uri = editor.open(spec)
        first = await editor.diagnostics(uri, 1)
        made = await hostile_session(
            editor, uri, original, random.Random(seed), documents, scale, timed
        )
        again = await editor.diagnostics(uri, editor.change(uri, original))
    wall = time.perf_counter() - started
    assert again == first, "the original text's findings changed"
    answered = sum(len(v) for v in times.values())
    print(f"{documents} documents in {wall:.0f} s ({answered} requests answered), seed {seed}")
    print("documents per family: " + ", ".join(f"{k} {v}" for k, v in sorted(made.items())))
    for request, seen in sorted(times.items()):
        slowest, family = max(seen)
        median = statistics.median(s for s, _ in seen)
        print(
            f"  {request:<15} {len(seen):>5} answers: median {median * 1000:8.1f} ms, "
            f"slowest {slowest:6.2f} s ({family})"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--scale", type=int, default=1, help="size of the documents")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-kafka", action="store_true", help="the examples only")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    print(describe())
    with tempfile.TemporaryDirectory() as tmp:
        if args.no_kafka or not BUNDLE.is_file():
            folder = Path(tmp) / "message"
            folder.mkdir()
            for path in EXAMPLES.glob("*.json"):
                (folder / path.name).write_text(path.read_text(encoding="utf-8"), "utf-8")
            spec = folder / "WidgetRequest.json"
        else:
            repo = Path(tmp) / "kafka"
            subprocess.run(["git", "clone", "-q", str(BUNDLE), str(repo)], check=True)
            folder, spec = repo / FOLDER, repo / FOLDER / SPEC
        code = asyncio.run(campaign(folder, spec, args.documents, args.scale, seed))
    print(describe())
    return code


if __name__ == "__main__":
    sys.exit(main())
