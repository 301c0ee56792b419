"""`agentic-ds run` wiring, with the workflow replaced by a fake that follows the runner contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.errors import RunFailed
from agentic_ds.workflow import runner as runner_module
from agentic_ds.workflow.runner import RunOutcome

EVENTS = [
    {"timestamp": "2026-01-01T00:00:00", "author": "plan_maker", "kind": "text", "text": "Plan: 2 stages"},
    {"timestamp": "2026-01-01T00:00:01", "author": "stage_orchestrator", "kind": "stage", "text": "Load",
     "stage": {"index": 1, "count": 2, "title": "Load the data"}},
    {"timestamp": "2026-01-01T00:00:02", "author": "coding_agent", "kind": "tool_call", "tool": "run_python",
     "args": "code=print(1)", "usage": {"input_tokens": 120, "output_tokens": 8}, "iteration": 1},
]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("data").mkdir()
    Path("data/sales.csv").write_text("region,price\nnorth,10\nsouth,12\n", encoding="utf-8")


@pytest.fixture
def workflow(monkeypatch):
    """Replace `execute_run`; `workflow.outcome(...)` sets what it returns, `workflow.requests` what it got."""

    class FakeWorkflow:
        requests: list = []
        status, reason, raises, events = "completed", "all criteria met", None, EVENTS

        def outcome(self, status: str = "completed", reason: str = "", raises: BaseException | None = None):
            self.status, self.reason, self.raises = status, reason, raises

        async def execute_run(self, request, *, on_event=None, on_tree=None, llm_overrides=None, stop=None):
            self.requests.append(request)
            for event in self.events:
                on_event(event)
            if self.raises is not None:
                raise self.raises
            report = request.workspace.file("report.html")
            report.write_text("<html></html>", encoding="utf-8")
            return RunOutcome(self.status, self.reason, request.workspace, report)

    fake = FakeWorkflow()
    fake.requests = []
    monkeypatch.setattr(runner_module, "execute_run", fake.execute_run)
    return fake


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def run_dirs() -> list[Path]:
    root = Path("workdirs")
    return sorted(root.iterdir()) if root.exists() else []


def test_plain_run_prints_models_first_and_status_last(workflow):
    result = invoke("run", "--mode", "simple", "Mean price by region", "--files", "data")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "models: offline for every role (no API key found: set ANTHROPIC_API_KEY, OPENAI_API_KEY, "
        "GEMINI_API_KEY or OPENROUTER_API_KEY, or pass --model)"
    )
    (run_dir,) = run_dirs()
    assert run_dir.name.endswith("-mean-price-by-region")
    assert lines[-3:] == [
        f"run: workdirs/{run_dir.name}",
        f"report: workdirs/{run_dir.name}/report.html",
        "status: completed - all criteria met",
    ]
    assert "== stage 1/2: Load the data" in lines
    assert "[coding_agent #1] -> run_python(code=print(1))" in lines
    assert (run_dir / "inputs/data/sales.csv").read_text().startswith("region,price")
    request = workflow.requests[0]
    assert (request.task, request.mode, request.workspace.root) == ("Mean price by region", "simple", run_dir.resolve())
    assert request.models.spec("coder") == "offline"


@pytest.mark.parametrize(
    ("status", "code"),
    [("completed", 0), ("completed_with_warnings", 0), ("incomplete", 3), ("failed", 1), ("interrupted", 130)],
)
def test_exit_code_follows_the_run_status(workflow, status, code):
    workflow.outcome(status, "because")
    result = invoke("run", "--mode", "orchestrated", "t", "--files", "data")
    assert result.exit_code == code
    assert result.stdout.splitlines()[-1] == f"status: {status} - because"


def test_status_without_reason(workflow):
    workflow.outcome("completed", "")
    result = invoke("run", "--mode", "simple", "t", "--files", "data")
    assert result.stdout.splitlines()[-1] == "status: completed"


def test_quiet_prints_only_the_final_lines(workflow):
    workflow.outcome("incomplete", "stage 2 not approved")
    result = invoke("run", "--mode", "simple", "t", "--files", "data", "--quiet")
    assert result.exit_code == 3
    (run_dir,) = run_dirs()
    assert result.stdout.splitlines() == [
        f"run: workdirs/{run_dir.name}",
        f"report: workdirs/{run_dir.name}/report.html",
        "status: incomplete - stage 2 not approved",
    ]


def test_json_prints_one_object_per_line(workflow):
    result = invoke("run", "--mode", "simple", "t", "--files", "data", "--json")
    assert result.exit_code == 0
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert objects[0]["kind"] == "models" and objects[0]["models"]["coder"] == "offline"
    assert objects[1]["kind"] == "run_started" and objects[1]["inputs"] == ["inputs/data/sales.csv"]
    assert objects[2:-1] == EVENTS
    (run_dir,) = run_dirs()
    assert objects[-1] == {
        "kind": "run_finished",
        "status": "completed",
        "reason": "all criteria met",
        "run_dir": str(run_dir.resolve()),
        "report_path": str((run_dir / "report.html").resolve()),
    }


def test_task_from_stdin(workflow):
    result = invoke("run", "--mode", "simple", "-", "--files", "data", input="Which region sells most?\n")
    assert result.exit_code == 0
    assert workflow.requests[0].task == "Which region sells most?"


def test_flags_reach_the_settings(workflow):
    result = invoke(
        "run", "--mode", "orchestrated", "t", "--files", "data", "--workdir", "runs", "--sandbox", "off",
        "--max-cost", "1.5", "--max-llm-calls", "7", "--max-tokens", "5000", "--model", "offline",
        "--model", "coder=ollama_chat/llama3", "--parallel-stages", "3",
    )
    assert result.exit_code == 0, result.output
    settings = workflow.requests[0].settings
    assert settings.loops.parallel_stages == 3
    assert settings.workdir == Path("runs") and len(list(Path("runs").iterdir())) == 1
    assert settings.sandbox.mode == "off"
    assert (settings.budgets.max_cost_usd, settings.budgets.max_llm_calls, settings.budgets.max_tokens) == (
        1.5,
        7,
        5000,
    )
    assert workflow.requests[0].models.spec("coder") == "ollama_chat/llama3"
    assert result.stdout.splitlines()[0] == (
        "models: offline for planner, reviewer, judge, summarizer, compactor; "
        "ollama_chat/llama3 for coder (as configured)"
    )


def test_config_file_flag(workflow):
    Path("team.yaml").write_text("loops:\n  impl_iterations: 5\n", encoding="utf-8")
    assert invoke("run", "--mode", "simple", "t", "-f", "data", "--config", "team.yaml").exit_code == 0
    assert workflow.requests[0].settings.loops.impl_iterations == 5
    assert workflow.requests[0].settings.loops.parallel_stages == 2   # the default


BAD_INPUT = [
    (["run", "t", "--files", "data"], "error: missing option '--mode'. Choose from: orchestrated, simple"),
    (["run", "--mode", "fast", "t", "--files", "data"], "error: invalid value for '--mode': 'fast' is not one of"),
    (["run", "--mode", "simple", "--files", "data"], "error: missing argument 'TASK'"),
    (["run", "--mode", "simple", "t", "--files", "data", "--colour"], "error: no such option '--colour'"),
    (["run", "--mode", "simple", "   ", "--files", "data"], "error: the task is empty"),
    (["run", "--mode", "simple", "t"], "error: no input files given"),
    (["run", "--mode", "simple", "t", "--files", "nope.csv"], "error: input not found: nope.csv"),
    (["run", "--mode", "simple", "t", "-f", "data", "--model", "gpt4"], "error: unknown model string 'gpt4'"),
    (["run", "--mode", "simple", "t", "-f", "data", "-m", "boss=offline"], "error: unknown role 'boss'"),
    (
        ["run", "--mode", "simple", "t", "-f", "data", "--model", "openai/gpt-4.1"],
        "error: openai/gpt-4.1 (for the planner) needs OPENAI_API_KEY, which is not set",
    ),
    (
        ["run", "--mode", "simple", "t", "-f", "data", "--config", "bad.yaml"],
        "error: config file bad.yaml is not valid YAML (line",
    ),
    (
        ["run", "--mode", "simple", "t", "-f", "data", "--config", "none.yaml"],
        "error: config file not found: none.yaml",
    ),
    (
        ["run", "--mode", "simple", "t", "-f", "data", "--max-llm-calls", "0"],
        "error: invalid value for '--max-llm-calls'",
    ),
    (
        ["run", "--mode", "orchestrated", "t", "-f", "data", "--parallel-stages", "0"],
        "error: invalid value for '--parallel-stages'",
    ),
    (["frobnicate"], "error: no such command 'frobnicate'"),
]


@pytest.mark.parametrize(("args", "first_line"), BAD_INPUT, ids=[" ".join(a[1:4]) or a[0] for a, _ in BAD_INPUT])
def test_bad_input_is_one_clear_line_and_exit_2(workflow, args, first_line):
    Path("bad.yaml").write_text("models: [unclosed\n", encoding="utf-8")
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith(first_line), lines
    assert len(lines) == 2 and lines[1].startswith("hint: ")
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert run_dirs() == [] and workflow.requests == []


def test_empty_stdin_task(workflow):
    result = invoke("run", "--mode", "simple", "-", "--files", "data", input="\n")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: the task is empty (nothing on stdin)\nhint: ")


def test_ctrl_c_exits_130_and_keeps_the_run_directory(workflow):
    workflow.outcome(raises=KeyboardInterrupt())
    result = invoke("run", "--mode", "orchestrated", "t", "--files", "data")
    assert result.exit_code == 130
    (run_dir,) = run_dirs()
    assert (run_dir / "inputs/data/sales.csv").is_file()
    assert result.stdout.splitlines()[-3:] == [
        f"run: workdirs/{run_dir.name}",
        "report: not written",
        "status: interrupted - stopped by Ctrl-C; the run directory keeps everything done so far "
        f"(`agentic-ds resume {run_dir.name}` continues it)",
    ]


def test_run_failure_reports_error_and_failed_status(workflow):
    workflow.outcome(raises=RunFailed("the sandbox could not start", hint="install bubblewrap"))
    result = invoke("run", "--mode", "orchestrated", "t", "--files", "data")
    assert result.exit_code == 1
    assert result.stderr == "error: the sandbox could not start\nhint: install bubblewrap\n"
    assert result.stdout.splitlines()[-1] == "status: failed - the sandbox could not start"


def test_internal_error_has_no_traceback_unless_debug(workflow):
    workflow.outcome(raises=ZeroDivisionError("division by zero"))
    plain = invoke("run", "--mode", "simple", "t", "--files", "data")
    assert plain.exit_code == 1
    assert plain.stderr.splitlines()[0] == "error: internal error: ZeroDivisionError: division by zero"
    assert "Traceback" not in plain.output
    assert plain.stdout.splitlines()[-1] == "status: failed - internal error: ZeroDivisionError"
    debug = invoke("--debug", "run", "--mode", "simple", "t", "--files", "data")
    assert debug.exit_code == 1
    assert "Traceback (most recent call last)" in debug.stderr and "ZeroDivisionError" in debug.stderr


def test_debug_shows_traceback_for_usage_errors_too(workflow):
    result = invoke("--debug", "run", "--mode", "simple", "t", "--files", "nope.csv")
    assert result.exit_code == 2
    assert "Traceback (most recent call last)" in result.stderr
    assert result.stderr.splitlines()[-2] == "error: input not found: nope.csv"
