"""``kcompat matrix``: which client release can talk to which broker release, API by API,
and which client releases dropping HEAD's deprecated versions would strand.

Exit status: 0 shown, 2 bad usage (a range with no releases, an unknown API name, a
repository without release tags).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated

import typer

from kcompat.app import (
    Color,
    ColorOption,
    ConfigOption,
    RepoOption,
    app,
    format_option,
    option_group,
)
from kcompat.matrix.formats import MatrixFormat

ApisOption = Annotated[
    list[str] | None,
    typer.Option(
        "--apis",
        metavar="NAME,...",
        help="Only these APIs, of any role: names (any an API had, with or without "
        "Request) or API keys, comma-separated or repeated (default: the client APIs, "
        "those a broker listener serves).",
    ),
]


@dataclass(frozen=True)
class ApiOptions:
    """Which APIs a matrix judges and which versions a release offers (``matrix`` and the
    trunk-by-release job share them)."""

    apis: ApisOption = None
    controller: Annotated[
        bool,
        typer.Option(
            "--controller-apis", help="Also the controller-only APIs (listeners: controller)."
        ),
    ] = False
    inter_broker: Annotated[
        bool,
        typer.Option(
            "--inter-broker-apis",
            help="Also the inter-broker APIs (LeaderAndIsr, WriteTxnMarkers, the KRaft "
            "quorum's ...: Kafka's list, by API key).",
        ),
    ] = False
    unstable: Annotated[
        bool,
        typer.Option(
            "--unstable",
            help="Count unstable latest versions as offered (a broker with "
            "unstable.api.versions.enable).",
        ),
    ] = False

    def names(self) -> tuple[str, ...]:
        return tuple(n.strip() for item in self.apis or () for n in item.split(",") if n.strip())


@app.command(short_help="Which client release talks to which broker release, API by API.")
@option_group
def matrix(
    revision_range: Annotated[
        str | None,
        typer.Option(
            "--range",
            metavar="A..B",
            help="Only the releases from A to B (2.2.0..3.8.0, 3.0.., ..2.8); HEAD is in "
            "unless B names a release.",
        ),
    ] = None,
    what_if: Annotated[
        str | None,
        typer.Option(
            "--what-if",
            metavar="CHANGE",
            help="drop-deprecated: judge HEAD as if every deprecatedVersions range were "
            "removed, and say which client releases that strands, API by API.",
        ),
    ] = None,
    head: Annotated[
        str | None,
        typer.Option(
            "--head",
            metavar="REV",
            help="The HEAD to add after the releases: a revision, REV:path or a directory "
            "(default: the working tree, HEAD when it has no change).",
        ),
    ] = None,
    no_head: Annotated[bool, typer.Option("--no-head", help="Release tags only, no HEAD.")] = False,
    repo_dir: RepoOption = None,
    fmt: Annotated[MatrixFormat, format_option(MatrixFormat)] = MatrixFormat.text,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
    *,
    options: ApiOptions,
) -> None:
    """Every client release against every broker release (the release tags that hold
    specs, then HEAD), API by API: the versions they share, the one they negotiate (the
    highest), and the APIs a client is stranded on (it has them, and shares no version).

    Text prints, per broker release, the oldest client release that still talks every
    API, and per API where each side's range moved; JSON every cell; HTML a heat map.
    """
    from kcompat.errors import UsageError
    from kcompat.escaping import shown
    from kcompat.matrix.run import MatrixRequest, WhatIf, run_matrix
    from kcompat.terminal import write_output

    if what_if is not None and what_if not in WhatIf._value2member_map_:
        raise UsageError(f"--what-if {what_if!r}: the one change it knows is drop-deprecated")
    if head is not None and no_head:
        raise UsageError("--head names the HEAD to add, --no-head leaves it out: give one")
    result = run_matrix(
        MatrixRequest(
            repo=repo_dir,
            revision_range=revision_range,
            apis=options.names(),
            controller=options.controller,
            inter_broker=options.inter_broker,
            what_if=WhatIf(what_if) if what_if is not None else None,
            head=head,
            no_head=no_head,
            unstable=options.unstable,
            config_file=config_file,
        )
    )
    for note in result.notes:
        print(f"kcompat: note: {shown(note)}", file=sys.stderr)
    write_output(fmt.renderer()(result), color)
