"""The one memo helper (:class:`kcompat.spec.model.Memo`): a value derived from a frozen
message is worked out once per message object and kept on it, and nothing else in
kcompat writes into a frozen object."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from kcompat.spec.model import Memo, Message
from kcompat.spec.resolve import resolve
from kcompat.spec.specfile import read_spec
from tests.conftest import EXAMPLES, ROOT

#: Writes into another object's ``__dict__``, or past a frozen dataclass's ``__setattr__``
#: (a class may keep what it likes in its own instances' ``self.__dict__``).
WRITES = re.compile(
    r"__dict__\s*\[|(?<!self)\.__dict__\.(get|setdefault|update)\(|object\.__setattr__\("
)
#: Where such a write is not a memo: the codec builds ``uuid.UUID`` objects without
#: running ``__init__`` (sets the two slots ``UUID.__init__`` would).
NOT_MEMOS = {"kcompat/codec/runtime.py"}


def _message() -> Message:
    data = (EXAMPLES / "WidgetRequest.json").read_bytes()
    message = read_spec("WidgetRequest.json", data).message
    assert message is not None
    return message


def test_a_memo_is_worked_out_once_per_message() -> None:
    memo: Memo[list[str]] = Memo("test_once")
    message, twin = _message(), _message()
    assert message == twin and message is not twin
    calls: list[str] = []

    def compute() -> list[str]:
        calls.append("computed")
        return [message.name]

    assert not memo.known(message)
    first = memo(message, compute)
    assert memo(message, compute) is first and calls == ["computed"]
    assert memo.known(message) and not memo.known(twin)
    memo(twin, compute)
    assert calls == ["computed", "computed"]  # equal messages built apart keep their own
    memo.put(twin, ["put"])
    assert memo(twin, compute) == ["put"]
    assert replace(message, name="Other") == replace(message, name="Other")  # memos: no field


def test_two_memos_cannot_share_a_name() -> None:
    Memo("test_unique")
    with pytest.raises(ValueError, match="test_unique"):
        Memo("test_unique")


def test_layouts_are_memos_on_the_message() -> None:
    message = _message()
    assert resolve(message, 1) is resolve(message, 1)
    assert resolve(_message(), 1) is not resolve(message, 1)


def test_nothing_else_writes_into_a_frozen_object() -> None:
    """Every memo on a frozen model object goes through :class:`Memo` (one way, one place
    to look for what a message carries)."""
    found = []
    for path in sorted((ROOT / "kcompat").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in NOT_MEMOS or relative == "kcompat/spec/model.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if WRITES.search(line):
                found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []
