"""`resume` in process: a run that failed on a model error, ran out of budget, or stopped in simple mode goes on
where it stopped, with the settings it recorded and the usage it already had."""

from __future__ import annotations

import json

from agentic_ds.cli.resume import ResumeOptions, resumed_settings
from agentic_ds.config.secrets import MASK
from agentic_ds.config.settings import ModelOptions, Settings
from agentic_ds.offline.model import OfflineLlm
from agentic_ds.schema import RunRecord, RunStatus
from agentic_ds.testing.harness import make_request, offline_models, resume_scripted, run_scripted
from agentic_ds.testing.scripted import call, request_text
from agentic_ds.workflow.runner import execute_run
from tests.resume_support import fingerprint
from tests.workflow_scripts import write_sales

TASK = "Mean price by region"


class ProviderDown(Exception):
    """What a provider's client raises when every retry failed (the message is the provider's)."""


def _fails(request):
    raise ProviderDown("503 Service Unavailable from https://api.example.test/v1 (retries exhausted)")


def _record(run_dir) -> dict:
    return json.loads((run_dir / "run.json").read_text())


class DownAfterTheFirstStage(OfflineLlm):
    """The offline model, whose provider goes down once the first stage (the audit) is done."""

    async def generate_content_async(self, llm_request, stream=False):
        if "Audit data quality" not in request_text(llm_request):   # the current stage is in the per-call part
            _fails(llm_request)
        async for response in super().generate_content_async(llm_request, stream):
            yield response


async def test_a_run_that_failed_on_a_model_error_continues_where_it_failed(tmp_path):
    csv = write_sales(tmp_path / "data")
    reviewer = DownAfterTheFirstStage()
    request = make_request(tmp_path, TASK, [csv])
    failed = await execute_run(request, llm_overrides={"code_reviewer": reviewer})   # stage 2's review fails
    run_dir = failed.workspace.root
    assert failed.status is RunStatus.FAILED and "ProviderDown" in failed.reason
    before = _record(run_dir)
    assert [s["status"] for s in before["stages"]] == ["approved", "running"]
    first_stage = run_dir / before["stages"][0]["dir"]
    kept = fingerprint(first_stage)
    second_cells = sorted((run_dir / before["stages"][1]["dir"]).glob("cell_*.py"))

    resumed, _ = await resume_scripted(run_dir)   # the provider is back

    assert resumed.status is RunStatus.COMPLETED, resumed.reason
    after = _record(run_dir)
    assert [s["status"] for s in after["stages"]] == ["approved", "approved"]
    assert fingerprint(first_stage) == kept
    cells = sorted((run_dir / after["stages"][1]["dir"]).glob("cell_*.py"))
    assert cells[: len(second_cells)] == second_cells and len(cells) > len(second_cells)   # numbering goes on
    assert [(a["status"]) for a in after["attempts"]] == ["failed", "completed"]
    assert after["tokens"]["llm_calls"] > before["tokens"]["llm_calls"]
    assert after["context"]["max_prompt_tokens"] >= before["context"]["max_prompt_tokens"] > 0
    assert after["context"]["budget_tokens"] == before["context"]["budget_tokens"]
    assert after["agents"]["coding_agent"]["llm_calls"] > before["agents"]["coding_agent"]["llm_calls"]
    log = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    assert after["events"] == len(log)
    resumed_at = next(i for i, r in enumerate(log) if r.get("text", "").startswith("resumed (attempt 2)"))
    assert "stage 2" in log[resumed_at]["text"] and "runs again from its start" in log[resumed_at]["text"]
    later_authors = {r["author"] for r in log[resumed_at:]}
    assert "plan_maker" not in later_authors and "plan_parser" not in later_authors   # planning not redone
    assert any(r["author"] == "file_analyzer" and "profiled before" in r.get("text", "") for r in log[resumed_at:])
    notebook = json.loads((run_dir / "analysis.ipynb").read_text())
    headings = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"]
    assert headings[0].startswith("## Stage 1") and sum(h.startswith("## Stage 1") for h in headings) == 1
    report = (run_dir / "report.md").read_text()
    assert "`completed`" in report and "| Attempts | 2 attempts (resumed once): 1. failed after " in report
    assert "2 attempts (resumed once)" in (run_dir / "report.html").read_text()


async def test_budgets_count_what_earlier_attempts_spent(tmp_path):
    csv = write_sales(tmp_path / "data")
    tight = Settings(budgets={"max_llm_calls": 8})
    first, _ = await run_scripted(tmp_path, TASK, [csv], {}, settings=tight)
    run_dir = first.workspace.root
    assert first.status is RunStatus.INCOMPLETE and "budget reached" in first.reason
    spent = _record(run_dir)["cost"]["by_model"]["offline"]["calls"]
    assert spent >= 8
    stages = [s["status"] for s in _record(run_dir)["stages"]]
    assert "failed" not in stages, "a stage the budget cut short is not a failed stage"

    again, _ = await resume_scripted(run_dir, settings=tight)   # the same budget: already spent

    assert again.status is RunStatus.INCOMPLETE and "budget reached" in again.reason
    record = _record(run_dir)
    # Only the report writer, which may always run, called its model.
    assert record["cost"]["by_model"]["offline"]["calls"] - spent <= 2

    done, _ = await resume_scripted(run_dir, settings=Settings(budgets={"max_llm_calls": 200}))

    assert done.status is RunStatus.COMPLETED, (done.reason, _record(run_dir)["warnings"])
    record = _record(run_dir)
    assert [a["status"] for a in record["attempts"]] == ["incomplete", "incomplete", "completed"]
    assert [s["status"] for s in record["stages"]] == ["approved", "approved"]
    assert record["tokens"]["llm_calls"] == sum(a["llm_calls"] for a in record["agents"].values())


