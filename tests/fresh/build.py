"""Rebuilds tests/fresh/dev.jsonl and holdout.jsonl: materializes the data into a temporary folder with the
held-out set's `materialize.py`, computes every answer.

    .venv/bin/python tests/fresh/build.py            # writes tests/fresh/{dev,holdout}.jsonl
    .venv/bin/python tests/fresh/build.py --data     # also leaves the CSVs in tests/fresh/data/
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from tests.fresh.registry import manifests  # noqa: E402
from tests.heldout.materialize import materialize  # noqa: E402


def render(lines: list[dict]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def main(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        materialize(data_dir)
        for name, lines in manifests(data_dir).items():
            (HERE / f"{name}.jsonl").write_text(render(lines), encoding="utf-8")
            print(f"{name}.jsonl: {len(lines)} questions")
    if "--data" in argv:
        materialize(HERE / "data")


if __name__ == "__main__":
    main(sys.argv[1:])
