"""What every part of a codec generator shares: the source being written, counters, and
the constants a generated module binds once (:mod:`kcompat.codec.compiler`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from kcompat.codec.reference_encoder import Writer
from kcompat.codec.runtime import constant_key, constant_text
from kcompat.codec.values import StructKeys, layout_owner_fields, struct_keys
from kcompat.spec.model import Message
from kcompat.spec.resolve import Kind, Layout, StructLayout

#: Loops nested deeper than this are moved into their own function (CPython allows 20
#: nested blocks per function).
MAX_INLINE_LOOPS = 8
#: An ``if``/``elif`` chain longer than this is split by bisection (see ``dispatch``).
MAX_CHAIN = 32
FIXED_CODES = {Kind.BOOL: "?", Kind.FLOAT64: "d", Kind.UUID: "16s"}


class Source:
    """Lines of generated Python, indented by block."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        self(header)
        self.depth += 1
        yield
        self.depth -= 1


class GeneratorBase:
    """Writes the module for one layout: ``_enc(v) -> bytearray``, ``_dec(buf) -> dict``.

    With ``java``, only ``_dec``, reading as Kafka's Java readers do.
    """

    def __init__(self, layout: Layout, java: bool = False) -> None:
        self.layout = layout
        self.java = java
        self.owners = layout_owner_fields(layout)
        self.writer = Writer(layout)
        self.header: list[str] = []
        self.functions: list[list[str]] = []
        self.keys: list[tuple[StructKeys, Message]] = []
        self.consts: dict[str, str] = {}
        self.values: list[Any] = []
        self.value_names: dict[tuple[type, Any], str] = {}
        self.count = 0

    # -- shared ------------------------------------------------------------------------
    def uid(self) -> int:
        self.count += 1
        return self.count

    def struct_const(self, fmt: str) -> str:
        """A compiled ``struct.Struct`` for ``fmt``, shared by all calls."""
        return self.const(f"_Struct({fmt!r})")

    def unpackers(self, code: str) -> str:
        return self.const(f"_small_unpackers({code!r})")

    def const(self, expr: str) -> str:
        """A module-level constant for ``expr`` (evaluated once, shared by all calls)."""
        name = self.consts.get(expr)
        if name is None:
            name = f"_C{len(self.consts)}"
            self.consts[expr] = name
            self.header.append(f"{name} = {expr}")
        return name

    def k(self, value: Any) -> str:
        """The module constant holding ``value`` (a name, tag, default, set of names): the
        only way a value from the spec reaches the generated code."""
        key = constant_key(value)
        name = self.value_names.get(key) if key is not None else None
        if name is None:
            name = f"_K{len(self.values)}"
            self.header.append(f"{name} = _KV[{len(self.values)}]")
            self.values.append(value)
            if key is not None:
                self.value_names[key] = name
        return name

    def dispatch(
        self,
        src: Source,
        var: str,
        branches: Sequence[tuple[int, Callable[[], None]]],
        otherwise: Callable[[str], None],
    ) -> None:
        """``if var == A: ... elif var == B: ...`` over ``branches``, then ``otherwise``
        writes the rest of the chain, given its next keyword (``if`` when there was no
        branch). CPython compiles an ``elif`` chain recursively, so thousands of tagged
        fields would overflow its stack: a chain longer than ``MAX_CHAIN`` is split in two
        on ``var < middle``, again and again, so the generated nesting grows with the
        logarithm of the branches. The values must differ from each other."""
        if len(branches) <= MAX_CHAIN:
            keyword = "if"
            for value, body in branches:
                with src.block(f"{keyword} {var} == {self.k(value)}:"):
                    body()
                keyword = "elif"
            otherwise(keyword)
            return
        ordered = sorted(branches, key=lambda branch: branch[0])
        middle = len(ordered) // 2
        with src.block(f"if {var} < {self.k(ordered[middle][0])}:"):
            self.dispatch(src, var, ordered[:middle], otherwise)
        with src.block("else:"):
            self.dispatch(src, var, ordered[middle:], otherwise)

    def fresh(self, value: Any) -> str:
        """An expression for a default a decoded value owns: new lists and dicts each time
        (displays of constants, as fast as literals), immutable leaves shared."""
        if isinstance(value, list):
            return "[" + ", ".join(self.fresh(item) for item in value) + "]"
        if isinstance(value, dict):
            items = (f"{self.k(key)}: {self.fresh(item)}" for key, item in value.items())
            return "{" + ", ".join(items) + "}"
        return self.k(value)

    def constants_text(self) -> str:
        """The constants as comment lines: with the source, what makes two codecs equal."""
        lines = (f"# _K{index} = {constant_text(value)}" for index, value in enumerate(self.values))
        return "\n".join(lines) + "\n"

    def keys_index(self, layout: StructLayout) -> int:
        owner = self.owners.get(id(layout))
        self.keys.append((struct_keys(self.layout.message, layout, owner), self.layout.message))
        return len(self.keys) - 1
