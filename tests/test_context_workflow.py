"""Context in a real scripted orchestrated run: stages are isolated branches, and compaction keeps prompts in budget."""

from __future__ import annotations

import json

from google.adk.sessions.sqlite_session_service import SqliteSessionService

from agentic_ds.config.settings import ContextSettings, Settings
from agentic_ds.context.compaction import SUMMARY_HEADER
from agentic_ds.context.per_call import is_per_call
from agentic_ds.context.tokens import count_tokens
from agentic_ds.testing.harness import run_scripted
from agentic_ds.testing.scripted import call, text
from tests.workflow_scripts import MEANS_CODE, criteria, happy_scripts, validated, write_sales

TASK = "Which region has the highest mean price?"
STAGE1_CODE = (
    "import pandas as pd  # stage-one-code-marker\n"
    "df = pd.read_csv('inputs/sales.csv')\n"
    "print('stage-one-output-marker', len(df))\n"
)
STAGE1_SUMMARY = "Audit done: 6 rows, 0 missing values (stage-one-summary-marker)."


async def reopened_session(run_dir):
    service = SqliteSessionService(str(run_dir / "session.db"))
    listed = await service.list_sessions(app_name="agentic_ds", user_id="local")
    session = await service.get_session(app_name="agentic_ds", user_id="local", session_id=listed.sessions[0].id)
    await service.close()
    return session


def section(prompt: str, title: str) -> str:
    """The body of the prompt's `## title` section (up to the next `## ` heading)."""
    body = prompt.split(f"## {title}\n", 1)[1]
    return body.split("\n## ", 1)[0]


async def test_stage_two_coder_sees_stage_one_only_through_its_summary(tmp_path):
    scripts = happy_scripts()
    scripts["coding_agent"] = [
        call("run_python", code=STAGE1_CODE), text(STAGE1_SUMMARY),
        call("run_python", code=MEANS_CODE), text("Means: north 11.0, south 21.0, east 6.0. outputs/means.csv"),
    ]
    outcome, models = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    assert outcome.status == "completed", outcome.reason
    coder = models["coding_agent"]
    # stage 1's own second call saw its tool output (the marker is real output, not an artifact of the test)
    assert "stage-one-output-marker 6" in coder.request_text(1)
    for index in (2, 3):  # both calls of stage 2
        prompt = coder.request_text(index)
        assert "stage-one-output-marker" not in prompt and "stage-one-code-marker" not in prompt
        assert prompt.count("stage-one-summary-marker") == 1
        assert "stage-one-summary-marker" in section(prompt, "Finished stages")
    assert "stage-one-summary-marker" not in coder.request_text(0)

    session = await reopened_session(outcome.workspace.root)
    coder_branches = [e.branch for e in session.events if e.author == "coding_agent"]
    assert coder_branches[:2] == ["stage_orchestrator.s1"] * 2
    assert set(coder_branches) == {"stage_orchestrator.s1", "stage_orchestrator.s2"}
    stage_of = {e.branch for e in session.events if e.author in ("code_reviewer", "impl_confirmation")}
    assert stage_of == {"stage_orchestrator.s1", "stage_orchestrator.s2"}


BUDGET = 4000
CELLS = 6


def table_code(stage: int, cell: int) -> str:
    return (
        "import numpy as np\n"
        f"rng = np.random.default_rng({stage * 100 + cell})\n"
        f"base = {stage * 1000 + cell}\n"   # the total is computed, not a literal of the code (which proves nothing)
        f"print(f'wrote outputs/stage{stage}_cell{cell}.csv total={{base + 0.5}}')\n"
        "for i, row in enumerate(rng.normal(5000, 1500, size=(24, 6))):\n"
        "    print(f'{i:4d} ' + ' '.join(f'{v:10.3f}' for v in row))\n"
    )


def honest(step):
    """Report the prompt size actually sent as usage, as a real model would."""

    def run(request):
        response = step.model_copy(deep=True)
        response.usage_metadata.prompt_token_count = count_tokens(None, request)
        return response

    return run


