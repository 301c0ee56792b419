"""`agentic-ds list / show / open`, through click as a user runs them."""

from __future__ import annotations

import json
import webbrowser

import click
import pytest
from click.testing import CliRunner

from agentic_ds.cli.review import register, runs_table
from agentic_ds.errors import UsageError
from agentic_ds.report.listing import list_runs
from tests.report_fixtures import make_run


@pytest.fixture
def cli():
    @click.group()
    def group() -> None:
        """Test stand-in for the main group."""

    register(group)
    return group


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def no_display(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("agentic_ds.cli.review.sys.platform", "linux")


def test_list_shows_runs_newest_first(cli, runner, tmp_path):
    make_run(
        tmp_path, "20261120-090000-older", started_at="2026-11-20T09:00:00+00:00", status="failed", task="Older task"
    )
    make_run(tmp_path)

    result = runner.invoke(cli, ["list", "--workdir", str(tmp_path)])

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["RUN", "STATUS", "MODE", "STARTED", "DURATION", "COST", "TITLE"]
    assert lines[1].startswith("20261122-013000-which-region  completed with warnings  orchestrated  2026-11-22 01:30")
    assert "1 min 12 s" in lines[1] and "$0.0123" in lines[1] and "Which region has the highest" in lines[1]
    assert lines[2].startswith("20261120-090000-older") and "failed" in lines[2] and "Older task" in lines[2]


def test_list_table_fits_a_terminal_width(tmp_path):
    make_run(tmp_path)

    [header, line] = runs_table(list_runs(tmp_path), width=140).splitlines()

    assert len(line) == 140 and line.endswith("…") and line.split("  ")[-1].startswith("Which region")


def test_list_json(cli, runner, tmp_path):
    make_run(tmp_path)

    result = runner.invoke(cli, ["list", "--workdir", str(tmp_path), "--json"])

    assert result.exit_code == 0
    [run] = json.loads(result.output)
    assert run["id"] == "20261122-013000-which-region" and run["status"] == "completed_with_warnings"
    assert run["wall_s"] == 72.5 and run["total_usd"] == 0.0123 and run["has_report"] is False


def test_list_with_no_runs_says_so(cli, runner, tmp_path):
    result = runner.invoke(cli, ["list", "--workdir", str(tmp_path / "empty")])

    assert result.exit_code == 0 and result.output == f"No runs under {tmp_path / 'empty'}.\n"


def test_list_defaults_to_the_configured_workdir(cli, runner, tmp_path, monkeypatch):
    make_run(tmp_path / "configured")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AGENTIC_DS_WORKDIR", str(tmp_path / "configured"))

    result = runner.invoke(cli, ["list"])

    assert result.exit_code == 0 and "20261122-013000-which-region" in result.output


def test_show_summarizes_stages_criteria_artifacts_and_report(cli, runner, tmp_path):
    run = make_run(tmp_path)
    (run / "report.html").write_text("<!DOCTYPE html>")

    result = runner.invoke(cli, ["show", "20261122", "--workdir", str(tmp_path)])

    assert result.exit_code == 0, result.output
    out = result.output
    assert "Status   completed with warnings: Two of three stages were approved" in out
    assert "Duration 1 min 12 s" in out and "Cost $0.0123 (32,020 tokens)" in out
    assert "   3. Monthly trend" in out and "failed     3 attempts  stages/03-monthly-trend" in out
    assert "[NOT met] Monthly trend of sales shown — stage s3 failed: KeyError 'dat'" in out
    assert "figures: 2    outputs: 1    stage code: 3 of 3" in out
    assert f"Report   {(run / 'report.html').resolve()}" in out


def test_show_a_failed_partial_run(cli, runner, tmp_path):
    run = tmp_path / "20261122-020000-crashed"
    run.mkdir()

    result = runner.invoke(cli, ["show", str(run)])

    assert result.exit_code == 0, result.output
    assert "Status   unknown" in result.output and "(none recorded)" in result.output
    assert "run.json is missing" in result.output
    assert "Report   not written yet; `agentic-ds open 20261122-020000-crashed` renders it" in result.output


def test_show_unknown_run_raises_a_usage_error(cli, runner, tmp_path):
    result = runner.invoke(cli, ["show", "nope", "--workdir", str(tmp_path)])

    assert isinstance(result.exception, UsageError)
    assert "no run matches 'nope'" in result.exception.message


def test_open_without_display_prints_the_path(cli, runner, tmp_path, no_display, monkeypatch):
    run = make_run(tmp_path)
    (run / "report.html").write_text("<!DOCTYPE html>")
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: pytest.fail("must not start a browser"))

    result = runner.invoke(cli, ["open", str(run)])

    assert result.exit_code == 0
    assert result.output == f"{(run / 'report.html').resolve()}\n"


def test_open_with_display_opens_the_file_uri(cli, runner, tmp_path, no_display, monkeypatch):
    run = make_run(tmp_path)
    (run / "report.html").write_text("<!DOCTYPE html>")
    monkeypatch.setenv("DISPLAY", ":0")
    opened: list[str] = []

    def open_uri(uri: str, *args: object, **kwargs: object) -> bool:
        opened.append(uri)
        return True

    monkeypatch.setattr(webbrowser, "open", open_uri)

    result = runner.invoke(cli, ["open", "20261122-013000-which-region", "--workdir", str(tmp_path)])

    assert result.exit_code == 0
    assert opened == [(run / "report.html").resolve().as_uri()]
    assert result.output.startswith("Opened ")


def test_open_reports_when_no_browser_starts(cli, runner, tmp_path, no_display, monkeypatch):
    run = make_run(tmp_path)
    (run / "report.html").write_text("<!DOCTYPE html>")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: False)

    result = runner.invoke(cli, ["open", str(run)])

    assert result.exit_code == 0
    assert str((run / "report.html").resolve()) in result.output
    assert "Could not start a browser" in result.output


def test_open_renders_a_missing_report_first(cli, runner, tmp_path, no_display):
    run = make_run(tmp_path, status="failed", reason="Stopped by the user.")

    result = runner.invoke(cli, ["open", str(run)])

    assert result.exit_code == 0
    assert "rendered it from the run directory" in result.output
    assert "Stopped by the user." in (run / "report.html").read_text()
