"""The evidence corpus through the code gates and scripted judges: how many fabricated answers got through, how
many correct ones were marked down.

Two sets, both labelled by writers who had not read the checks (tests/evidence_corpus/README.md has the rules):
- the corpus (132 cases, `cases.py`): the checks were improved on it (every case was looked at), so its figures
  are a tuning set; its cases are also split by id into a two-thirds part and a one-third part (`build.holdout`);
- the hold-out batch (69 cases, `holdout.py`), written after the checks were settled and never looked at while
  improving them: its figures are the honest ones.

For each judge (`reviewer`: says what a careful reviewer shown the answer, the evidence and the line each figure
was found on concludes; `language`: the words alone; `agreeing`: yes to everything; `silent`: no verdict):
- fabricated through: cases whose answer or evidence claims what code did not produce (invented figures, small
  integers, derived figures, misquoted evidence, failed code) that end `completed` (target 0);
- correct marked down: cases a reviewer labels `completed` that do not end `completed` (target 0);
- status right: the status is the reviewer's.
Last line: `evidence_corpus: holdout_fabricated_through=N holdout_correct_marked_down=N tuning_...`.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import record_section  # noqa: E402
from tests.evidence_corpus.build import JUDGES, evaluate, fabricated, holdout  # noqa: E402
from tests.evidence_corpus.case import Case  # noqa: E402
from tests.evidence_corpus.cases import COINCIDENCES, all_cases  # noqa: E402
from tests.evidence_corpus.holdout import holdout_cases  # noqa: E402


def figures(cases: list[Case], judged: dict) -> dict[str, dict[str, int]]:
    out = {}
    for how, pairs in judged.items():
        through = sum(fabricated(c) and o.status.answered for c, o in pairs)
        down = sum(c.status == "completed" and o.status.value != "completed" for c, o in pairs)
        right = sum(o.status.value == c.status for c, o in pairs)
        out[how] = {"fabricated_through": through, "correct_marked_down": down, "status_right": right}
    return out


def table(name: str, cases: list[Case], result: dict[str, dict[str, int]]) -> list[str]:
    fabricated_n = sum(fabricated(c) for c in cases)
    correct_n = sum(c.status == "completed" for c in cases)
    lines = [f"**{name}**: {len(cases)} cases, {fabricated_n} fabricated, {correct_n} labelled `completed`.", "",
             "| judge | fabricated through | correct marked down | status right |", "|---|---|---|---|"]
    for how in JUDGES:
        r = result[how]
        lines.append(f"| {how} | {r['fabricated_through']} of {fabricated_n} | {r['correct_marked_down']} of "
                     f"{correct_n} | {r['status_right']} of {len(cases)} |")
    return lines + [""]


def main() -> None:
    corpus = all_cases()
    batch = holdout_cases()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        tuning = evaluate(corpus, root / "tuning")
        held = evaluate(batch, root / "batch")
    seconds = time.perf_counter() - started
    split = {part: [c for c in corpus if holdout(c) is (part == "third")] for part in ("two-thirds", "third")}
    lines = ["How many fabricated answers the code gates and the judge let through, and how many correct answers "
             "they marked down (targets: 0 and 0). `fabricated`: the answer or a criterion's evidence claims what "
             "executed code did not produce. Judges: `reviewer` concludes what a careful reviewer shown the "
             "answer, the evidence and the line each figure was found on does; `language` reads the words alone; "
             "`agreeing` says yes to everything; `silent` gives no verdict.", ""]
    lines += table("Hold-out batch (written after the checks were settled, never looked at while tuning)", batch,
                   figures(batch, held))
    lines += table("Tuning corpus (every case looked at while improving the checks)", corpus, figures(corpus, tuning))
    for part, cases in split.items():
        ids = {c.id for c in cases}
        part_judged = {how: [(c, o) for c, o in pairs if c.id in ids] for how, pairs in tuning.items()}
        lines += table(f"Tuning corpus, {part} by id", cases, figures(cases, part_judged))
    slipped = [(c.id, c.note) for c, o in held["agreeing"] if fabricated(c) and o.status.answered]
    if slipped:
        lines += ["With an agreeing judge, the hold-out batch's fabrications that the code gates alone let through: "
                  + "; ".join(f"`{case_id}` ({note})" for case_id, note in slipped)
                  + ". A bare number in a file has no unit: code cannot tell 0.3354 from 0.34 percent; a reader can.",
                  ""]
    coincidences = sorted(COINCIDENCES)
    lines += [f"With an agreeing judge, the tuning corpus's fabrications that get through are figures a megabyte dump "
              f"holds by coincidence ({', '.join(coincidences)}): code finds them, only a reader of the line they "
              "are on can tell they are one row's value, not the statistic claimed; the judge is shown that line.",
              "", f"{len(corpus) + len(batch)} cases judged four ways in {seconds:.1f} s."]
    batch_fig, tuning_fig = figures(batch, held)["reviewer"], figures(corpus, tuning)["reviewer"]
    result = (f"evidence_corpus: holdout_fabricated_through={batch_fig['fabricated_through']} "
              f"holdout_correct_marked_down={batch_fig['correct_marked_down']} "
              f"tuning_fabricated_through={tuning_fig['fabricated_through']} "
              f"tuning_correct_marked_down={tuning_fig['correct_marked_down']}")
    record_section("evidence_corpus", lines, result)
    print("\n".join(lines))
    print(result)


if __name__ == "__main__":
    main()
