"""Rebuilds tests/fresh/dev.jsonl and holdout.jsonl: materializes the data into a temporary folder with the
held-out set's `materialize.py`, computes every answer.

    .venv/bin/python tests/fresh/build.py            # writes tests/fresh/{dev,holdout}.jsonl
    .venv/bin/python tests/fresh/build.py --data     # also leaves the CSVs in tests/fresh/data/
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from tests.fresh.registry import manifests  # noqa: E402
from tests.heldout.build import write  # noqa: E402

if __name__ == "__main__":
    write(HERE, manifests, sys.argv[1:])
