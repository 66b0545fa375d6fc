"""Does this tree read every spec exactly as an older kcompat does? Loader and builder alike.

    python benchmarks/loader_same.py --before TREE [--examples 2000]

A change made for speed in the loader (``kcompat/spec/load.py``) or the builder
(``kcompat/spec/build.py``) must not change what any command sees: this reads the same
inputs with this tree and with ``--before TREE`` (a checkout of the older kcompat, e.g. a
``git worktree`` at the commit to compare with), each in a child process of its own, and
compares for every input a full dump of what ``read_spec`` returns: the document tree
with every object's, key's, value's and item's position, value types, key order, notes
in order, kcompat comments; or the error's message and position; and the built message
(its repr, and the position of each field's and struct's node). The inputs:

- every distinct spec blob in the corpus bundle's whole history (``*.json`` under a
  ``message`` or ``metadata`` folder, ``git rev-list --all --objects``), as written, with
  CR and with CR LF line ends, and with a kcompat comment put first (which turns on the
  loader's comment tracking);
- the test suite's fuzz strategies (``tests/test_fuzz_lint.py``: random bytes, JSON-ish
  token soup, random spec-shaped documents, mutated real specs), ``--examples`` of each,
  drawn deterministically;
- the string and bytes literals of ``tests/unit/spec/test_load.py`` and ``tests/test_hostile*.py``
  (alone and as a member's key and value), and the hostile specs their builders write;
- object members in every shape near the common ``"key": scalar`` one: keys and values
  with escapes, control characters, numbers of every form and length, literals and
  look-alikes, comments, line ends and stray characters between key, colon, value and
  comma, duplicate keys and trailing commas; and nesting around the depth limit.

Prints the counts of each kind, how many read with an error or with notes, and every
difference (the first few in full); exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import itertools
import json
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
HOSTILE_TESTS = ("unit/spec/test_load.py", "test_hostile_specs.py", "test_hostile_files.py")
Input = tuple[str, bytes]


# -- the child: one tree's reading of every input ------------------------------------------


def dump(path: str, data: bytes) -> str:
    """Everything ``read_spec`` says about one input, as text."""
    from kcompat.spec.specfile import read_spec

    spec = read_spec(path, data)
    if spec.error is not None:
        return f"error {spec.error.message!r} at {spec.error.pos!r}"
    document = spec.document
    assert document is not None
    parts = [
        f"root {_tree(document.root)}",
        f"notes {document.notes!r}",
        f"comments {document.comments!r}",
        f"message {spec.message!r}",
    ]
    if spec.message is not None:
        nodes = [(name, _pos(field.node)) for name, field in spec.message.walk()]
        structs = [
            (s.name, _pos(s.node))
            for s in (*spec.message.structs, *spec.message.structs.redefinitions)
        ]
        parts.append(f"nodes {nodes!r} structs {structs!r}")
    return "\n".join(parts)


def _pos(node: Any) -> Any:
    return None if node is None else node.pos


def _tree(value: Any) -> str:
    """A value with its type and, for containers, every position in it."""
    from kcompat.spec.load import JArray, JObject

    if isinstance(value, JObject):
        members = ", ".join(
            f"{key!r}@{value.key_pos[key]}={value.value_pos[key]}:{_tree(item)}"
            for key, item in value.items()
        )
        return f"{{@{value.pos} {members}}}"
    if isinstance(value, JArray):
        items = ", ".join(
            f"{where}:{_tree(item)}" for where, item in zip(value.item_pos, value, strict=True)
        )
        return f"[@{value.pos} {items}]"
    return f"{type(value).__name__}({value!r})"


def child(inputs_file: Path) -> None:
    """Print which kcompat this is, then one line per input: its dump's digest, whether
    it read with an error and whether with notes."""
    import kcompat

    print(kcompat.__file__)
    inputs: list[Input] = pickle.loads(inputs_file.read_bytes())
    for path, data in inputs:
        text = dump(path, data)
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16)
        error = text.startswith("error")
        print(digest.hexdigest(), int(error), int(not error and "notes ()" not in text))


def child_dumps(inputs_file: Path) -> None:
    """Print the full dump of each input, as JSON (to show a difference)."""
    inputs: list[Input] = pickle.loads(inputs_file.read_bytes())
    print(json.dumps([dump(path, data) for path, data in inputs]))


# -- the inputs ------------------------------------------------------------------------------


def corpus_blobs(tmp: Path) -> list[Input]:
    """Every distinct spec blob in the bundle's history, with the first path it had."""
    repo = tmp / "kafka.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(BUNDLE), str(repo)], check=True)
    listed = subprocess.run(
        ["git", "rev-list", "--all", "--objects"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    wanted = []
    for line in listed.splitlines():
        oid, _, path = line.partition(" ")
        folder = path.rsplit("/", 2)
        if path.endswith(".json") and len(folder) == 3 and folder[1] in ("message", "metadata"):
            wanted.append((oid, path))
    batch = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=repo,
        input="".join(f"{oid}\n" for oid, _ in wanted).encode(),
        capture_output=True,
        check=True,
    ).stdout
    blobs, at = [], 0
    for _, path in wanted:
        header_end = batch.index(b"\n", at)
        size = int(batch[at:header_end].split()[2])
        blobs.append((path, batch[header_end + 1 : header_end + 1 + size]))
        at = header_end + 1 + size + 1
    return blobs


def corpus_variants(blobs: list[Input]) -> Iterator[Input]:
    """Each blob with CR and CR LF line ends, and with a kcompat comment first."""
    for path, data in blobs:
        yield path, data.replace(b"\n", b"\r")
        yield path, data.replace(b"\n", b"\r\n")
        yield path, b"// kcompat: ignore-file[unknown-key] why\n" + data


def fuzz_inputs(examples: int, seeds: list[Input]) -> dict[str, list[Input]]:
    """``examples`` inputs from each of the fuzz tests' strategies, drawn deterministically."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    from tests import test_fuzz_lint as fuzz

    def draw(strategy: Any, count: int) -> list[Any]:
        found: list[Any] = []

        @settings(
            max_examples=count,
            database=None,
            derandomize=True,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(strategy)
        def collect(value: Any) -> None:
            found.append(value)

        collect()
        return found

    seed_texts = [(path, data.decode("utf-8")) for path, data in seeds]
    encode: Callable[[str], bytes] = lambda text: text.encode("utf-8", "surrogatepass")  # noqa: E731
    binary = st.binary(max_size=400) | st.binary(max_size=20).map(lambda b: b'{"name": "' + b)
    return {
        "fuzz: random bytes": [(fuzz.FUZZ_PATH, b) for b in draw(binary, examples)],
        "fuzz: JSON-ish text": [
            (fuzz.FUZZ_PATH, encode(t)) for t in draw(fuzz.jsonish_text(), examples)
        ],
        "fuzz: spec documents": [
            (fuzz.FUZZ_PATH, encode(t)) for t in draw(fuzz.spec_documents(), examples)
        ],
        "fuzz: mutated specs": [
            (p, encode(t)) for p, t in draw(fuzz.mutated(seed_texts), 4 * examples)
        ],
    }


def hostile_inputs() -> list[Input]:
    """The literals of the loader's and the hostile tests, and the specs their builders write."""
    from tests import test_hostile_specs as hostile

    literals: set[str | bytes] = set()
    for name in HOSTILE_TESTS:
        tree = ast.parse((ROOT / "tests" / name).read_text(encoding="utf-8"))
        literals.update(
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)
        )
    found: list[Input] = []
    for literal in sorted(literals, key=repr):
        text = literal if isinstance(literal, str) else literal.decode("utf-8", "replace")
        found.append(
            (
                "hostile.json",
                literal if isinstance(literal, bytes) else literal.encode("utf-8", "surrogatepass"),
            )
        )
        for wrapped in (
            f'{{"k": {text}}}',
            f'{{"k": "{text}"}}',
            f'{{"a": 1, {text}: 2}}',
            f"[{text}]",
        ):
            found.append(("hostile.json", wrapped.encode("utf-8", "surrogatepass")))
    texts = [hostile.behind_a_comment(end) for end in hostile.LINE_ENDS.values()]
    texts += [hostile.tagged_twice(hostile.BLOCK).encode(), hostile.many_tags().encode()]
    texts += [hostile.ratio_spec(str(n)).encode() for n in ("0x1p1024", "NaN", "1e400", "-0")]
    lines = hostile.spec(hostile.THREE_ON_TAG_0).split("\n")
    texts += [end.join(lines).encode() for end in hostile.LINE_ENDS.values()]
    return found + [("specs/ExtendLeaseRequest.json", text) for text in texts]


