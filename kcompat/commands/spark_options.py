"""Options the Spark commands (``history``, ``strands``, ``corpus build``, ``corpus
verify``) share, declared once."""

from __future__ import annotations

from typing import Annotated

import typer

MasterOption = Annotated[
    str | None, typer.Option("--master", metavar="URL", help="Spark master (default: local[*]).")
]
RemoteOption = Annotated[
    str | None,
    typer.Option(
        "--remote", metavar="URL", help="A Spark Connect server, sc://HOST:PORT (not --master)."
    ),
]
PartitionsOption = Annotated[
    int | None,
    typer.Option("--partitions", metavar="N", min=1, help="Spark partitions (default: 2x cores)."),
]
OutOption = Annotated[
    str | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help="Directory (or hdfs://, s3a:// URI) for findings and summary.json.",
    ),
]
TagsOption = Annotated[
    str | None,
    typer.Option(
        "--tags",
        metavar="REGEX",
        help="Regex of release tags (default: X.Y, X.Y.Z and vX.Y.Z; not -rc).",
    ),
]
