"""Every prompt template renders with StrictUndefined; a missing variable is an error, never a placeholder.

The contexts are shaped as the agents' context builders give them (`agentic_ds/workflow/*.py`): typed records
(`StageRecord`, `CriterionRecord`), dicts for an execution and an answer, lists of file records, and the data
profile as records (read by the offline model, not rendered)."""

import pytest

from agentic_ds.profiling.model import DataProfile
from agentic_ds.schema import CriterionRecord, StageRecord, StageStatus
from agentic_ds.workflow.prompting import PromptContext, PromptError, render, render_parts, template_names

ASKS = [{"id": "a1", "text": "mean price by region", "slot": ""}]
PART = {"id": "a1", "ask": "t", "answer": "1.5", "files": ["outputs/a.json"], "found": {"1.5": "outputs/a.json: 1.5"}}
STAGES = [
    StageRecord(id="s1", title="Audit the data", description="Check inputs/sales.csv for gaps.",
                expected_outputs=["outputs/audit.json"], status=StageStatus.APPROVED, attempts=1,
                summary="12 rows without a region dropped.", dir="stages/01-audit-the-data"),
    StageRecord(id="s2", title="Mean price by region", description="Group by region; mean of price.",
                expected_outputs=["outputs/means.csv"], status=StageStatus.FAILED, attempts=3,
                dir="stages/02-mean-price-by-region"),
    StageRecord(id="s3", title="Plot the means", description="Bar chart of the means.",
                expected_outputs=["figures/means.png"], status=StageStatus.RUNNING, attempts=1,
                dir="stages/03-plot-the-means"),
    StageRecord(id="s4", title="Test the difference", description="ANOVA of price across regions."),
]
CURRENT = 2
CRITERIA = [
    CriterionRecord(id="c1", text="outputs/means.csv states the mean price per region", met=True,
                    evidence="outputs/means.csv: north 12.5, south 9.75", asks=["a1"]),
    CriterionRecord(id="c2", text="outputs/anova.json states the p-value", met=False,
                    evidence="outputs/anova.json: F 3.2", judged="the evidence quotes no p-value"),
    CriterionRecord(id="c3", text="figures/means.png shows the means"),
]
FILES = [
    {"path": "outputs/means.csv", "bytes": 1234, "problem": ""},
    {"path": "outputs/link.csv", "bytes": 10, "problem": "a link to outside the run directory"},
    {"path": "... and 3 more", "bytes": None, "problem": ""},
]
FAILED_RUN = {"ok": False, "cells": 2, "error": "KeyError: 'region'", "files": [],
              "output_tail": "Traceback (most recent call last):\nKeyError: 'region'"}
ANSWER = {"answer": "North has the highest mean price, 12.5.", "valid": True, "confidence": "high",
          "confidence_basis": "computed from outputs/means.csv", "caveats": ["12 rows had no region"],
          "asks": [{"id": "a1", "ask": "mean price by region", "answered": True, "answer": "north 12.5"}],
          "untraced_numbers": ["13.1"]}
PROFILE = DataProfile()
CONTEXTS: dict[str, PromptContext] = {
    "plan_maker": dict(
        task="t", data_profile="p", input_problems="- inputs/x.csv has no header", asks=ASKS, previous_plan="",
        review="", user_notes="", max_stages=5, profile=PROFILE,
    ),
    "plan_reviewer": dict(task="t", data_profile="p", asks=ASKS, plan="plan", previous_review="", profile=PROFILE,
                          max_stages=5),
    "confirmation": dict(subject="s", review="r"),
    "plan_parser": dict(task="t", plan="plan", asks=ASKS, previous_error=""),
    "task_reader": dict(task="t", slots=[], data_profile="p", profile=PROFILE, previous_error=""),
    "judge": dict(task="t", asks=ASKS, answer="a", parts=[PART], excerpts=[{"file": "outputs/a.json", "text": "1.5"}],
                  criteria=[CRITERIA[0].model_dump()]),
    "coding_agent": dict(
        task="t",
        data_profile="p",
        stages=STAGES,
        current=CURRENT,
        stage=STAGES[CURRENT],
        feedback="",
        previous_code="",
        last_error="",
        skills="- eda: explore a table",
        criteria=CRITERIA,
        profile=PROFILE,
    ),
    "code_reviewer": dict(task="t", stage=STAGES[CURRENT], execution=FAILED_RUN, summary="s",
                          files=["stages/03-plot-the-means/code.py"]),
    "criteria_checker": dict(task="t", criteria=CRITERIA, stages=STAGES, files=FILES, profile=PROFILE),
    "stage_reflector": dict(task="t", stages=STAGES, criteria=CRITERIA, latest=STAGES[1], stages_left=2,
                            profile=PROFILE),
    "summary_agent": dict(
        task="t",
        mode="orchestrated",
        run_status="completed - ok",
        files=FILES,
        earlier_run="",
        answer=ANSWER,
        profile=PROFILE,
        stages=STAGES,
        criteria=CRITERIA,
    ),
    "simple_coder": dict(task="t", data_profile="p", earlier_run="",
                         earlier_attempts=[{"attempt": 1, "ran": True, "error": "", "verdict": "a1 not answered"}],
                         skills="", profile=PROFILE),
    "answer_validator": dict(
        task="t", mode="orchestrated", asks=ASKS, files=FILES, profile=PROFILE, execution={}, summary="",
        stages=STAGES, criteria=CRITERIA,
    ),
    "simple_summary": dict(task="t", mode="simple", run_status="completed", files=FILES, earlier_run="",
                           answer=ANSWER, profile=PROFILE),
}


