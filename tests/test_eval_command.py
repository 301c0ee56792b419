"""`agentic-ds eval MANIFEST.jsonl`: a manifest checked line by line, every task run in its own run directory with
the offline model, graded against its structured final answer, and summarized."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

from agentic_ds.errors import UsageError
from agentic_ds.evaluation.grading import grade
from agentic_ds.evaluation.manifest import load_manifest
from tests import warm_cli

LINE = {
    "id": "q1", "task": "What is the mean price?", "files": ["data.csv"], "answer": {"mean": 1}, "checker": "numeric"
}


def write_manifest(folder: Path, lines: list) -> Path:
    (folder / "data.csv").write_text("price\n1\n")
    path = folder / "manifest.jsonl"
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


def cli(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """`agentic-ds ARGS` as a process of its own, forked from the worker's zygote (tests/warm_cli.py)."""
    return warm_cli.run(args, cwd=cwd, timeout=timeout)


# -- the manifest --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("bad", "problem"), [
    ('{"id": "q2", "task": ', "not valid JSON"),
    ("[1, 2]", "expected a JSON object, got list"),
    ("[" * 100_000, "brackets nested too deeply"),
    ({**LINE, "id": "q2", "checker": "fuzzy"}, "checker"),
    ({k: v for k, v in {**LINE, "id": "q2"}.items() if k != "task"}, "task: Field required"),
    ({**LINE, "id": "q2", "files": ["nope.csv"]}, "file 'nope.csv' not found"),
    ({**LINE, "id": "q2", "answer": None}, 'checker "numeric" needs an "answer"'),
    ({**LINE, "id": "q2", "extra": 1}, "extra: Extra inputs are not permitted"),
    ({**LINE, "id": "q 2"}, "id: Value error"),
    (LINE, "id 'q1' is already used on line 1"),
])
def test_a_bad_line_is_named_with_its_number(tmp_path, bad, problem):
    path = write_manifest(tmp_path, [LINE, "", bad])
    with pytest.raises(UsageError) as caught:
        load_manifest(path)
    assert "line 3: " in caught.value.message and problem in caught.value.message
    assert caught.value.exit_code == 2


