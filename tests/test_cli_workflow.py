"""The `run` command over the real workflow, driven by scripted models: statuses become exit codes."""

from __future__ import annotations

import functools
import json

from click.testing import CliRunner

import agentic_ds.workflow.runner as runner_module
from agentic_ds.cli.main import main
from agentic_ds.testing.scripted import ScriptedLlm
from tests.workflow_scripts import criteria, happy_scripts, no_change, write_sales


def scripted_cli(monkeypatch, scripts):
    models = {agent: ScriptedLlm(name=agent, script=list(steps)) for agent, steps in scripts.items()}
    real = runner_module.execute_run
    monkeypatch.setattr(runner_module, "execute_run", functools.partial(real, llm_overrides=models))
    return models


def invoke(tmp_path, *extra):
    data = write_sales(tmp_path / "data")
    return CliRunner().invoke(
        main,
        ["run", "--mode", "orchestrated", "Which region has the highest mean price?", "--files", str(data),
         "--workdir", str(tmp_path / "runs"), "--model", "offline", "--quiet", *extra],
        catch_exceptions=False,
    )


def test_completed_run_exits_0_and_says_so_on_the_last_line(tmp_path, monkeypatch):
    scripted_cli(monkeypatch, happy_scripts())
    result = invoke(tmp_path)
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("status: completed")
    run_dir = next((tmp_path / "runs").iterdir())
    assert json.loads((run_dir / "run.json").read_text())["status"] == "completed"
    assert (run_dir / "report.html").is_file()


def test_unmet_criteria_exit_3_incomplete(tmp_path, monkeypatch):
    scripts = happy_scripts()
    scripts["criteria_checker"] = [criteria(False, "no"), criteria(False, "east is missing")]
    scripts["stage_reflector"] = [no_change(), no_change()]
    scripted_cli(monkeypatch, scripts)
    result = invoke(tmp_path)
    assert result.exit_code == 3, result.output
    assert result.output.strip().splitlines()[-1].startswith("status: incomplete")


def test_failed_run_exits_1(tmp_path, monkeypatch):
    scripts = {k: v for k, v in happy_scripts().items() if k in ("plan_maker", "plan_reviewer", "plan_confirmation")}
    from agentic_ds.testing.scripted import text

    scripts["plan_parser"] = [text("no json")] * 3
    scripts["summary_agent"] = [text("## Answer\nNothing could be analysed.")]
    scripted_cli(monkeypatch, scripts)
    result = invoke(tmp_path)
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1].startswith("status: failed")


def test_sandbox_require_without_bubblewrap_is_a_usage_error_before_anything_is_created(tmp_path, monkeypatch):
    import agentic_ds.sandbox.isolation as isolation

    monkeypatch.setattr(isolation, "sandbox_choice", lambda: (None, "bubblewrap (bwrap) is not installed"))
    result = invoke(tmp_path, "--sandbox", "require")
    assert result.exit_code == 2, result.output
    assert "error: --sandbox require: bubblewrap (bwrap) is not installed" in result.output
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_security_api_key_in_the_cli_environment_never_reaches_the_run(tmp_path, monkeypatch):
    """The key is in the CLI's environment; executed code prints its whole environment; nothing leaks."""
    from agentic_ds.testing.scripted import call

    secret = "sk-ant-SECRET-should-never-leak-1234567890"
    monkeypatch.setenv("ANTHROPIC_API_KEY", secret)
    monkeypatch.setenv("OPENAI_API_KEY", secret + "-openai")
    scripts = happy_scripts()
    dump = (
        "import os, json\nprint(json.dumps(dict(os.environ)))\n"
        "open('outputs/env.json','w').write(json.dumps(dict(os.environ)))\n"
    )
    scripts["coding_agent"][0:0] = []
    scripts["coding_agent"][0] = call(
        "run_python", code=dump + scripts["coding_agent"][0].content.parts[0].function_call.args["code"]
    )
    scripted_cli(monkeypatch, scripts)
    result = invoke(tmp_path)
    assert result.exit_code == 0, result.output
    run_dir = next((tmp_path / "runs").iterdir())
    env = json.loads((run_dir / "outputs" / "env.json").read_text())
    assert not any("KEY" in name or "TOKEN" in name for name in env), sorted(env)
    for path in run_dir.rglob("*"):
        if path.is_file():
            assert b"SECRET-should-never-leak" not in path.read_bytes(), path
