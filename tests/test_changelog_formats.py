"""``kcompat changelog``'s formats: text, Markdown, JSON and HTML, with names a spec can
hold that a terminal, a browser or GitHub would act on; the JSON schema; the pull
request section's character budget."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest

from kcompat.changelog.model import Change, ChangeKind, Changelog, MessageChanges
from kcompat.changelog.render_markdown import SECTION_TITLE, protocol_section
from kcompat.spec.versions import Versions
from tests.changelog_specs import changelog, field, spec
from tests.conftest import ROOT

HOSTILE = "Evil<script>x</script>@bob|![i](http://e.invalid/i.png)\x1b[31m`tick`\u202eRequest"
FIELD = "Bad|@dan\u2028<b>"
DEFAULT = "<img src=x>@alice [l](http://e.invalid)"
LISTENER = "@carol<i>"
#: what a terminal acts on; none may reach one raw
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _hostile(tmp_path: Path, fmt: str) -> str:
    base = spec(HOSTILE, fields=[field("A"), field("Gone")])
    head = spec(
        HOSTILE,
        valid="0-2",
        listeners=[LISTENER],
        fields=[
            field("A"),
            field(FIELD, "string", "2+", default=DEFAULT),
            field("Items", "[]Thing", "2+", fields=[field("Y")]),
        ],
    )
    done = changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head}, "--format", fmt)
    assert done.code == 0, done.stderr
    return done.stdout


def test_text_escapes_what_a_terminal_acts_on(tmp_path: Path) -> None:
    out = _hostile(tmp_path, "text")
    assert not UNSAFE.search(out)
    assert "\\x1b[31m" in out and "\\u202e" in out and "\\u2028" in out
    assert "  + version 2 adds Bad|@dan\\u2028<b> (string, default '<img src=x>@alice" in out
    assert "! break [field-removed]: field Gone (int32) was removed" in out


def _outside_code(markdown: str) -> str:
    """Markdown without its code spans and <code> elements (what GitHub renders)."""
    text = re.sub(r"<code>.*?</code>", "", markdown)
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", text)


def test_markdown_keeps_every_spec_name_in_code(tmp_path: Path) -> None:
    out = _hostile(tmp_path, "markdown")
    assert not UNSAFE.search(out)
    rendered = _outside_code(out)
    for hostile in ("<script", "<img", "<b>", "<i>", "@", "![", "e.invalid", "\\x1b"):
        assert hostile not in rendered, hostile
    assert "<code>Evil&lt;script&gt;x&lt;/script&gt;&#64;bob|" in out  # the section's title
    assert "- ➕ version 2 adds `Bad|@dan\\u2028<b>` (`string`, default `'<img src=x>" in out
    assert out.count("<details>") == out.count("</details>") == 1


def test_html_is_one_page_that_fetches_nothing(tmp_path: Path) -> None:
    out = _hostile(tmp_path, "html")
    assert not UNSAFE.search(out)
    assert "default-src 'none'" in out

    class Elements(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: set[str] = set()
            self.links: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.add(tag)
            self.links += [v or "" for k, v in attrs if k in ("href", "src")]

    page = Elements()
    page.feed(out)
    allowed = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "code"}
    assert page.tags <= allowed | {"section", "ul", "li", "a"}
    assert all(link.startswith("https://cwiki.apache.org/") for link in page.links)
    assert "Evil&lt;script&gt;x&lt;/script&gt;@bob" in out


def test_json_keeps_the_real_names_and_follows_its_schema(tmp_path: Path) -> None:
    out = _hostile(tmp_path, "json")
    assert not UNSAFE.search(out)
    document = json.loads(out)
    schema = json.loads((ROOT / "kcompat" / "data" / "changelog.schema.json").read_text())
    jsonschema.validate(document, schema)
    added = [c for c in document["changes"] if c["kind"] == "field-added"]
    assert [(c["message"], c["field"], c.get("default")) for c in added] == [
        (HOSTILE, FIELD, repr(DEFAULT)),
        (HOSTILE, "Items", None),
    ]
    listeners = next(c for c in document["changes"] if c["kind"] == "listeners-changed")
    assert listeners["after"] == LISTENER


def test_every_kind_is_in_the_schema_and_a_kafka_like_changelog_validates(
    tmp_path: Path,
) -> None:
    schema = json.loads((ROOT / "kcompat" / "data" / "changelog.schema.json").read_text())
    assert schema["$defs"]["change"]["properties"]["kind"]["enum"] == [k.value for k in ChangeKind]
    base = {"FooRequest": spec("FooRequest", valid="0-3", deprecatedVersions="0", fields=[])}
    head = {
        "FooRequest": spec("FooRequest", valid="1-4", comment="Version 4 (KIP-1).", fields=[]),
        "BarResponse": spec("BarResponse", kind="response", key=2, fields=[]),
    }
    document = json.loads(changelog(tmp_path, base, head, "--format", "json").stdout)
    jsonschema.validate(document, schema)
    assert {c["kind"] for c in document["changes"]} == {
        "message-added",
        "versions-added",
        "versions-removed",
    }
    assert document["summary"]["text"] == "1 message added, 1 re-versioned, 0 breaks"


# -- the pull request's section --------------------------------------------------------------
def _many(count: int, breaking: int) -> Changelog:
    groups = []
    for index in range(count):
        name = f"Message{index:03d}Request"
        changes = [
            Change(name, ChangeKind.VERSIONS_ADDED, Versions.of(5, 5), after="0-5"),
            Change(name, ChangeKind.FIELD_ADDED, Versions.of(5, 5), field="F" * 200, type="int32"),
        ]
        if index >= count - breaking:
            changes.append(
                Change(name, ChangeKind.BREAK, rule="field-removed", severity="error", note="x")
            )
        groups.append(MessageChanges(name, "request", index, tuple(changes)))
    return Changelog("main", "pr", tuple(groups), "kcompat diff main pr")


@pytest.mark.parametrize("budget", [2_000, 10_000, 65_000])
def test_the_section_fits_its_budget_breaks_first(budget: int) -> None:
    log = _many(200, 3)
    section = protocol_section(log, budget, rest="the job summary has them all")
    assert len(section) <= budget
    assert section.startswith(f"<details><summary><strong>{SECTION_TITLE}</strong>: ")
    assert "200 messages re-versioned, 3 breaks" in section.splitlines()[0]
    assert section.endswith("</details>")
    kept = re.findall(r"<code>(Message\d+Request)</code>", section)
    assert kept[-3:] == ["Message197Request", "Message198Request", "Message199Request"]
    assert kept == sorted(kept)  # in the changelog's order, whatever went first
    left = 200 - len(kept)
    assert f"_{left} more messages changed, left out to fit GitHub's comment limit: " in section
    assert "the job summary has them all" in section


def test_the_whole_section_when_it_fits() -> None:
    log = _many(3, 1)
    section = protocol_section(log, 65_000)
    assert section.count("<details>") == 4  # the section and one per message
    assert "more message" not in section


def test_a_message_too_long_for_the_section_shows_what_fits() -> None:
    name = "HugeRequest"
    changes = tuple(
        Change(name, ChangeKind.FIELD_ADDED, Versions.of(1, 1), field=f"F{i}", type="int32")
        for i in range(3000)
    )
    log = Changelog("a", "b", (MessageChanges(name, "request", 1, changes),))
    section = protocol_section(log, 5_000)
    assert len(section) <= 5_000
    shown = section.count("- ➕ version 1 adds `F")
    assert 50 < shown < 3000
    assert f"- _… and {3000 - shown} more changes_" in section
    assert "more message" not in section