def test_a_bad_manifest_is_exit_2_before_anything_is_created(tmp_path):
    path = write_manifest(tmp_path, [LINE, '{"id": oops}'])
    result = cli("eval", str(path), "--model", "offline", "--workdir", str(tmp_path / "wd"), cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"error: {path}: line 2: not valid JSON" in result.stderr and "hint:" in result.stderr
    assert not (tmp_path / "wd").exists()


def test_an_empty_or_missing_manifest_is_a_usage_error(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n\n")
    for name in ("empty.jsonl", "missing.jsonl"):
        with pytest.raises(UsageError):
            load_manifest(tmp_path / name)


# -- grading ---------------------------------------------------------------------------------------------
def final(answer: str, *asks: str) -> dict:
    return {"answer": answer, "asks": [{"answer": a} for a in asks]}


@pytest.mark.parametrize(("task", "checker", "expected", "answer", "correct"), [
    ("mean? @mean[value]", "numeric", {"mean": 71374.39}, final("The mean is high. @mean[71374.39]"), True),
    ("mean? @mean[value]", "numeric", {"mean": 71374.39}, final("@mean[71,374.4]"), True),
    ("mean? @mean[value]", "numeric", {"mean": 71374.39}, final("The mean is 71374.39."), False),   # format ignored
    ("mean? @mean[value]", "numeric", {"mean": 71374.39}, final("@mean[70000]"), False),
    ("r?", "numeric", {"r": 0.596}, final("Pearson r = 0.5962 (n = 240)"), True),
    ("avg per dept?", "numeric", {"Sales": 67758.5, "Support": 63764.37},
     final("Sales: 67,758.50; Support: 63,764.37"), True),
    ("avg per dept?", "numeric", {"Sales": 67758.5, "Support": 63764.37},
     final("Sales: 67,758.50; Support: 60,000"), False),
    ("which? @dept[name]", "exact", {"dept": "Engineering"}, final("@dept[engineering]"), True),
    ("which? @dept[name]", "exact", {"dept": "Engineering"}, final("@dept[Engineering and Sales]"), False),
    ("which?", "exact", {"dept": "Engineering"}, final("It is Engineering."), True),
    ("which?", "exact", {"dept": "Eng"}, final("It is Engineering."), False),
    ("list", "contains", {"a": "north", "b": "south"}, final("North leads", "then South"), True),
    ("list", "contains", {"a": "north", "b": "south"}, final("North leads"), False),
    ("mean? @mean[value]", "numeric", {"mean": 1.0}, final("x", "@mean[1.0]"), True),   # from an ask's answer
    # a verdict is its word, whole, and not hedged with its opposite
    ("equal? @same[yes/no]", "numeric", {"same": "no"}, final("@same[no]"), True),
    ("equal? @same[yes/no]", "numeric", {"same": "no"}, final("@same[No, rejected at 5%]"), True),
    ("equal? @same[yes/no]", "numeric", {"same": "no"}, final("@same[not rejected]"), False),
    ("equal? @same[yes/no]", "numeric", {"same": "yes"}, final("@same[yes or no]"), False),
    ("which? @island[name]", "numeric", {"island": "Dream"}, final("@island[Dreamland]"), False),
])
def test_grading_reads_the_structured_final_answer(task, checker, expected, answer, correct):
    assert grade(task, checker, expected, answer).correct is correct


def test_no_answer_is_wrong_and_open_questions_are_not_graded():
    assert grade("t", "numeric", {"x": 1}, None).correct is False
    assert grade("t", "none", None, final("anything")).correct is None


# -- whole evals with the offline model ------------------------------------------------------------------
def staff(folder: Path) -> pd.DataFrame:
    frame = pd.DataFrame({
        "department": ["Sales", "Support", "Engineering", "Sales", "Engineering", "Support"] * 20,
        "salary": [50000 + 1500 * i for i in range(120)],
        "age": [22 + (i * 7) % 40 for i in range(120)],
    })
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_csv(folder / "staff.csv", index=False)
    return frame


@pytest.mark.slow
def test_an_offline_eval_runs_grades_and_summarizes_every_task(tmp_path):
    frame = staff(tmp_path / "data")
    lines = [
        {"id": "mean-salary",
         "task": "What is the mean salary? Answer as @mean_salary[value], rounded to two decimals.",
         "files": ["data/staff.csv"], "answer": {"mean_salary": round(frame["salary"].mean(), 2)},
         "checker": "numeric"},
        {"id": "max-age", "task": "- What is the maximum age? @max_age[value]", "files": ["data"],
         "answer": {"max_age": int(frame["age"].max())}, "checker": "numeric"},
        {"id": "wrong-on-purpose", "task": "What is the minimum age? @min_age[value]", "files": ["data/staff.csv"],
         "answer": {"min_age": 99}, "checker": "numeric"},
        {"id": "drivers", "task": "What drives salary?", "files": ["data/staff.csv"], "answer": None,
         "checker": "none"},
    ]
    path = tmp_path / "manifest.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = cli("eval", str(path), "--model", "offline", "--parallel", "2", "--workdir", str(tmp_path / "wd"),
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout.strip().splitlines()
    assert out[-1].startswith("eval: n=4 correct=2 accuracy=0.667 errors=0 median_wall_s=")
    assert len([line for line in out if line.startswith("[")]) == 4          # one progress line per task (no TTY)
    (eval_dir,) = (tmp_path / "wd").glob("eval-*")
    results = [json.loads(line) for line in (eval_dir / "results.jsonl").read_text().splitlines()]
    assert [r["id"] for r in results] == [line["id"] for line in lines]
    by_id = {r["id"]: r for r in results}
    assert by_id["mean-salary"]["correct"] is True and by_id["max-age"]["correct"] is True
    assert by_id["wrong-on-purpose"]["correct"] is False and by_id["drivers"]["correct"] is None
    for r in results:
        run = eval_dir / r["run_dir"]
        assert (run / "run.json").is_file() and json.loads((run / "run.json").read_text())["status"] == r["status"]
        assert r["llm_calls"] > 0 and r["input_tokens"] > 0 and r["cost_usd"] == 0.0
    summary = (eval_dir / "summary.md").read_text()
    assert "| numeric | 3 | 3 | 2 | 0.67 |" in summary and "## Status of the runs" in summary
    assert "`wrong-on-purpose`" in summary and json.loads((eval_dir / "summary.json").read_text())["correct"] == 2


@pytest.mark.slow
def test_a_task_past_its_timeout_is_an_error_and_the_exit_code_says_so(tmp_path):
    staff(tmp_path / "data")
    line = {"id": "slow", "task": "What drives salary?", "files": ["data"], "answer": {"x": 1}, "checker": "numeric"}
    path = tmp_path / "manifest.jsonl"
    path.write_text(json.dumps(line) + "\n")
    result = cli("eval", str(path), "--model", "offline", "--timeout", "1", "--workdir", str(tmp_path / "wd"),
                 cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.strip().splitlines()[-1].startswith("eval: n=1 correct=0 accuracy=0.000 errors=1 ")
    (eval_dir,) = (tmp_path / "wd").glob("eval-*")
    (record,) = [json.loads(line) for line in (eval_dir / "results.jsonl").read_text().splitlines()]
    assert record["error"] == "timed out after 1 s" and record["correct"] is False


# -- the bundled eval set, through the command ---------------------------------------------------------------
BUNDLED = Path(__file__).resolve().parents[1] / "examples" / "eval"
SUMMARY_LINE = r"eval: n=(\d+) correct=(\d+) accuracy=(\d\.\d{3}) errors=(\d+) median_wall_s=\d+\.\d"


def bundled_manifest(folder: Path, ids: list[str]) -> tuple[Path, list[dict]]:
    """Some lines of examples/eval/manifest.jsonl, their files given by absolute path (the manifest lives elsewhere)."""
    lines = [json.loads(line) for line in (BUNDLED / "manifest.jsonl").read_text().splitlines()]
    chosen = [{**line, "files": [str(BUNDLED / f) for f in line["files"]]} for line in lines if line["id"] in ids]
    assert [line["id"] for line in chosen] == ids
    path = folder / "manifest.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in chosen))
    return path, chosen


THREE = ["emp-mean-std-salary", "emp-argmax-median", "shop-join-argmax"]


@dataclass
class Finished:
    folder: Path           # where the eval ran: its workdir is folder / "wd"
    chosen: list[dict]
    returncode: int
    stdout: str
    stderr: str


def on_a_terminal(args: list[str], cwd: Path) -> tuple[int, str]:
    """The command run on a real pseudo-terminal: its exit code and the screen's text (escape codes removed)."""
    import os
    import pty
    import re

    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "agentic_ds", *args], cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=follower, stderr=follower)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:              # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk.decode("utf-8", errors="replace"))
    code = process.wait(timeout=300)
    os.close(leader)
    return code, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(chunks))


