"""Every prompt template renders with StrictUndefined; a missing variable is an error, never a placeholder."""

import pytest

from agentic_ds.workflow.prompting import PromptError, render, template_names

STAGE = {"id": "s1", "title": "T", "description": "D", "expected_outputs": ["outputs/x.csv"]}
ASKS = [{"id": "a1", "text": "t", "slot": ""}]
PART = {"id": "a1", "ask": "t", "answer": "1.5", "files": ["outputs/a.json"], "found": {"1.5": "outputs/a.json: 1.5"}}
CONTEXTS = {
    "plan_maker": dict(
        task="t", asks=ASKS, data_profile="p", input_problems="", previous_plan="", review="", user_notes="",
        max_stages=5
    ),
    "plan_reviewer": dict(task="t", data_profile="p", plan="plan", previous_review=""),
    "confirmation": dict(subject="s", review="r"),
    "plan_parser": dict(plan="plan", asks=ASKS, previous_error=""),
    "task_reader": dict(task="t", slots=[], data_profile="p", previous_error=""),
    "judge": dict(task="t", asks=ASKS, answer="a", parts=[PART], criteria=[{"id": "c1", "text": "c", "evidence": "e"}],
                  excerpts=[{"file": "outputs/a.json", "text": "1.5"}]),
    "coding_agent": dict(
        task="t",
        data_profile="p",
        stage_map="",
        finished_stages="",
        stage=STAGE,
        feedback="",
        last_error="",
        previous_code="",
        skills="",
        missing="",
    ),
    "code_reviewer": dict(task="t", stage=STAGE, execution="e", summary="s", files=""),
    "criteria_checker": dict(task="t", criteria="c", stage_results="", files=""),
    "stage_reflector": dict(task="t", stages="s", criteria="c", latest="", stages_left=2),
    "summary_agent": dict(
        task="t",
        mode="orchestrated",
        run_status="completed - ok",
        answer="a",
        plan="",
        stage_results="",
        criteria="",
        files="",
        earlier_run="",
    ),
    "simple_coder": dict(task="t", data_profile="p", earlier_attempts="", skills="", earlier_run=""),
    "answer_validator": dict(
        task="t", asks=ASKS, execution="e", summary="s", stage_results="", criteria="", files=""
    ),
    "simple_summary": dict(task="t", mode="simple", run_status="completed", answer="a", files="", earlier_run=""),
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
