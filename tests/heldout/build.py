"""Rebuilds dev.jsonl and holdout.jsonl: materializes the data into a temporary folder, computes every answer.

    .venv/bin/python tests/heldout/build.py            # writes tests/heldout/{dev,holdout}.jsonl
    .venv/bin/python tests/heldout/build.py --data     # also leaves the CSVs in tests/heldout/data/
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from tests.heldout.answers import QUESTIONS, all_answers  # noqa: E402
from tests.heldout.materialize import materialize  # noqa: E402
from tests.heldout.registry import KINDS, split_manifests  # noqa: E402


def manifests(data_dir: Path) -> dict[str, list[dict]]:
    """The lines of each split's manifest, in registration order, answers computed from `data_dir`."""
    return split_manifests(QUESTIONS, all_answers(data_dir), KINDS)


def render(lines: list[dict]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def write(folder: Path, manifests: Callable[[Path], dict[str, list[dict]]], argv: list[str]) -> None:
    """Writes `folder`/{dev,holdout}.jsonl from freshly materialized data (with --data, the CSVs too)."""
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        materialize(data_dir)
        for name, lines in manifests(data_dir).items():
            (folder / f"{name}.jsonl").write_text(render(lines), encoding="utf-8")
            print(f"{name}.jsonl: {len(lines)} questions")
    if "--data" in argv:
        materialize(folder / "data")


if __name__ == "__main__":
    write(HERE, manifests, sys.argv[1:])
