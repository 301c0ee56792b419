"""Rebuilds tests/probe4/dev.jsonl and holdout.jsonl: materializes the data into a temporary folder with the
held-out set's `materialize.py`, computes every answer.

    .venv/bin/python tests/probe4/build.py            # writes tests/probe4/{dev,holdout}.jsonl
    .venv/bin/python tests/probe4/build.py --data     # also leaves the CSVs in tests/probe4/data/
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from tests.heldout.build import write  # noqa: E402
from tests.probe4.registry import manifests  # noqa: E402

if __name__ == "__main__":
    write(HERE, manifests, sys.argv[1:])
