"""Run `agentic-ds run` (in process, through click) against an OpenAI-compatible endpoint on 127.0.0.1.

The model goes through the real path: ADK's LiteLlm, our PolicyClient, litellm, HTTP. Timeouts and backoffs
come from a config file and are kept small so the tests stay fast.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from agentic_ds.cli.main import main

CSV = "region,price\nnorth,10\nsouth,12\nnorth,11\neast,9\nsouth,14\n"
FAST_CALLS = {"timeout_s": 30.0, "retries": 2, "backoff_s": 0.05, "max_backoff_s": 1.5}


@dataclass
class CliRun:
    exit_code: int
    stdout: str
    stderr: str
    run_dir: Path
    record: dict[str, Any]
    events: list[dict[str, Any]]
    report_md: str

    @property
    def calls(self) -> dict[str, Any]:
        return self.record.get("calls") or {}

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.events if event.get("kind") == kind]


def run_cli(
    tmp_path: Path,
    api_base: str,
    *,
    mode: str = "simple",
    model: str = "openai/fake",
    options: dict[str, Any] | None = None,
    calls: dict[str, Any] | None = None,
    context: dict[str, Any] | None = None,
    task: str = "Mean price by region",
    json_lines: bool = False,
    extra: tuple[str, ...] = (),
) -> CliRun:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "sales.csv").write_text(CSV, encoding="utf-8")
    config = {
        "model_options": {model: {"api_base": api_base, **(options or {})}},
        "calls": {**FAST_CALLS, **(calls or {})},
    }
    if context:
        config["context"] = context
    config_path = tmp_path / "agentic-ds.yaml"
    config_path.write_text(yaml.safe_dump(config), encoding="utf-8")
    workdir = tmp_path / "runs"
    args = ["run", "--mode", mode, task, "--files", str(data), "--workdir", str(workdir), "--model", model,
            "--config", str(config_path)]
    result = CliRunner().invoke(main, [*args, *extra, *(["--json"] if json_lines else [])], catch_exceptions=False)
    (run_dir,) = list(workdir.iterdir())
    events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    report = run_dir / "report.md"
    return CliRun(
        exit_code=result.exit_code,
        stdout=result.stdout,
        stderr=result.stderr,
        run_dir=run_dir,
        record=json.loads((run_dir / "run.json").read_text(encoding="utf-8")),
        events=events,
        report_md=report.read_text(encoding="utf-8") if report.is_file() else "",
    )


def assert_consistent(run: CliRun, status: str, exit_code: int) -> None:
    """Exit code, last output line, run.json, events.jsonl and report.md all tell the same ending."""
    assert run.exit_code == exit_code, (run.stdout, run.stderr)
    last = run.stdout.strip().splitlines()[-1]
    if last.startswith("{"):  # --json: the last object says how the run finished
        assert json.loads(last)["status"] == status, last
    else:
        assert last.startswith(f"status: {status}"), run.stdout
    assert run.record["status"] == status
    assert run.record["ended_at"] is not None
    assert run.record["events"] == len(run.events)
    assert run.events[-1]["kind"] == "status" and run.events[-1]["text"].startswith(f"status: {status}")
    assert run.report_md and status in run.report_md
    assert (run.run_dir / "report.html").is_file()
