"""Spec text to a document tree that remembers where every object, key and value is.

Kafka spec files are JSON plus ``//`` and ``/* */`` comments. The ``json5`` library reads
them, but it keeps no source positions and costs ~8 ms per file, so lint of a whole
repository could not point at ``file:line:col`` or finish in well under a second. This
module is a small single-regex tokenizer with an explicit stack: no recursion (10,000-deep
nesting is an error, not a crash), bounded input size, and recoverable problems
(duplicate keys, trailing commas) kept as notes so lint can report them and go on.
The tests check it against ``json5`` on every spec in Kafka's history.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kcompat.spec.document import Comment as Comment  # re-exported: the loader's tree
from kcompat.spec.document import Document as Document
from kcompat.spec.document import JArray as JArray
from kcompat.spec.document import JObject as JObject
from kcompat.spec.document import SyntaxNote as SyntaxNote
from kcompat.spec.jackson import line_and_column, unified_line_ends
from kcompat.spec.syntax_errors import LoadError as LoadError  # re-exported: the loader's error
from kcompat.spec.syntax_errors import Position as Position
from kcompat.spec.syntax_errors import bad_token

#: Larger inputs are refused up front: Kafka's largest spec is about 40 KB.
MAX_BYTES = 4 * 1024 * 1024
#: JSON nesting deeper than this is refused; Kafka's deepest spec nests about 12 levels.
MAX_DEPTH = 64


# Comments as Jackson reads them: a ``//`` comment ends at LF or CR (a lone CR too), and
# neither kind may hold a control character other than tab, CR and LF (Jackson refuses
# the file; the tokenizer stops there and ``_bad_token`` says why).
_LINE_COMMENT = r"//[^\x00-\x08\x0a-\x1f]*"
_BLOCK_COMMENT = r"/\*[^\x00-\x08\x0b\x0c\x0e-\x1f]*?\*/"
# One match per token: skippable whitespace and comments, then the token itself.
_TOKEN = re.compile(
    r"""
    (?P<skip>(?:[ \t\r\n]+|"""
    + _LINE_COMMENT
    + "|"
    + _BLOCK_COMMENT
    + r""")*)
    (?:
      (?P<string>"(?:[^"\\\x00-\x1f]|\\.)*")
    | (?P<punct>[{}\[\]:,])
    | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![0-9A-Za-z_.]))
    | (?P<literal>(?:true|false|null)(?![0-9A-Za-z_]))
    )?
    """,
    re.VERBOSE,
)
_COMMENT = re.compile(_LINE_COMMENT + "|" + _BLOCK_COMMENT)
# The common object member in one match instead of three or four trips through the
# tokenizer: ``"key": scalar`` and the comma after it, or ``"key": [`` (or ``{``). It
# takes only what the token path reads the same way with no note, error or comment to
# keep: plain whitespace (a line end only before the key), a key and a string without
# escapes, an integer of at most 18 digits, a literal. Anything else does not match, and
# the token path reads the member.
_MEMBER = re.compile(
    r"""
    [ \t\r\n]*
    "(?P<key>[^"\\\x00-\x1f]*)" [ \t]* : [ \t]*
    (?:
      (?P<value>"[^"\\\x00-\x1f]*"
        | -?(?:0|[1-9][0-9]{0,17})(?![0-9A-Za-z_.])
        | (?:true|false|null)(?![0-9A-Za-z_]))
      [ \t]* (?P<comma>,)?
    | (?P<opener>[{\[])
    )
    """,
    re.VERBOSE,
)
_KINDS = ("string", "punct", "number", "literal")

_LITERALS = {"true": True, "false": False, "null": None}
#: Longer integer literals are refused (Python's int() stops at 4300 digits).
_MAX_INT_DIGITS = 400
_BOM = "\ufeff"


def decode_bytes(data: bytes, path: str, size: int | None = None) -> str:
    """UTF-8 bytes to text; a clear :class:`LoadError` naming the first bad byte otherwise.

    ``size`` is the file's real size when only its first bytes were read.
    """
    if len(data) > MAX_BYTES:
        # Readers stop one byte past the limit: without the real size, say only "over".
        total = f"{size / 1e6:.1f} MB" if size is not None and size > MAX_BYTES else "larger"
        raise LoadError(
            f"file is {total}, over the {MAX_BYTES // (1024 * 1024)} MiB limit "
            "for a spec file; is this really a message spec?"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8")  # valid up to there, by definition
        raise LoadError(
            f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start}); "
            "save the file as UTF-8",
            line_and_column(before, len(before)),
        ) from None
    return text[1:] if text.startswith(_BOM) else text


def parse_document(text: str, path: str = "<string>") -> Document:
    """Parse spec text into a :class:`Document`; raises :class:`LoadError` when unreadable."""
    if len(text) > MAX_BYTES:
        raise LoadError(
            f"file has {len(text)} characters, over the {MAX_BYTES // (1024 * 1024)} MiB limit"
        )
    parser = _Parser(text)
    try:
        root = parser.parse()
    except LoadError:
        conflict = _CONFLICT.search(unified_line_ends(text))
        if conflict is None:
            raise
        line = parser.lines.count("\n", 0, conflict.start()) + 1
        raise LoadError(
            "unresolved merge conflict (<<<<<<< marker): resolve it, then git add the file",
            (line, 1),
        ) from None
    return Document(path, text, root, tuple(parser.notes), tuple(parser.comments))


#: The first line of a conflict git left in a file (``<<<<<<< HEAD``)
_CONFLICT = re.compile(r"^<{7}(?: |$)", re.MULTILINE)


def load_bytes(data: bytes, path: str, size: int | None = None) -> Document:
    """Decode and parse one file's bytes (``size``: the real size of a truncated read)."""
    return parse_document(decode_bytes(data, path, size), path)


def _unclosed(container: JObject | JArray, where: Position) -> LoadError:
    """The end of the file came before the container's closing bracket."""
    is_object = isinstance(container, JObject)
    closer = "}" if is_object else "]"
    open_line, open_col = container.pos
    return LoadError(
        f"unexpected end of file: missing '{closer}' for the "
        f"{'object' if is_object else 'array'} opened at line {open_line}, "
        f"column {open_col}",
        where,
    )


class _Parser:
    """Iterative JSON-with-comments parser with positions; one instance per document."""

    def __init__(self, text: str) -> None:
        self.text = text
        # the same text with Jackson's line ends as LF (same offsets): lines are counted here
        self.lines = unified_line_ends(text)
        self.pos = 0
        self.line = 1
        self.line_start = 0  # offset of the first character of the current line
        self.notes: list[SyntaxNote] = []
        self.comments: list[Comment] = []
        self.track_comments = "kcompat" in text

    # -- tokens ---------------------------------------------------------------------
    def _where(self, offset: int) -> Position:
        return (self.line, offset - self.line_start + 1)

    def _advance_lines(self, start: int, end: int) -> None:
        count = self.lines.count("\n", start, end)
        if count:
            self.line += count
            self.line_start = self.lines.rfind("\n", start, end) + 1

    def _next(self) -> tuple[str, str, int]:
        """The next significant token as (kind, text, offset); ('eof', '', offset) at the end."""
        text = self.text
        pos = self.pos
        match = _TOKEN.match(text, pos)
        assert match is not None  # every group is optional
        skip_end = match.end("skip")
        if skip_end > pos:
            if self.track_comments:
                self._skipped(pos, skip_end)
            else:  # the common case, inlined: only line numbers to account for
                lines = self.lines
                count = lines.count("\n", pos, skip_end)
                if count:
                    self.line += count
                    self.line_start = lines.rfind("\n", pos, skip_end) + 1
        kind = match.lastgroup
        if kind is None or kind == "skip":
            if skip_end >= len(text):
                self.pos = skip_end
                return ("eof", "", skip_end)
            raise self._bad_token(skip_end)
        end = match.end()
        self.pos = end
        return (kind, text[skip_end:end], skip_end)  # the token starts where skipping ends

    def _skipped(self, start: int, end: int) -> None:
        """Account for whitespace and comments: line numbers, and kcompat comments."""
        text = self.text
        if self.track_comments and "kcompat" in text[start:end]:
            for comment in _COMMENT.finditer(text, start, end):
                if "kcompat" in comment.group():
                    self._advance_lines(start, comment.start())
                    start = comment.start()
                    before = text[self.line_start : start]
                    self.comments.append(
                        Comment(self.line, comment.group(), not before.strip(), len(before) + 1)
                    )
        self._advance_lines(start, end)

    def _bad_token(self, offset: int) -> LoadError:
        return bad_token(self.text, offset, self._where(offset))

    @staticmethod
    def _string_value(token: str, where: Position) -> str:
        if "\\" not in token:
            return token[1:-1]
        try:
            value = json.loads(token)
        except ValueError:
            raise LoadError(f"invalid escape sequence in string {token[:40]}", where) from None
        assert isinstance(value, str)
        return value

    # -- grammar ----------------------------------------------------------------------
    def parse(self) -> Any:
        kind, token, offset = self._next()
        if kind == "eof":
            raise LoadError("file is empty; a spec file holds one JSON object", (1, 1))
        root = self._value(kind, token, offset)
        try:
            kind, token, offset = self._next()
        except LoadError:  # garbage after the value: Kafka never reads that far
            match = _TOKEN.match(self.text, self.pos)
            junk_at = match.end("skip") if match is not None else self.pos
            kind, token, offset = "junk", self.text[junk_at : junk_at + 1], junk_at
        where = self._where(offset)  # where the junk starts, not where reading it failed
        if kind != "eof":
            self.notes.append(
                SyntaxNote(
                    "trailing-content",
                    f"unexpected {token!r} after the end of the top-level object; Kafka's "
                    "parser ignores everything after it: delete it",
                    where,
                )
            )
        return root

    def _scalar(self, kind: str, token: str, offset: int) -> Any:
        if kind == "string":
            return self._string_value(token, self._where(offset))
        if kind == "number":
            if "." in token or "e" in token or "E" in token:
                return float(token)
            if len(token) > _MAX_INT_DIGITS:  # int() refuses thousands of digits anyway
                raise LoadError(
                    f"number with {len(token.lstrip('-'))} digits is too long; "
                    "no spec value needs more than 20",
                    self._where(offset),
                )
            return int(token)
        if kind == "literal":
            return _LITERALS[token]
        if token in (",", "}", "]"):
            raise LoadError(f"a value is missing before {token!r}", self._where(offset))
        raise LoadError(f"expected a value, found {token!r}", self._where(offset))

    def _value(self, kind: str, token: str, offset: int) -> Any:
        """Parse one value starting with the given token, iteratively for containers: an
        explicit stack of open containers, so deep nesting is an error and not a crash."""
        if not (kind == "punct" and token in "{["):
            return self._scalar(kind, token, offset)
        root = self._open(token, offset)
        stack: list[JObject | JArray] = [root]
        expect_value = True  # after '[' or ':' or ','
        first = True  # nothing read yet in the innermost container
        while stack:
            container = stack[-1]
            if expect_value and isinstance(container, JObject):
                due = self._plain_members(stack)
                if due is not None:
                    expect_value, first = due, stack[-1] is not container
                    if first:  # the last member opened a container: read into it
                        continue
            kind, token, offset = self._next()
            where = (self.line, offset - self.line_start + 1)  # _where(), inlined: every token
            if kind == "eof":
                raise _unclosed(container, where)
            if kind == "punct" and token in "}]":
                self._close(container, token, where, trailing_comma=expect_value and not first)
                stack.pop()
                expect_value = first = False
            elif not expect_value:
                self._comma(container, kind, token, where)
                expect_value = True
            else:
                child = self._member(container, kind, token, offset, where)
                expect_value = first = child is not None
                if child is not None:
                    stack.append(child)
                    self._check_depth(len(stack), child.pos)
        return root

    def _close(
        self, container: JObject | JArray, token: str, where: Position, trailing_comma: bool
    ) -> None:
        """Check a closing bracket matches its container; a comma before it is a note."""
        want = "}" if isinstance(container, JObject) else "]"
        if token != want:
            raise LoadError(f"expected '{want}' but found '{token}'", where)
        if trailing_comma:
            self.notes.append(
                SyntaxNote(
                    "trailing-comma",
                    "trailing comma before '" + token + "'; JSON and Kafka's parser "
                    "reject it: remove the comma",
                    self._last_comma,
                )
            )

    def _comma(self, container: JObject | JArray, kind: str, token: str, where: Position) -> None:
        """After a member only a comma (or the closing bracket) may follow."""
        if kind == "punct" and token == ",":
            self._last_comma = where
            return
        closer = "}" if isinstance(container, JObject) else "]"
        raise LoadError(f"expected ',' or '{closer}' but found {token!r} (missing comma?)", where)

    def _member(
        self, container: JObject | JArray, kind: str, token: str, offset: int, where: Position
    ) -> JObject | JArray | None:
        """Read one member into ``container``; the container it opens, if it opens one."""
        if kind == "punct" and token == ",":
            raise LoadError("unexpected ','; a value is missing", where)
        if isinstance(container, JObject):
            return self._object_member(container, kind, token, where)
        container.item_pos.append(where)
        value, child = self._item(kind, token, offset)
        container.append(value)
        return child

    def _object_member(
        self, container: JObject, kind: str, token: str, where: Position
    ) -> JObject | JArray | None:
        """Read ``"key": value`` with both positions; a repeated key is a note (last wins)."""
        if kind != "string":
            raise LoadError(f"expected a double-quoted key, found {token!r}", where)
        key = self._string_value(token, where)
        kind2, token2, offset2 = self._next()
        if not (kind2 == "punct" and token2 == ":"):
            raise LoadError(
                f"expected ':' after key {token}, found {token2 or 'end of file'!r}",
                self._where(offset2),
            )
        kind, token, offset = self._next()
        value_where = self._where(offset)
        if kind == "eof":
            raise LoadError(f"unexpected end of file after key {key!r}", value_where)
        if key in container:
            self._duplicate_key(container, key, where)
        container.key_pos[key] = where
        container.value_pos[key] = value_where
        value, child = self._item(kind, token, offset)
        container[key] = value
        return child

    def _plain_members(self, stack: list[JObject | JArray]) -> bool | None:
        """Read the run of plain members (:data:`_MEMBER`) that starts here in the object
        atop ``stack``, each as :meth:`_object_member` would; ``None`` when there is none,
        else whether a member is due next: after a comma, or in the container the last
        member opened (pushed on ``stack``)."""
        text, lines = self.text, self.lines
        pos = self.pos
        member = _MEMBER.match(text, pos)
        if member is None:
            return None
        container = stack[-1]
        assert isinstance(container, JObject)
        line, line_start = self.line, self.line_start
        key_pos, value_pos = container.key_pos, container.value_pos
        while member is not None:
            key, token, comma, opener = member.groups()
            key_at = member.start(1) - 1  # the key's opening quote
            count = lines.count("\n", pos, key_at)
            if count:  # only the whitespace before the key may end lines
                line += count
                line_start = lines.rfind("\n", pos, key_at) + 1
            where = (line, key_at - line_start + 1)
            if key in container:
                self._duplicate_key(container, key, where)
            key_pos[key] = where
            pos = member.end()
            if opener is not None:  # the value is a container, read next
                break
            value_pos[key] = (line, member.start(2) - line_start + 1)
            if token[0] == '"':
                container[key] = token[1:-1]
            else:
                container[key] = _LITERALS[token] if token in _LITERALS else int(token)
            member = _MEMBER.match(text, pos) if comma is not None else None
        self.pos, self.line, self.line_start = pos, line, line_start
        if opener is not None:
            child = container[key] = self._open(opener, pos - 1)  # the opener ends the match
            value_pos[key] = child.pos
            stack.append(child)
            self._check_depth(len(stack), child.pos)
            return True
        if comma is None:
            return False
        self._last_comma = (line, pos - line_start)  # the comma ends the match
        return True

    def _item(self, kind: str, token: str, offset: int) -> tuple[Any, JObject | JArray | None]:
        """A member's value: a scalar, or a new empty container (also returned second) that
        the caller pushes so its members are read next."""
        if kind == "punct" and token in "{[":
            child = self._open(token, offset)
            return child, child
        return self._scalar(kind, token, offset), None

    def _duplicate_key(self, container: JObject, key: str, where: Position) -> None:
        """A repeated key is a note at its second place (Jackson keeps the last value)."""
        first_line = container.key_pos[key][0]
        self.notes.append(
            SyntaxNote(
                "duplicate-key",
                f"duplicate key {key!r} (first at line {first_line}); Kafka keeps "
                "only the last one: remove one of them",
                where,
            )
        )

    _last_comma: Position = (1, 1)

    def _open(self, token: str, offset: int) -> JObject | JArray:
        where = self._where(offset)
        return JObject(where) if token == "{" else JArray(where)

    @staticmethod
    def _check_depth(depth: int, where: Position) -> None:
        if depth > MAX_DEPTH:
            raise LoadError(
                f"nesting deeper than {MAX_DEPTH} levels; a message spec never needs this", where
            )