def test_every_template_is_covered():
    assert sorted(f"{name}.md.j2" for name in CONTEXTS) == template_names()


@pytest.mark.parametrize("name", sorted(CONTEXTS))
def test_template_renders_and_leaves_no_syntax(name):
    text = render(name, CONTEXTS[name])
    for residue in ("{{", "}}", "{%", "%}", "{#"):
        assert residue not in text
    assert "\n\n\n" not in text


@pytest.mark.parametrize("name", sorted(CONTEXTS))
def test_a_missing_variable_is_an_error(name):
    context = dict(CONTEXTS[name])
    context.pop(next(iter(context)))
    with pytest.raises(PromptError):
        render(name, context)


def test_empty_sections_are_left_out():
    text = render("coding_agent", CONTEXTS["coding_agent"])
    assert "## Reviewer feedback" not in text and "## Current stage" in text
    # a typed value that holds nothing to show leaves its section out too
    nothing_missing = render("coding_agent", {**CONTEXTS["coding_agent"], "criteria": CRITERIA[:1]})
    assert "## What the checks after earlier stages found missing" not in nothing_missing
    # (the report format in the static part names sections of the report: the per-call part is what is shown)
    no_stages = render_parts("summary_agent",
                             {**CONTEXTS["summary_agent"], "stages": [], "criteria": [], "files": []}).per_call
    assert "## Final answer" in no_stages
    for heading in ("## Plan", "## Stage results", "## Criteria", "## Files"):
        assert heading not in no_stages


def test_the_coder_sees_the_stages_and_what_the_checks_found_missing():
    text = render("coding_agent", CONTEXTS["coding_agent"])
    for line in ("1. [done] Audit the data", "2. [failed] Mean price by region", "3. [current] Plot the means",
                 "4. [upcoming] Test the difference",
                 "### 1. Audit the data (approved, dir stages/01-audit-the-data)", "12 rows without a region dropped.",
                 "### 2. Mean price by region (failed, dir stages/02-mean-price-by-region)", "(no summary)",
                 "Id: s3", "Expected outputs: figures/means.png",
                 "- the evidence quotes no p-value"):
        assert line in text, line
    assert "### 3. Plot the means" not in text   # a running stage is not finished
    assert "north 12.5" not in text               # the coder is not given the criteria met


def test_records_render_as_prompts_list_them():
    checker = render("criteria_checker", CONTEXTS["criteria_checker"])
    for line in ("- [c1] outputs/means.csv states the mean price per region (met: yes)",
                 "  evidence: outputs/means.csv: north 12.5, south 9.75",
                 "- [c2] outputs/anova.json states the p-value (met: no)",
                 "  the judge: the evidence quotes no p-value",
                 "- [c3] figures/means.png shows the means (met: no)",
                 "- outputs/means.csv (1,234 bytes)",
                 "- outputs/link.csv (not read: a link to outside the run directory)", "- ... and 3 more\n"):
        assert line in checker, line
    reviewer = render("code_reviewer", CONTEXTS["code_reviewer"])
    for line in ("status: error", "cells run: 2", "error: KeyError: 'region'", "output (tail):",
                 "- stages/03-plot-the-means/code.py"):
        assert line in reviewer, line
    summary = render("simple_summary", CONTEXTS["simple_summary"])
    for line in ("answer: North has the highest mean price, 12.5.", "valid: True",
                 "confidence: high (computed from outputs/means.csv)",
                 "ask a1 (mean price by region): answered - north 12.5", "caveat: 12 rows had no region",
                 "caveat: figures found in no output of executed code: 13.1"):
        assert line in summary, line
    reflector = render("stage_reflector", CONTEXTS["stage_reflector"])
    for line in ("- [s2] (failed) Mean price by region: Group by region; mean of price.",
                 "Mean price by region (failed after 3 attempt(s))",
                 "New stages you may still add after the last one: 2."):
        assert line in reflector, line


def test_the_validator_shows_the_execution_its_mode_has():
    orchestrated = render("answer_validator", CONTEXTS["answer_validator"])
    assert "status: ok\nstages approved: 1 of 4" in orchestrated and "cells run" not in orchestrated
    simple = render("answer_validator", {**CONTEXTS["answer_validator"], "mode": "simple", "execution": FAILED_RUN,
                                         "summary": "no result", "stages": [], "criteria": []})
    assert "status: error\ncells run: 2" in simple and "stages approved" not in simple
    assert "## Coder summary\nno result" in simple and "## Stage results" not in simple
    nothing_ran = render("answer_validator", {**CONTEXTS["answer_validator"], "mode": "simple", "execution": {},
                                              "summary": "", "stages": [], "criteria": []})
    assert "No code was executed in this attempt." in nothing_ran


def test_the_files_a_cell_wrote_are_named_once_in_the_execution_shown():
    execution = {"ok": True, "cells": 2, "error": "", "files": ["outputs/means.csv", "figures/box.png"],
                 "output_tail": "north 11.0\n[figures saved] figures/box.png\n[files written] outputs/means.csv"}
    shown = render("code_reviewer", {**CONTEXTS["code_reviewer"], "execution": execution})
    assert shown.count("outputs/means.csv") == 1 and shown.count("figures/box.png") == 1
    assert "files written:" not in shown
    # a file the tail does not name (cut off, or not printed) is still listed
    cut = {**execution, "output_tail": "north 11.0"}
    shown = render("code_reviewer", {**CONTEXTS["code_reviewer"], "execution": cut})
    assert "files written: outputs/means.csv, figures/box.png\n" in shown