def table_scripts(rows: int = 24) -> dict[str, list]:
    """A run whose coder prints a table of `rows` rows in each of its cells, CELLS per stage."""
    scripts = happy_scripts()
    coder = []
    for stage in (1, 2):
        coder += [honest(call("run_python", code=table_code(stage, cell).replace("size=(24", f"size=({rows}")))
                  for cell in range(CELLS)]
        coder.append(honest(text(f"stage {stage} done")))
    scripts["coding_agent"] = coder
    # The checker and the validator quote what this run's code printed (their evidence is checked in code).
    printed = "stages/02-mean-price-by-region/cell_001.out.txt: total=2000.5"
    scripts["criteria_checker"] = [criteria(False, "not yet"), criteria(True, printed)]
    scripts["answer_validator"] = [validated("The mean price table totals 2000.5 in stage 2.", asks=[
        {"id": "a1", "answered": True, "answer": "highest mean price: total=2000.5", "files": []}])]
    return scripts


async def test_small_budget_compacts_within_the_coder_turn_and_persists_the_summary(tmp_path):
    scripts = table_scripts()
    settings = Settings(context=ContextSettings(budget_tokens=BUDGET, keep_recent_events=2))
    outcome, models = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, settings=settings)
    assert outcome.status == "completed", outcome.reason
    for model in models.values():
        model.assert_complete()
        sizes = [count_tokens(None, r) for r in model.requests]
        assert max(sizes) <= BUDGET, (model.name, str(sizes), str([len(r.contents) for r in model.requests]))

    session = await reopened_session(outcome.workspace.root)
    compactions = [e for e in session.events if e.actions and e.actions.compaction]
    assert compactions, "a compaction event is in the reopened session.db"
    assert {e.branch for e in compactions} == {"stage_orchestrator.s1", "stage_orchestrator.s2"}
    assert all(e.author == "coding_agent" for e in compactions)

    record = json.loads((outcome.workspace.root / "run.json").read_text())["context"]
    assert record["budget_tokens"] == BUDGET and 0 < record["max_prompt_tokens"] <= BUDGET
    assert record["compactions"] == len(compactions) and record["over_budget_calls"] == 0
    report = (outcome.workspace.root / "report.md").read_text()
    assert (
        f"Context: every prompt fit the {BUDGET:,}-token budget" in report
        and f"{len(compactions)} compaction" in report
    )

    coder_model = models["coding_agent"]
    last_of_stage1 = coder_model.request_text(CELLS)
    # the early cells were summarized (their file names and numbers kept) and the newest cell kept verbatim
    assert SUMMARY_HEADER in last_of_stage1 and "outputs/stage1_cell0.csv total=1000.5" in last_of_stage1
    assert f"outputs/stage1_cell{CELLS - 1}.csv" in last_of_stage1
    # stage 2 never sees stage 1's compaction summary
    for index in range(CELLS + 1, 2 * CELLS + 2):
        assert "stage1_cell" not in coder_model.request_text(index)
    # compaction swaps history only: every request, compacted or not, still starts with its per-call part
    for index, request in enumerate(coder_model.requests):
        assert is_per_call(request.contents[0]), index
        assert f"Id: s{1 if index <= CELLS else 2}" in request.contents[0].parts[0].text


def test_a_full_rolling_summary_drops_old_table_rows_and_calls_before_a_new_result():
    from google.adk.events import Event
    from google.genai import types

    from agentic_ds.context.compaction import ExtractiveSummarizer

    def response(ts: float, output: str) -> Event:
        part = types.Part(
            function_response=types.FunctionResponse(name="run_python", response={"output": output, "error": ""})
        )
        return Event(author="coder", invocation_id="i", content=types.Content(role="user", parts=[part]), timestamp=ts)

    def called(ts: float, code: str) -> Event:
        part = types.Part(function_call=types.FunctionCall(name="run_python", args={"code": code}))
        return Event(author="coder", invocation_id="i", content=types.Content(role="model", parts=[part]), timestamp=ts)

    rows = "\n".join(f"{i:4d} {i * 1.5:10.3f} {i * 7.25:10.3f}" for i in range(8))
    summarizer = ExtractiveSummarizer(max_chars=400)
    first = summarizer.summarize_text(
        [called(1, "x = 1  # " + "y" * 200), response(2, "wrote outputs/a.csv total=1.5\n" + rows)]
    )
    seed = Event(
        author="model",
        invocation_id="s",
        content=types.Content(role="model", parts=[types.Part(text=first)]),
        timestamp=1,
    )
    later = summarizer.summarize_text([seed, response(3, "wrote outputs/b.csv total=2.5\n" + rows)])
    assert "outputs/a.csv total=1.5" in later and "outputs/b.csv total=2.5" in later
    assert "error:" not in later  # an empty error value is no error


