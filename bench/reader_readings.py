"""What the offline reader makes of every blind-set question, and what a change to it changes.

    .venv/bin/python bench/reader_readings.py write OUT.jsonl [--splits dev]   # the readings of this checkout
    .venv/bin/python bench/reader_readings.py compare BEFORE.jsonl AFTER.jsonl [--split dev]

`write` reads each question of the blind sets (tests/heldout, tests/fresh, tests/probe*; 1,163 questions) against
the profile of its files, with this checkout's reader, planner and coder, and writes one line per question: the
reading's kind, its spec's parameters, its doubts, its asks, the stages of its plans capped at 3 and at 7 stages,
and a hash of each code attempt the coder would run. The tables are materialized first if a set's data/ is missing
(tests/heldout/materialize.py; no network). About 15 s, no model and no sandbox.

`compare` counts how the readings changed. A reading is *confident* when its spec is answerable and has no doubt:
the offline model then answers it (a run ends `completed` once the evidence checks pass). Its last line is:

    readings: n=N confident_lost=L confident_new=G confident_changed=C other_changed=O

A confident reading that appears (`confident_new`) is how wrong `completed` answers start; a lost one is an answer
the offline model no longer gives. With `--split dev` only the dev halves are compared and named, so a change can be
judged without looking at the hold-outs (whose questions must stay unread: only their counts may be printed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentic_ds.evaluation.manifest import EvalTask

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETS = ("heldout", "fresh", "probe", "probe2", "probe3", "probe4", "probe5", "probe6", "probe7")
SPLITS = ("dev", "holdout")


def questions(splits: tuple[str, ...]) -> Iterator[tuple[str, str, EvalTask, tuple[Path, ...]]]:
    """(set, split, question, its input files) of every question, each set's tables materialized first if missing."""
    from agentic_ds.evaluation.manifest import load_manifest
    from tests.heldout.materialize import materialize

    for name in SETS:
        folder = ROOT / "tests" / name
        if not (folder / "data").is_dir():
            materialize(folder / "data")
        for split in splits:
            manifest = load_manifest(folder / f"{split}.jsonl")
            for task in manifest.tasks:
                yield name, split, task, tuple(manifest.input_paths(task))


def write(out: Path, splits: tuple[str, ...]) -> int:
    from agentic_ds.offline.planner.plan import plan_for
    from agentic_ds.offline.reader import read_question
    from agentic_ds.offline.roles.coder import task_steps
    from agentic_ds.profiling.inputs import profile_inputs
    from agentic_ds.profiling.model import DataProfile
    from agentic_ds.skills import SkillLibrary
    from agentic_ds.skills.library import default_skills_dir

    library = SkillLibrary.load(default_skills_dir())
    profiles: dict[tuple[Path, ...], DataProfile] = {}
    count = 0
    with open(out, "w", encoding="utf-8") as handle:
        for name, split, question, files in questions(splits):
            profile = profiles.get(files)
            if profile is None:
                profile = profiles[files] = profile_inputs(list(files), base=ROOT / "tests" / name)
            reading = read_question(question.task, profile)
            spec = reading.spec
            row: dict[str, Any] = {
                "set": name, "split": split, "id": question.id, "kind": reading.kind,
                "answerable": spec.answerable, "doubts": list(spec.doubts), "goals": list(reading.goals),
                "params": json.dumps(spec.params(), default=str, sort_keys=True) if spec.answerable else "",
                "asks": [[a.text, a.slot, a.name] for a in reading.asks],
            }
            for stages in (3, 7):
                try:
                    plan = plan_for(question.task, profile, library, stages)
                    row[f"plan{stages}"] = [[s.title, s.method.skill, s.method.template, s.criteria,
                                             json.dumps(s.method.params, default=str, sort_keys=True)]
                                            for s in plan.steps]
                except ValueError as exc:
                    row[f"plan{stages}"] = str(exc)
            try:
                row["code"] = [[hashlib.sha256(a.code.encode()).hexdigest()[:12] for a in step.attempts]
                               for step in task_steps(question.task, profile, library)]
            except ValueError as exc:
                row["code"] = str(exc)
            handle.write(json.dumps(row, sort_keys=True, default=str) + "\n")
            count += 1
    return count


def _confident(row: dict[str, Any]) -> bool:
    return bool(row["answerable"]) and not row["doubts"]


def compare(before: Path, after: Path, split: str | None) -> tuple[int, dict[str, list[str]]]:
    """The number of questions compared, and their ids (set/id) by how their reading changed; only `split`'s
    questions when given."""
    def load(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
        with open(path, encoding="utf-8") as handle:
            rows = (json.loads(line) for line in handle)
            return {(r["set"], r["id"]): r for r in rows if split is None or r["split"] == split}

    old, new = load(before), load(after)
    changes: dict[str, list[str]] = {"confident_lost": [], "confident_new": [], "confident_changed": [],
                                     "other_changed": []}
    for key, was in old.items():
        now = new.get(key)
        if now is None or now == was:
            continue
        if _confident(was) != _confident(now):
            kind = "confident_lost" if _confident(was) else "confident_new"
        else:
            kind = "confident_changed" if _confident(was) else "other_changed"
        changes[kind].append("/".join(key))
    return len(old), changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    writing = commands.add_parser("write")
    writing.add_argument("out", type=Path)
    writing.add_argument("--splits", nargs="+", choices=SPLITS, default=list(SPLITS))
    comparing = commands.add_parser("compare")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    comparing.add_argument("--split", choices=SPLITS)
    args = parser.parse_args()
    if args.command == "write":
        print(f"readings: wrote {write(args.out, tuple(args.splits))} to {args.out}")
        return
    compared, changes = compare(args.before, args.after, args.split)
    if args.split == "dev":          # only the dev halves may be named
        for kind in ("confident_lost", "confident_new", "confident_changed"):
            for key in changes[kind]:
                print(f"{kind}: {key}")
    counts = " ".join(f"{kind}={len(keys)}" for kind, keys in changes.items())
    print(f"readings: n={compared} {counts}")


if __name__ == "__main__":
    main()
