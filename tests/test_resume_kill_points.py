"""SIGKILL at 16 points of a real orchestrated run (the installed command, the offline model, the sandbox), then
`agentic-ds resume`: every resumed run ends as an uninterrupted one does, with nothing lost or repeated.

The points are the moments events.jsonl reaches 16 line counts spread over the run; the test checks they fall
during planning, inside a coder turn, between stages and during the summary. For each: the killed run lists as
interrupted; the resume exits 0 with the uninterrupted run's status; stages approved before the kill are not
run again (their files byte for byte as they were, no cell added); every stage of the plan is there once (in
run.json, in stages/, in report.md's stage table); every output of the uninterrupted run exists; run.json
records both attempts and as many events as events.jsonl holds, every line of which is JSON.
Two runs go at a time (the machine's two cores); the whole test takes about 80-120 s here.
"""

from __future__ import annotations

import json
import re
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from agentic_ds.report.listing import summarize_run
from agentic_ds.schema import RunStatus
from tests import warm_cli
from tests.resume_support import (
    TASK,
    approved_stage_dirs,
    environment,
    fingerprint,
    make_project,
    phase,
    resume,
    signal_at,
)

pytestmark = [pytest.mark.early, pytest.mark.slow, pytest.mark.sandbox]

POINTS = 16


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """The same run, never interrupted."""
    project = make_project(tmp_path_factory.mktemp("baseline"))
    done = warm_cli.run(("run", "--mode", "orchestrated", TASK, "--files", "data", "--quiet"), cwd=project,
                        env=environment(), timeout=180)
    assert done.returncode == 0, done.stderr
    (run_dir,) = (project / "workdirs").iterdir()
    return run_dir, done.returncode, json.loads((run_dir / "run.json").read_text())


def kill_and_resume(root: Path, lines: int) -> dict:
    project = make_project(root / f"at-{lines:03d}")
    stopped = signal_at(project, lines, signal.SIGKILL)
    run_dir = stopped.run_dir
    listed = summarize_run(run_dir).status
    kept = {stage.name: fingerprint(stage) for stage in approved_stage_dirs(run_dir)}
    figures_before = sorted(p.name for p in (run_dir / "figures").glob("*.png"))
    resumed = resume(run_dir, "--quiet")
    return {"lines": lines, "phase": phase(stopped.last), "killed": stopped.returncode, "listed": listed,
            "kept": kept, "figures_before": figures_before, "resumed": resumed, "run_dir": run_dir}


def test_sigkill_at_16_points_then_resume_loses_and_repeats_nothing(tmp_path, baseline):
    base_dir, base_code, base_record = baseline
    log = [json.loads(line) for line in (base_dir / "events.jsonl").read_text().splitlines()]
    summary = [n for n, record in enumerate(log, 1) if record["author"] == "summary_agent"]
    # Spread from the first records (planning) to the last before the summary, then three in the summary (whose
    # records the offline model writes within a few milliseconds).
    spread = POINTS - 3
    points = sorted({round(2 + i * (summary[0] - 3) / (spread - 1)) for i in range(spread)}
                    | {summary[0], summary[0] + 2, summary[0] + 4})
    assert len(points) == POINTS and points[-1] < len(log)
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(lambda n: kill_and_resume(tmp_path, n), points))

    phases = {o["phase"] for o in outcomes}
    landed = [(o["lines"], o["phase"]) for o in outcomes]
    assert {"planning", "coder turn", "between stages", "summary"} <= phases, landed
    for outcome in outcomes:
        check_resumed(outcome, base_dir, base_code, base_record)


def check_resumed(outcome: dict, base_dir: Path, base_code: int, base_record: dict) -> None:
    where = f"killed at line {outcome['lines']} ({outcome['phase']})"
    run_dir, resumed = outcome["run_dir"], outcome["resumed"]
    assert outcome["killed"] == -signal.SIGKILL, where
    assert outcome["listed"] is RunStatus.INTERRUPTED, where
    assert resumed.returncode == base_code, f"{where}: {resumed.stdout[-800:]} {resumed.stderr[-800:]}"
    record = json.loads((run_dir / "run.json").read_text())
    assert (record["status"], record["reason"]) == (base_record["status"], base_record["reason"]), where
    assert [(s["title"], s["status"]) for s in record["stages"]] == [
        (s["title"], s["status"]) for s in base_record["stages"]], where
    assert [a["status"] for a in record["attempts"]] == ["interrupted", base_record["status"]], where
    assert record["wall_s"] == pytest.approx(sum(a["wall_s"] for a in record["attempts"]), abs=0.01), where
    lines = (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()
    assert record["events"] == len(lines), where
    assert all(json.loads(line) for line in lines), where
    assert "resumed (attempt 2)" in "\n".join(lines), where

    # Approved before the kill: never run again, every file as it was, no cell added, no figure drawn again.
    for name, files in outcome["kept"].items():
        assert fingerprint(run_dir / "stages" / name) == files, f"{where}: stage {name} changed"
        number = name.split("-", 1)[0]
        assert sorted(p.name for p in (run_dir / "figures").glob(f"{number}-*.png")) == [
            f for f in outcome["figures_before"] if f.startswith(f"{number}-")], where
    # Every stage once: its folder, its run.json entry, its row in the report's stage table.
    base_stages = sorted(p.name for p in (base_dir / "stages").iterdir())
    assert sorted(p.name for p in (run_dir / "stages").iterdir()) == base_stages, where
    for stage_dir in (run_dir / "stages").iterdir():
        assert json.loads((stage_dir / "result.json").read_text())["status"] == "approved", where
        assert sorted(stage_dir.glob("cell_*.py")), where
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    table = report[report.index("### Stages"):report.index("### Success criteria")]
    for stage in base_record["stages"]:
        assert len(re.findall(rf"\| {re.escape(stage['title'])} \|", table)) == 1, f"{where}: {stage['title']}"
    assert f"`{base_record['status']}`" in report and (run_dir / "report.html").is_file(), where
    # Nothing lost: every output of the uninterrupted run is there.
    base_outputs = {p.name for p in (base_dir / "outputs").iterdir()}
    assert base_outputs <= {p.name for p in (run_dir / "outputs").iterdir()}, where