#: The parts of an object member the shapes below are made of.
KEYS = ('"name"', '"a\\"b"', '"\\u0041"', '"é"', '""', "'k'", "k", '"a\tb"', '"x', '"tag"')
VALUES = (
    '"v"', '""', '"a\\nb"', '"\\u00e9"', '"a\x01b"', '"unterminated', "'s'", "0", "-0", "7",
    "-12", "01", "+1", "1.5", "1.", ".5", "1e5", "1E+5", "-1e-5", "9" * 18, "9" * 19,
    "-" + "9" * 18, "1" * 400, "1" * 401, "true", "false", "null", "truex", "nul", "True",
    "None", "0x10", "1_0", "{", "[", "{}", "[]", '{"b": 1}', "[1, 2]", "", "-", "1a", "1.5.5",
    '"\u2028"', "NaN",
)  # fmt: skip
GAPS = (
    "", " ", "\t", "\n", "\r", "\r\n", "  \n\t", "/* c */", "// c\n", "// c\r", "\x0c", "\x0b",
    "/* kcompat: ignore[x] */", "// kcompat: ignore[x]\n", "\n/*\n*/\n", ",", "::",
)  # fmt: skip
TAILS = ("}", ",}", ", }", ',"z": 1}', ',\n"z": 1}', ",,}", ' "z": 1}', "]", "", ",\r\n}")


