"""The matrix as JSON (schema: ``kcompat/data/matrix.schema.json``): every release, every
API with its ranges release by release, every cell (client x broker) with each API's
outcome, the summary the text shows and, with ``--what-if``, the removals. Real values
are kept, the characters a terminal acts on written as ``\\u`` escapes."""

from __future__ import annotations

import json
from typing import Any

from kcompat import __version__
from kcompat.escaping import json_safe
from kcompat.matrix.phrases import broker_moves, client_moves
from kcompat.matrix.run import MatrixResult
from kcompat.negotiation.negotiate import STRANDED, UNSERVED, Span
from kcompat.spec.versions import Versions

SCHEMA_VERSION = 1


def _versions(versions: Versions | None) -> str | None:
    return None if versions is None else str(versions)


def _spans(spans: tuple[Span, ...]) -> list[dict[str, Any]]:
    return [
        {"first": s.first, "last": s.last, "highest": s.highest, "count": s.count} for s in spans
    ]


def _apis(result: MatrixResult) -> list[dict[str, Any]]:
    """Every API with its ranges release by release, and where clients and brokers move."""
    matrix = result.matrix
    names = matrix.releases
    apis = []
    for j, api in enumerate(matrix.apis):
        moves = result.moves[j]
        apis.append(
            {
                "key": api.key,
                "name": api.name,
                "names": list(api.names),
                "role": api.role.value,
                "ranges": [
                    {
                        "release": names[r],
                        "offered": _versions(matrix.offered[r][j]),
                        "served": _versions(matrix.served[r][j]),
                        "deprecated": str(matrix.deprecated[r][j]),
                    }
                    for r in range(len(names))
                ],
                "moves": {
                    "clients": [{"release": r, "sends": t} for r, t in client_moves(moves)],
                    "brokers": [{"release": r, "accepts": t} for r, t in broker_moves(moves)],
                },
            }
        )
    return apis


def _cells(result: MatrixResult) -> list[dict[str, Any]]:
    """Every (client, broker) cell: each API's negotiated version, or why it has none."""
    matrix = result.matrix
    names = matrix.releases
    keys = [api.key for api in matrix.apis]
    cells = []
    for c, client in enumerate(names):
        for b, broker in enumerate(names):
            found = matrix.outcomes[c][b]
            cells.append(
                {
                    "client": client,
                    "broker": broker,
                    "negotiated": {str(k): v for k, v in zip(keys, found, strict=True) if v >= 0},
                    "stranded": [k for k, v in zip(keys, found, strict=True) if v == STRANDED],
                    "unserved": [k for k, v in zip(keys, found, strict=True) if v == UNSERVED],
                }
            )
    return cells


def matrix_dict(result: MatrixResult) -> dict[str, Any]:
    matrix = result.matrix
    names = matrix.releases
    apis, cells = _apis(result), _cells(result)
    return {
        "schema": "kcompat-matrix",
        "version": SCHEMA_VERSION,
        "tool": {"name": "kcompat", "version": __version__},
        "command": "matrix",
        "repository": result.repository,
        "what_if": result.what_if.value if result.what_if is not None else None,
        "unstable": result.unstable,
        "roles": [role.value for role in result.roles],
        "releases": [
            {"name": name, "head": matrix.head and i == len(names) - 1}
            for i, name in enumerate(names)
        ],
        "apis": apis,
        "cells": cells,
        "brokers": [
            {
                "broker": reach.broker,
                "oldest_client": reach.oldest,
                "stranded": [
                    {"client": client, "apis": [api.key for api in found]}
                    for client, found in reach.stranded
                ],
            }
            for reach in result.reaches
        ],
        "removals": [
            {
                "key": removal.api.key,
                "name": removal.api.name,
                "removed": str(removal.removed),
                "remaining": str(removal.remaining),
                "clients": _spans(removal.clients),
                "brokers": _spans(removal.brokers),
            }
            for removal in result.removals
        ],
        "notes": list(result.notes),
    }


def render_json(result: MatrixResult) -> str:
    return json_safe(json.dumps(matrix_dict(result), indent=1, ensure_ascii=False)) + "\n"
