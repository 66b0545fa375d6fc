"""A generated repository with many release tags, laid out as a vendored Kafka copy is.

A product that vendors Kafka's message specs ships from release branches: trunk (``main``)
is cut into ``X.Y`` branches, each tagged ``vX.Y.0``, ``vX.Y.1``, ... with a few fixes in
between, and never merged back. Its specs sit among many other files (the bulk of the
object store), are named in snake_case, and some ``.json`` files beside them are API-doc
templates that do not even parse. Its first releases predate the specs (tags without a
spec file, as apache/kafka's 0.8.0-2.1.1).

    from synthetic_releases import build
    repo = build(Path("/tmp/r"), tags=1000)   # about 1,000 tags, a few hundred thousand objects

Written with one ``git fast-import`` (seconds, not minutes). Deterministic: the same
arguments give the same commits.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

SPECS = "broker/src/main/resources/protocol"
TEMPLATES = "docs/api/templates"
BULK_DIRS = ("core", "server", "clients", "storage", "tools")
KINDS = ("int32", "int64", "string", "int16", "bool", "uuid")
WHEN = 1_600_000_000  # the first commit's time; each next one a minute later


@dataclass
class _Api:
    """One request/response pair of the generated protocol, as trunk has it now."""

    key: int
    name: str
    highest: int = 0
    fields: list[tuple[str, str, int]] = field(default_factory=list)  # (name, type, since)

    def file(self, kind: str) -> str:
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in self.name).lstrip("_")
        return f"{SPECS}/{snake}_{kind}.json"

    def text(self, kind: str) -> str:
        fields = [
            {"name": "ErrorCode", "type": "int16", "versions": "0+", "about": "x"}
            if kind == "response"
            else {"name": "Id", "type": "int32", "versions": "0+", "about": "x"}
        ]
        fields += [
            {
                "name": f"{name}{kind.title()}",
                "type": kind_of,
                "versions": f"{since}+",
                "about": "x",
            }
            for name, kind_of, since in self.fields
        ]
        document = {
            "apiKey": self.key,
            "type": kind,
            "name": f"{self.name}{kind.title()}",
            "validVersions": f"0-{self.highest}",
            "flexibleVersions": "2+",
            "fields": fields,
        }
        return json.dumps(document, indent=2) + "\n"


@dataclass(frozen=True)
class Built:
    """What :func:`build` made: the repository, its release tags (oldest first) and the
    tags that hold no spec (cut before the specs came)."""

    path: Path
    tags: tuple[str, ...]
    without_specs: tuple[str, ...]
    spec_paths: tuple[str, ...]


def build(
    path: Path,
    *,
    tags: int = 1000,
    patches: int = 9,
    trunk_per_release: int = 200,
    spec_changes: int = 4,
    bulk_files: int = 4000,
    bulk_per_commit: int = 3,
    apis: int = 60,
    early: int = 20,
    seed: int = 31,
) -> Built:
    """A repository at ``path`` with about ``tags`` release tags: ``early`` of them (v0.x)
    before any spec, then ``X.Y`` branches of ``patches + 1`` tags each (``vX.Y.0`` to
    ``vX.Y.patches``), ``trunk_per_release`` trunk commits apart, each commit changing
    ``bulk_per_commit`` of ``bulk_files`` other files, and ``spec_changes`` of them per
    release a new version of some API (its request and its response)."""
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    made = _Stream(random.Random(seed), bulk_files, bulk_per_commit)
    protocol = [_Api(key, f"Widget{key}Op") for key in range(apis)]
    minors = max(1, (tags - early) // (patches + 1))
    rate = spec_changes / max(1, trunk_per_release)
    stream = made.commands(protocol, early, minors, patches, trunk_per_release, rate)
    done = subprocess.run(
        ["git", "fast-import", "--quiet", "--done"],
        cwd=path,
        input=b"".join(stream),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode("utf-8", "replace"))
    subprocess.run(["git", "checkout", "-q", "main"], cwd=path, check=True)
    spec_paths = tuple(
        sorted(p for api in protocol for p in (api.file("request"), api.file("response")))
    )
    return Built(path, tuple(made.tags), tuple(made.tags[:early]), spec_paths)


class _Stream:
    """The fast-import commands, built commit by commit."""

    def __init__(self, rng: random.Random, bulk_files: int, per_commit: int) -> None:
        self.rng = rng
        self.bulk = [
            f"{BULK_DIRS[i % len(BULK_DIRS)]}/src/main/java/org/example/p{i % 37}/q{i % 11}"
            f"/F{i}.java"
            for i in range(bulk_files)
        ]
        self.per_commit = per_commit
        self.mark = 0
        self.time = WHEN
        self.tags: list[str] = []

    def commands(
        self,
        protocol: list[_Api],
        early: int,
        minors: int,
        patches: int,
        per_release: int,
        rate: float,
    ) -> Iterator[bytes]:
        trunk = yield from self._commit("main", None, self._bulk_files(len(self.bulk)), "start")
        for index in range(early):  # releases before any spec
            trunk = yield from self._commit("main", trunk, self._some_bulk(), "work")
            yield from self._tag(f"v0.{index}.0", trunk)
        templates = {
            f"{TEMPLATES}/{name}.json": '{ "title": "{{title}}", "rows": [ {{#rows}} ] }\n'
            for name in ("index", "api", "errors")
        }
        files = {api.file(k): api.text(k) for api in protocol for k in ("request", "response")}
        trunk = yield from self._commit("main", trunk, {**files, **templates}, "vendor specs")
        for minor in range(minors):
            for _ in range(per_release):
                changes = self._some_bulk()
                if self.rng.random() < rate:  # a new version of some API on trunk
                    api = self.rng.choice(protocol)
                    api.highest += 1
                    api.fields.append((f"F{api.highest}", self.rng.choice(KINDS), api.highest))
                    changes.update({api.file(k): api.text(k) for k in ("request", "response")})
                trunk = yield from self._commit("main", trunk, changes, "trunk work")
            major, number = divmod(minor, 10)
            branch = f"{major + 1}.{number}"
            tip = trunk
            for patch in range(patches + 1):
                tip = yield from self._commit(branch, tip, self._some_bulk(), "release fix")
                yield from self._tag(f"v{major + 1}.{number}.{patch}", tip)
        yield b"done\n"

    def _commit(
        self, ref: str, parent: int | None, changes: dict[str, str], subject: str
    ) -> Generator[bytes, None, int]:
        self.mark += 1
        self.time += 60
        message = subject.encode()
        yield (
            (
                f"commit refs/heads/{ref}\nmark :{self.mark}\n"
                f"committer Release Bot <bot@example.invalid> {self.time} +0000\n"
                f"data {len(message)}\n"
            ).encode()
            + message
            + b"\n"
        )
        if parent is not None:
            yield f"from :{parent}\n".encode()
        for name, text in changes.items():
            data = text.encode()
            yield f"M 100644 inline {name}\ndata {len(data)}\n".encode() + data + b"\n"
        yield b"\n"
        return self.mark

    def _tag(self, name: str, commit: int) -> Iterator[bytes]:
        self.tags.append(name)
        yield f"reset refs/tags/{name}\nfrom :{commit}\n\n".encode()

    def _bulk_files(self, count: int) -> dict[str, str]:
        return {name: self._source(name) for name in self.bulk[:count]}

    def _some_bulk(self) -> dict[str, str]:
        return {name: self._source(name) for name in self.rng.sample(self.bulk, self.per_commit)}

    def _source(self, name: str) -> str:
        return f"// {name}\nclass C {{ int v = {self.rng.getrandbits(48)}; }}\n"