@pytest.fixture(scope="module")
def simple_on_a_terminal(tmp_path_factory) -> Finished:
    """The bundled tasks in simple mode, on a pseudo-terminal: one eval both for the simple mode's results and for
    the live progress the terminal shows (each would otherwise run the same tasks again)."""
    folder = tmp_path_factory.mktemp("simple-terminal")
    path, chosen = bundled_manifest(folder, THREE)
    code, screen = on_a_terminal(["eval", str(path), "--model", "offline", "--mode", "simple", "--parallel", "2",
                                  "--workdir", str(folder / "wd")], cwd=folder)
    return Finished(folder, chosen, code, screen, screen)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["simple", "orchestrated"])
def test_bundled_tasks_run_graded_in_the_mode_asked_each_in_its_own_run(tmp_path, mode, request):
    import re

    if mode == "simple":
        done = request.getfixturevalue("simple_on_a_terminal")
    else:
        path, chosen = bundled_manifest(tmp_path, THREE)
        result = cli("eval", str(path), "--model", "offline", "--mode", mode, "--parallel", "2",
                     "--workdir", str(tmp_path / "wd"), cwd=tmp_path)
        done = Finished(tmp_path, chosen, result.returncode, result.stdout, result.stderr)
    chosen = done.chosen
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    match = re.fullmatch(SUMMARY_LINE, last)
    assert match and match.group(1, 2, 4) == (str(len(chosen)), str(len(chosen)), "0"), last
    (eval_dir,) = (done.folder / "wd").glob("eval-*")
    results = [json.loads(line) for line in (eval_dir / "results.jsonl").read_text().splitlines()]
    runs = {r["run_dir"] for r in results}
    assert len(runs) == len(chosen) and all(run.startswith("runs/") for run in runs)
    for r in results:
        record = json.loads((eval_dir / r["run_dir"] / "run.json").read_text())
        assert record["mode"] == mode and record["status"] == r["status"] == "completed", record["reason"]
        final = record["final_answer"]
        assert final["confidence"] == r["confidence"] and all(a["answered"] for a in final["asks"])
        assert r["correct"] is True and "@" in final["answer"]         # the answer format the task asked for
    summary = (eval_dir / "summary.md").read_text()
    for heading in ("## Accuracy by checker", "## Status of the runs", "## Time, tokens and cost"):
        assert heading in summary
    assert f"| completed | {len(chosen)} |" in summary and f"Mode `{mode}`" in summary


@pytest.mark.slow
def test_budgets_apply_to_every_task(tmp_path):
    path, chosen = bundled_manifest(tmp_path, ["emp-mean-std-salary", "emp-argmax-median"])
    result = cli("eval", str(path), "--model", "offline", "--max-llm-calls", "1", "--parallel", "2",
                 "--workdir", str(tmp_path / "wd"), cwd=tmp_path)
    (eval_dir,) = (tmp_path / "wd").glob("eval-*")
    results = [json.loads(line) for line in (eval_dir / "results.jsonl").read_text().splitlines()]
    assert len(results) == len(chosen) and result.stdout.strip().splitlines()[-1].startswith("eval: n=2 correct=0 ")
    for r in results:
        record = json.loads((eval_dir / r["run_dir"] / "run.json").read_text())
        assert record["status"] == r["status"] == "incomplete" and "max LLM calls (1) used" in record["reason"]
        assert r["correct"] is False and record["final_answer"]["confidence"] == "low"


@pytest.mark.slow
def test_on_a_terminal_progress_is_live_while_tasks_run(simple_on_a_terminal):
    """A real pseudo-terminal: the table shows each task running (and in which agent) before it is done."""
    import re

    screen, n = simple_on_a_terminal.stdout, len(simple_on_a_terminal.chosen)
    assert simple_on_a_terminal.returncode == 0
    assert re.search(r"emp-mean-std-salary\s*│\s*running", screen), screen[-2000:]
    assert f"0/{n} done" in screen and f"{n}/{n} done, {n} correct" in screen
    assert screen.strip().splitlines()[-1].startswith(f"eval: n={n} correct={n} accuracy=1.000 errors=0 ")