async def test_a_simple_run_resumes_without_profiling_again(tmp_path):
    csv = write_sales(tmp_path / "data")
    failed, _ = await run_scripted(tmp_path, TASK, [csv], {"answer_validator": [_fails]}, mode="simple")
    run_dir = failed.workspace.root
    assert failed.status is RunStatus.FAILED
    profile = (run_dir / "data_profile.json").read_bytes()

    resumed, _ = await resume_scripted(run_dir)

    assert resumed.status is RunStatus.COMPLETED, resumed.reason
    assert (run_dir / "data_profile.json").read_bytes() == profile
    log = (run_dir / "events.jsonl").read_text()
    assert "inputs profiled before" in log
    assert _record(run_dir)["final_answer"]["valid"] is True


async def test_a_coder_turn_cut_by_an_error_resumes_with_its_cells_on_record(tmp_path):
    csv = write_sales(tmp_path / "data")
    code = "print('half of the work')\n"
    failed, _ = await run_scripted(tmp_path, TASK, [csv], {"coding_agent": [call("run_python", code=code), _fails]})
    run_dir = failed.workspace.root
    stage_dir = run_dir / _record(run_dir)["stages"][0]["dir"]
    assert (stage_dir / "cell_001.py").read_text() == code

    resumed, _ = await resume_scripted(run_dir)

    assert resumed.status is RunStatus.COMPLETED, resumed.reason
    assert (stage_dir / "cell_001.py").read_text() == code
    assert (stage_dir / "cell_002.py").is_file()
    assert "# %% cell 001\nprint('half of the work')" in (stage_dir / "code.py").read_text()


def test_resumed_settings_are_the_recorded_ones_with_secrets_from_today(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-1234567890")
    recorded = Settings(
        loops={"impl_iterations": 2}, sandbox={"cell_timeout_s": 77},
        model_options={"openai/gpt-4.1": ModelOptions(api_base="http://127.0.0.1:9/v1",
                                                      extra={"api_key": "sk-inline-secret",
                                                             "note": "sk-test-1234567890"})},
    )
    from agentic_ds.config.secrets import settings_record

    kept = settings_record(recorded)
    assert kept["model_options"]["openai/gpt-4.1"]["extra"] == {"api_key": MASK, "note": MASK}
    assert "sk-" not in json.dumps(kept)
    (tmp_path / "agentic-ds.yaml").write_text(
        "loops:\n  impl_iterations: 5\nmodel_options:\n  openai/gpt-4.1:\n    extra:\n      api_key: sk-fixed-key\n"
    )
    record = RunRecord(id="r", settings=kept)

    settings = resumed_settings(record, ResumeOptions(run="r", max_llm_calls=40))

    assert settings.loops.impl_iterations == 2 and settings.sandbox.cell_timeout_s == 77   # as recorded, not today's
    assert settings.model_options["openai/gpt-4.1"].extra["api_key"] == "sk-fixed-key"   # the fixed key
    assert settings.model_options["openai/gpt-4.1"].api_base == "http://127.0.0.1:9/v1"
    assert settings.budgets.max_llm_calls == 40


def test_offline_models_are_what_the_harness_resumes_with():
    assert {choice.spec for choice in offline_models().choices.values()} == {"offline"}


async def test_a_run_killed_between_a_stage_verdict_and_its_files_writes_them_on_resume_and_never_redoes_it(
        tmp_path, monkeypatch):
    # The verdict is stored before result.json says it: killed in between, the session knows the stage is approved
    # and its file does not, never the other way round (which would have the stage done again under an "approved").
    from agentic_ds.workflow import orchestrator

    class Killed(Exception):
        """Stands for the process dying right after the first stage's verdict was stored."""

    write_files = orchestrator._write_stage_files
    seen: list[str] = []

    def killed_at_the_first(stage_dir, stage, decision):
        seen.append(stage.id)
        if len(seen) == 1:
            assert not (stage_dir / "result.json").exists()
            raise Killed
        write_files(stage_dir, stage, decision)

    monkeypatch.setattr(orchestrator, "_write_stage_files", killed_at_the_first)
    csv = write_sales(tmp_path / "data")
    request = make_request(tmp_path, TASK, [csv])
    stopped = await execute_run(request)
    run_dir = stopped.workspace.root
    assert stopped.status is RunStatus.FAILED and "Killed" in stopped.reason
    first = _record(run_dir)["stages"][0]
    cells = sorted((run_dir / first["dir"]).glob("cell_*.py"))
    assert first["status"] == "approved" and cells and not (run_dir / first["dir"] / "result.json").exists()

    resumed, _ = await resume_scripted(run_dir)

    assert resumed.status is RunStatus.COMPLETED, resumed.reason
    result = json.loads((run_dir / first["dir"] / "result.json").read_text())
    assert result["status"] == "approved" and result["decision"].get("exit") is True
    assert sorted((run_dir / first["dir"]).glob("cell_*.py")) == cells   # not done again
