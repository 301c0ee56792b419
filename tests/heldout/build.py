"""Rebuilds dev.jsonl and holdout.jsonl: materializes the data into a temporary folder, computes every answer.

    .venv/bin/python tests/heldout/build.py            # writes tests/heldout/{dev,holdout}.jsonl
    .venv/bin/python tests/heldout/build.py --data     # also leaves the CSVs in tests/heldout/data/
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from tests.heldout.answers import QUESTIONS, all_answers  # noqa: E402
from tests.heldout.materialize import materialize  # noqa: E402
from tests.heldout.registry import manifest_line, split_of  # noqa: E402

SPLITS = ("dev", "holdout")


def manifests(data_dir: Path) -> dict[str, list[dict]]:
    """The lines of each split's manifest, in registration order, answers computed from `data_dir`."""
    answers = all_answers(data_dir)
    split = split_of(QUESTIONS)
    lines: dict[str, list[dict]] = {name: [] for name in SPLITS}
    for qid, question in QUESTIONS.items():
        lines[split[qid]].append(manifest_line(question, answers[qid]))
    return lines


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