def member_shapes() -> Iterator[Input]:
    """``{"first": 1, KEY:VALUE TAIL`` with one gap changed at a time, at two depths; a
    repeated key; nesting around the depth limit."""
    default = ("\n  ", "", " ", "")
    for key, value, tail in itertools.product(KEYS, VALUES, TAILS):
        for slot, gap in itertools.product(range(4), GAPS):
            gaps = list(default)
            gaps[slot] = gap
            member = f"{gaps[0]}{key}{gaps[1]}:{gaps[2]}{value}{gaps[3]}{tail}"
            if slot == 0 or gap in ("", "\n", "/* c */"):  # the rest: top level only
                yield (
                    "shape.json",
                    f'{{"a": [{{"first": 1,{member}]}}'.encode("utf-8", "surrogatepass"),
                )
            yield "shape.json", f'{{"first": 1,{member}'.encode("utf-8", "surrogatepass")
        yield "shape.json", f"{{{key}: {value}{tail}".encode("utf-8", "surrogatepass")
        yield (
            "shape.json",
            f'{{"name": 1, {key}: {value}, "name": {value}{tail}'.encode("utf-8", "surrogatepass"),
        )
    for depth, opener in itertools.product(range(60, 70), ('{"a": ', '{"a":[', "[", '[{"a":{')):
        yield "shape.json", (opener * depth).encode() + b"1" + b"]}" * depth


# -- comparing ----------------------------------------------------------------------------------


def run_child(tree: Path, mode: str, inputs_file: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-P", str(Path(__file__).resolve()), mode, str(inputs_file)],
        cwd=inputs_file.parent,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def readings(tree: Path, inputs_file: Path) -> list[list[str]]:
    """One tree's digest, error flag and notes flag of every input."""
    out = run_child(tree, "--child", inputs_file).splitlines()
    if not Path(out[0]).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the child for {tree} imported kcompat from {out[0]}")
    return [line.split() for line in out[1:]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--before", type=Path, required=True, help="a checkout of the older kcompat"
    )
    parser.add_argument("--examples", type=int, default=2000, help="inputs per fuzz strategy")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="kcompat-loader-same-") as tmp_name:
        tmp = Path(tmp_name)
        blobs = corpus_blobs(tmp)
        groups: dict[str, list[Input]] = {
            "corpus blobs": blobs,
            "corpus blobs, CR / CR LF / kcompat comment": list(corpus_variants(blobs)),
            **fuzz_inputs(args.examples, blobs[:: max(1, len(blobs) // 200)]),
            "test literals and hostile specs": hostile_inputs(),
            "member shapes": list(member_shapes()),
        }
        inputs = [item for group in groups.values() for item in group]
        inputs_file = tmp / "inputs.pickle"
        inputs_file.write_bytes(pickle.dumps(inputs))
        now, before = readings(ROOT, inputs_file), readings(args.before, inputs_file)
        differ = [i for i, (a, b) in enumerate(zip(now, before, strict=True)) if a != b]
        report(groups, now, differ)
        if differ:
            show_differences(tmp, [inputs[i] for i in differ[:5]], args.before)
            return 1
    return 0


def report(groups: dict[str, list[Input]], now: list[list[str]], differ: list[int]) -> None:
    """The counts of each kind of input: read with an error, with notes, different."""
    at = 0
    for name, group in groups.items():
        span = range(at, at + len(group))
        errors = sum(int(now[i][1]) for i in span)
        notes = sum(int(now[i][2]) for i in span)
        different = sum(1 for i in differ if i in span)
        counts = f"{errors:>6} errors, {notes:>6} with notes, {different} differ"
        print(f"{name:<44} {len(group):>7} inputs, {counts}")
        at += len(group)
    print(f"{'all':<44} {sum(map(len, groups.values())):>7} inputs, {len(differ)} differ")


def show_differences(tmp: Path, inputs: list[Input], before: Path) -> None:
    """Each input's two dumps from the first place they differ."""
    shown = tmp / "differ.pickle"
    shown.write_bytes(pickle.dumps(inputs))
    mine = json.loads(run_child(ROOT, "--dumps", shown))
    theirs = json.loads(run_child(before, "--dumps", shown))
    for (path, data), now, old in zip(inputs, mine, theirs, strict=True):
        at = next((i for i, (a, b) in enumerate(zip(now, old, strict=False)) if a != b), 0)
        print(f"--- {path}: {data[:200]!r}")
        print(f"now:    ...{now[max(0, at - 200) : at + 300]}")
        print(f"before: ...{old[max(0, at - 200) : at + 300]}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] in ("--child", "--dumps"):
        (child if sys.argv[1] == "--child" else child_dumps)(Path(sys.argv[2]))
        sys.exit(0)
    sys.exit(main())
