"""Rebuilds a blind set's dev.jsonl and holdout.jsonl (the fresh set's, or the probe set named): materializes the
data into a temporary folder with the held-out set's `materialize.py`, computes every answer.

    .venv/bin/python tests/fresh/build.py                  # writes tests/fresh/{dev,holdout}.jsonl
    .venv/bin/python tests/fresh/build.py probe4           # writes tests/probe4/{dev,holdout}.jsonl
    .venv/bin/python tests/fresh/build.py probe4 --data    # also leaves the CSVs in tests/probe4/data/
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from tests.heldout.build import write  # noqa: E402

if __name__ == "__main__":
    name = next((a for a in sys.argv[1:] if not a.startswith("--")), HERE.name)
    write(HERE.parent / name, importlib.import_module(f"tests.{name}.registry").manifests, sys.argv[1:])