async def test_compaction_events_are_in_events_jsonl_too(tmp_path):
    """Compaction events reach the session directly (not via the Runner's stream); the log still gets them."""
    import json as _json

    from agentic_ds.config.settings import Settings
    from agentic_ds.testing.harness import run_scripted
    from agentic_ds.testing.scripted import call
    from tests.workflow_scripts import happy_scripts, write_sales

    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    loud = "import pandas as pd\nprint(pd.DataFrame({'v': range(400)}).to_string())\n"
    scripts["coding_agent"][0:0] = [call("run_python", code=loud + f"# {i}\n") for i in range(4)]
    settings = Settings(context={"budget_tokens": 2500, "keep_recent_events": 1})
    outcome, _ = await run_scripted(
        tmp_path, "Which region has the highest mean price?", [csv], scripts, settings=settings
    )
    records = [_json.loads(line) for line in (outcome.workspace.root / "events.jsonl").read_text().splitlines()]
    assert any(r["kind"] == "compaction" for r in records), sorted({r["kind"] for r in records})


async def test_a_looping_coder_is_redirected_then_stopped_and_the_run_goes_on_with_it_on_record(tmp_path):
    scripts = happy_scripts()
    same = call("run_python", code="print('checking the data again')")
    scripts["coding_agent"][0:2] = [same, same, same, same]  # stage 1: the same cell four times
    outcome, models = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    coder = models["coding_agent"]
    assert "LOOP DETECTED (coding_agent)" in coder.request_text(3) and "LOOP DETECTED" not in coder.request_text(2)
    record = json.loads((outcome.workspace.root / "run.json").read_text())
    assert outcome.status in ("completed", "completed_with_warnings"), outcome.reason
    assert [s["status"] for s in record["stages"]] == ["approved", "approved"]   # stage 2 still ran
    assert record["context"]["loop_divergences"] == 1 and record["context"]["loop_stops"] == 1
    assert any("stopped for looping" in w for w in record["warnings"]), record["warnings"]


async def test_a_compaction_that_summarizes_everything_still_shows_the_result_of_the_newest_call(tmp_path):
    """When even the newest cell does not fit beside the summary, the summary would swallow the output of the cell
    the coder just ran, and a coder
    that cannot see what its last call did runs it again. The call and its result come back after the summary,
    within the budget."""
    scripts = table_scripts(rows=240)   # ten times as long: the newest cell's output does not fit beside the summary
    settings = Settings(context=ContextSettings(budget_tokens=BUDGET, keep_recent_events=1))
    outcome, models = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, settings=settings)
    assert outcome.status == "completed", outcome.reason
    model = models["coding_agent"]
    assert max(count_tokens(None, r) for r in model.requests) <= BUDGET
    record = json.loads((outcome.workspace.root / "run.json").read_text())["context"]
    assert record["compactions"] > 0 and record["over_budget_calls"] == 0
    for cell in range(1, CELLS):   # request `cell` follows the run of cell - 1: it ends with that call's result
        *_, ran, result = model.requests[cell].contents
        (code,) = [p.function_call.args["code"] for p in ran.parts or [] if p.function_call]
        (output,) = [p.function_response.response for p in result.parts or [] if p.function_response]
        assert f"rng = np.random.default_rng({100 + cell - 1})" in code
        assert f"outputs/stage1_cell{cell - 1}.csv total={1000 + cell - 1}.5" in json.dumps(output)
