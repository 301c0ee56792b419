"""Prompt caching: what stays the same between an agent's calls comes first in every request, and Claude models
get Anthropic's cache markers on it (checked on the bytes LiteLLM sends to a fake provider on 127.0.0.1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentic_ds.context.cache_markers import wants_cache_markers
from agentic_ds.context.per_call import is_per_call
from agentic_ds.profiling.model import DataProfile
from agentic_ds.schema import CriterionRecord, StageRecord, StageStatus
from agentic_ds.testing.harness import run_scripted
from agentic_ds.testing.scripted import call, text
from agentic_ds.workflow.prompting import render, render_parts, template_names
from tests.cache_marker_probe import PER_CALL, STATIC
from tests.conftest import CREDENTIAL_VARS
from tests.fake_provider import FakeProvider
from tests.workflow_scripts import BROKEN_CODE, approve, happy_scripts, write_sales

# Variables that are the same on every call of a run: they belong in the static part. Any other variable of a
# template is per-call and must sit below everything static.
RUN_STATIC = {"task", "asks", "data_profile", "input_problems", "max_stages", "mode", "slots", "earlier_run", "profile"}
STATIC_OF = {"plan_parser": {"plan"}}  # the parser re-asks about one plan
# Values that are not shown as text of their own: numbers, the data profile (records the offline model reads).
NOT_TEXT = {"max_stages", "profile", "current", "stages_left"}
# The variables each template gets, as its context builder (agentic_ds/workflow/*.py) gives them.
PROFILE = DataProfile()
CONTEXT_VARS = {
    "plan_maker": ["task", "data_profile", "input_problems", "asks", "previous_plan", "review", "user_notes",
                   "max_stages", "profile"],
    "plan_reviewer": ["task", "data_profile", "asks", "plan", "previous_review", "profile", "max_stages"],
    "confirmation": ["subject", "review"],
    "plan_parser": ["task", "plan", "asks", "previous_error"],
    "task_reader": ["task", "slots", "data_profile", "profile", "previous_error"],
    "judge": ["task", "asks", "answer", "parts", "excerpts", "criteria"],
    "coding_agent": ["task", "data_profile", "stages", "current", "stage", "feedback", "previous_code", "last_error",
                     "skills", "criteria", "profile"],
    "code_reviewer": ["task", "stage", "execution", "summary", "files"],
    "criteria_checker": ["task", "criteria", "stages", "files", "profile"],
    "stage_reflector": ["task", "stages", "criteria", "latest", "stages_left", "profile"],
    "summary_agent": ["task", "mode", "run_status", "files", "earlier_run", "answer", "profile", "stages", "criteria"],
    "simple_coder": ["task", "data_profile", "earlier_run", "earlier_attempts", "skills", "profile"],
    "answer_validator": ["task", "mode", "asks", "files", "profile", "execution", "summary", "stages", "criteria"],
    "simple_summary": ["task", "mode", "run_status", "files", "earlier_run", "answer", "profile"],
}
# The modes a template is rendered in (its agent's prompt in that mode, `agent_table`), and what the builder
# leaves empty in a mode: the validator shows the execution in simple mode and the stages in orchestrated mode.
MODES = {"answer_validator": ("simple", "orchestrated"), "simple_coder": ("simple",), "simple_summary": ("simple",)}
EMPTY_IN: dict[tuple[str, str], dict[str, object]] = {("answer_validator", "simple"): {"stages": [], "criteria": []},
            ("answer_validator", "orchestrated"): {"execution": {}, "summary": ""}}
SHOWS_MODE = {"summary_agent", "simple_summary"}  # the answer validator takes its mode as a switch, not as text
CASES = [pytest.param(name, mode, id=name if len(MODES.get(name, ("orchestrated",))) == 1 else f"{name}-{mode}")
         for name in sorted(CONTEXT_VARS) for mode in MODES.get(name, ("orchestrated",))]

# The two calls (tags A and B) differ in every per-call line, as two calls' values do, so a line the two prompts
# share below the static part can only be template text that belongs above it.
CURRENT = {"A": 1, "B": 2}


def stage(tag: str) -> StageRecord:
    return StageRecord(id=f"s-{tag}", title=f"PER-CALL-stage-{tag}", description=f"does {tag}",
                       expected_outputs=[f"out-{tag}"], status=StageStatus.RUNNING, attempts=1,
                       dir=f"stages/0{CURRENT[tag] + 1}-{tag}")


def stages(mark: str, tag: str) -> list[StageRecord]:
    """A: one stage failed, the current one second; B: one approved, one failed without a summary, then the
    current one."""
    done = {
        "A": [StageRecord(id="s1", title=f"{mark} audit", description=f"{mark} audit", status=StageStatus.FAILED,
                          attempts=3, summary=f"{mark}: no region column", dir="stages/01-audit")],
        "B": [StageRecord(id="s1", title=f"{mark} audit", description=f"{mark} audit", status=StageStatus.APPROVED,
                          attempts=1, summary=f"{mark}: 12 rows dropped", dir="stages/01-audit"),
              StageRecord(id="s2", title=f"{mark} means", description=f"{mark} means", status=StageStatus.FAILED,
                          attempts=3)],
    }[tag]
    pending = StageRecord(id="s9", title=f"{mark} plot", description=f"{mark} plot")
    return [*done, stage(tag), pending]


def criteria(mark: str, tag: str) -> list[CriterionRecord]:
    return {
        "A": [CriterionRecord(id="c1", text=f"{mark} mean", met=True, evidence=f"outputs/m.csv: {mark} 12.5"),
              CriterionRecord(id="c2", text=f"{mark} p-value", met=False, evidence=f"outputs/t.json: {mark} F 3.2",
                              judged=f"{mark}: no p-value quoted")],
        "B": [CriterionRecord(id="c1", text=f"{mark} mean", met=False, evidence=f"outputs/m.csv: {mark} 9.5"),
              CriterionRecord(id="c2", text=f"{mark} p-value")],
    }[tag]


def execution(mark: str, tag: str) -> dict:
    return {
        "A": {"ok": False, "cells": 1, "error": f"{mark} KeyError: 'region'", "files": [], "output_tail": ""},
        "B": {"ok": True, "cells": 3, "error": "", "files": [f"outputs/{mark}.csv"], "output_tail": f"{mark} 12.5"},
    }[tag]


def answer(mark: str, tag: str) -> dict:
    return {
        "A": {"answer": f"{mark} north 12.5", "valid": True, "confidence": "high", "confidence_basis": f"{mark} file",
              "asks": [{"id": "a1", "ask": f"{mark} mean", "answered": True, "answer": f"{mark} 12.5"}]},
        "B": {"answer": "", "valid": False, "confidence": "low", "caveats": [f"{mark} no output"],
              "asks": [{"id": "a1", "ask": f"{mark} mean", "answered": False, "why": f"{mark} not computed"}],
              "untraced_numbers": ["13.1"]},
    }[tag]


def files(mark: str, tag: str) -> list[dict]:
    return [{"path": f"outputs/{mark}.csv", "bytes": {"A": 1234, "B": 56}[tag], "problem": ""},
            {"path": f"outputs/{mark}-link", "bytes": 10, "problem": f"{mark} a link out of the run"}]


def earlier_attempts(mark: str, tag: str) -> list[dict]:
    return {"A": [{"attempt": 1, "ran": False, "error": f"{mark} NameError", "verdict": ""}],
            "B": [{"attempt": 2, "ran": True, "error": "", "verdict": f"{mark} a1 not answered"}]}[tag]


def latest(mark: str, tag: str) -> StageRecord:
    return StageRecord(id="s1", title=mark, status=StageStatus.APPROVED, attempts=CURRENT[tag],
                       summary=f"{mark} done")


# Values a template renders as data, not as text: each holds its tagged marker. By (template, variable), else by
# variable.
TYPED = {
    ("judge", "parts"): lambda mark, tag: [{"id": "a1", "ask": mark, "answer": mark, "files": [mark],
                                            "found": {"1.5": mark}}],
    ("judge", "criteria"): lambda mark, tag: [{"id": "c1", "text": mark, "evidence": mark}],
    ("judge", "excerpts"): lambda mark, tag: [{"file": mark, "text": mark}],
    ("judge", "answer"): lambda mark, tag: mark,
    ("code_reviewer", "files"): lambda mark, tag: [f"stages/02-{tag}/{mark}.py"],
    "stages": stages,
    "criteria": criteria,
    "execution": execution,
    "answer": answer,
    "files": files,
    "earlier_attempts": earlier_attempts,
    "latest": latest,
}


def context(name: str, tag: str, mode: str = "orchestrated") -> dict[str, object]:
    """Every variable filled; run-static ones the same whatever `tag`, per-call ones carrying `tag`."""
    static = RUN_STATIC | STATIC_OF.get(name, set())
    values: dict[str, object] = {}
    for var in CONTEXT_VARS[name]:
        mark = f"PER-CALL-{var}-{tag}"
        if var == "asks":
            values[var] = [{"id": "a1", "text": "RUN-STATIC-asks", "slot": ""}]
        elif var == "slots":
            values[var] = ["RUN-STATIC-slots"]
        elif var == "mode":
            values[var] = mode
        elif var == "profile":
            values[var] = PROFILE
        elif var in static:
            values[var] = 5 if var == "max_stages" else f"RUN-STATIC-{var}"
        elif (name, var) in TYPED:
            values[var] = TYPED[name, var](mark, tag)
        elif var in TYPED:
            values[var] = TYPED[var](mark, tag)
        elif var == "stage":
            values[var] = stage(tag)
        elif var == "current":
            values[var] = CURRENT[tag]
        elif var == "stages_left":
            values[var] = {"A": 1, "B": 0}[tag]
        else:
            values[var] = mark
    return {**values, **EMPTY_IN.get((name, mode), {})}


def test_every_template_is_covered():
    assert sorted(f"{name}.md.j2" for name in CONTEXT_VARS) == template_names()


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_everything_static_comes_before_anything_that_changes_between_calls(name, mode):
    a, b = render_parts(name, context(name, "A", mode)), render_parts(name, context(name, "B", mode))
    # the static part (the system instruction) is the same whatever changes between calls, and holds none of it
    assert a.static == b.static
    assert "PER-CALL" not in a.static and "s-A" not in a.static
    for var in set(CONTEXT_VARS[name]) & (RUN_STATIC | STATIC_OF.get(name, set())) - NOT_TEXT - {"mode"}:
        assert f"RUN-STATIC-{var}" in a.static, var
    if name in SHOWS_MODE:
        assert f"## Mode\n{mode}\n" in a.static
    # the role, rules and answer format are static: in the whole prompt, every line that is the same for both
    # contexts sits in the static part, except the headings of per-call sections
    full_a, full_b = render(name, context(name, "A", mode)), render(name, context(name, "B", mode))
    shared = set(full_a.splitlines()) & set(full_b.splitlines())
    stray = [line for line in shared if line.strip() and not line.startswith("## ") and line not in a.static]
    assert not stray, f"static text below a per-call section in {name}.md.j2: {stray}"
    # nothing per-call is lost: it is all in the per-call part (but what the builder leaves empty in this mode)
    per_call = set(CONTEXT_VARS[name]) - RUN_STATIC - STATIC_OF.get(name, set()) - NOT_TEXT
    for var in per_call - set(EMPTY_IN.get((name, mode), {})):
        assert f"PER-CALL-{var}-A" in a.per_call, var
    if "stage" in CONTEXT_VARS[name]:
        assert "Id: s-A" in a.per_call
    if "stages_left" in CONTEXT_VARS[name]:
        assert "after the last one: 1." in a.per_call and "No new stage can be" in b.per_call
    assert full_a.startswith(a.static) and full_a.rstrip().endswith(a.per_call.rstrip())


# The run's shared context, in its order: what an agent's template takes of it leads its static part, the same bytes
# in every agent's, so a provider's prompt cache serves it from any agent's earlier request.
SHARED_CONTEXT = {"task": "## Task\nRUN-STATIC-task\n", "data_profile": "## Data profile\nRUN-STATIC-data_profile\n",
                  "asks": "## What the task asks\n- [a1] RUN-STATIC-asks\n"}


@pytest.mark.parametrize(("name", "mode"), [case for case in CASES if "task" in CONTEXT_VARS[case.values[0]]])
def test_the_runs_shared_context_leads_every_system_text_then_the_agents_own_instructions(name, mode):
    static = render_parts(name, context(name, "A", mode)).static
    given = [SHARED_CONTEXT[var] for var in SHARED_CONTEXT if var in CONTEXT_VARS[name]]
    head = "\n".join(given)
    assert static.startswith(head), f"{name}.md.j2 does not start with the shared context: {static[:300]!r}"
    # the agent's own instructions follow it, not another shared section
    assert not static[len(head):].lstrip().startswith(("## Task", "## Data profile", "## What the task asks"))


async def test_an_agents_requests_share_their_static_head_and_its_turn_grows_at_the_end(tmp_path):
    outcome, models = await run_scripted(tmp_path, "Mean price by region?", [write_sales(tmp_path / "data")],
                                         happy_scripts())
    assert outcome.status == "completed", outcome.reason
    coder = models["coding_agent"].requests  # stage 1: call, answer; stage 2: call, answer
    assert len(coder) == 4
    # the system instruction and the tools are identical on every call, across stages too
    assert len({r.config.system_instruction for r in coder}) == 1
    assert len({str(r.config.tools) for r in coder}) == 1
    system = coder[0].config.system_instruction
    for static in ("## Rules", "## Task", "## Data profile", "inputs/sales.csv"):
        assert static in system
    assert "## Current stage" not in system and "## Stage map" not in system
    # the per-call part leads the contents and names the stage of its call
    for request, stage_id in zip(coder, ["s1", "s1", "s2", "s2"], strict=True):
        head = request.contents[0]
        assert is_per_call(head) and f"Id: {stage_id}" in head.parts[0].text
    # within a turn the next request is the previous one plus the new exchange: a common prefix
    for first, second in ((coder[0], coder[1]), (coder[2], coder[3])):
        assert second.contents[: len(first.contents)] == first.contents
        assert len(second.contents) > len(first.contents)
    # the reviewer's static head is the same for both stages as well
    reviewer = models["code_reviewer"].requests
    assert reviewer[0].config.system_instruction == reviewer[1].config.system_instruction
    # across agents: each system text starts with the run's shared context (task, data profile), the same bytes,
    # and ends with ADK's identity line, once: the agents' requests share their head, not only each its own
    shared = system[: system.index("You are the data scientist")]
    assert shared.startswith("## Task\nMean price by region?") and "## Data profile" in shared
    for name in ("plan_maker", "plan_reviewer"):
        assert models[name].requests[0].config.system_instruction.startswith(shared), name
    for name, model in models.items():
        text = model.requests[0].config.system_instruction
        assert text.startswith("## Task\nMean price by region?\n"), name
        assert text.count("Your internal name is") == 1
        assert text.rstrip().endswith(f'You are an agent. Your internal name is "{name}".'), name


async def test_a_retry_shows_the_code_and_error_it_began_with_so_its_turn_stays_a_common_prefix(tmp_path):
    scripts = happy_scripts()
    scripts["coding_agent"][2:2] = [call("run_python", code=BROKEN_CODE), text("Computed the mean prize.")]
    scripts["code_reviewer"] = approve() + [text("CHANGES REQUESTED\n1. Column 'prize' does not exist.")] + approve()
    outcome, models = await run_scripted(tmp_path, "Mean price by region?", [write_sales(tmp_path / "data")], scripts)
    assert outcome.status == "completed", outcome.reason
    coder = models["coding_agent"].requests   # s1: call, answer; s2 attempt 1: call, answer; attempt 2: call, answer
    first, second = coder[4], coder[5]
    head = first.contents[0].parts[0].text
    assert "## Code already run in this stage" in head and "df['prize']" in head and "KeyError" in head
    # the second call of the attempt (after a cell that ran fine) is the first one plus its exchange: the code and
    # error shown are still those the attempt began with
    assert second.contents[: len(first.contents)] == first.contents
    assert len(second.contents) > len(first.contents)


@pytest.mark.parametrize(("spec", "wanted"), [
    ("anthropic/claude-sonnet-4-5", True), ("bedrock/anthropic.claude-3-5-sonnet", True),
    ("vertex_ai/claude-sonnet-4@20250514", True), ("openai/gpt-4o", False), ("ollama_chat/llama3", False),
    ("openai/claude-proxy", False), ("deepseek/deepseek-chat", False), ("gemini/gemini-2.5-flash", False),
])
def test_only_claude_models_get_cache_markers(spec, wanted):
    assert wants_cache_markers(spec) is wanted


PROBE = Path(__file__).with_name("cache_marker_probe.py")
CLAUDE = "anthropic/claude-sonnet-4-5"
HOSTED_OPENAI = "openai/gpt-4o"
LOCAL = "openai/qwen2.5-7b-instruct"
# A hosted provider's native features, for the stand-in on 127.0.0.1 (a local api_base would otherwise start
# from the most compatible settings: tools in the text protocol, string content).
NATIVE = {"tool_calling": "native", "message_content": "parts", "structured_output": "json_schema"}


@pytest.fixture(scope="module")
def sent() -> dict[str, dict]:
    """What LiteLLM sent for each case, keyed by case, through the product's own model factory, to a fake
    provider on 127.0.0.1 (`cache_marker_probe.py` runs in a process of its own, without credentials)."""
    with FakeProvider() as provider:
        cases = [
            {"spec": CLAUDE, "api_base": provider.url, "options": NATIVE},
            {"spec": HOSTED_OPENAI, "api_base": provider.url + "/v1", "options": NATIVE},
            {"spec": LOCAL, "api_base": provider.url + "/v1"},
            {"spec": CLAUDE, "api_base": provider.url, "options": NATIVE,
             "extra": {"cache_control_injection_points": []}},
        ]
        env = {k: v for k, v in os.environ.items() if k not in CREDENTIAL_VARS and not k.startswith("AGENTIC_DS_")}
        done = subprocess.run([sys.executable, str(PROBE), json.dumps(cases)], env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        assert [json.loads(line)["reply"] for line in done.stdout.splitlines()] == ["ok"] * len(cases)
    assert len(provider.bodies) == len(cases)
    keys = [CLAUDE, HOSTED_OPENAI, LOCAL, "claude, markers off"]
    return {
        key: {"path": path, "body": body} for key, path, body in zip(keys, provider.paths, provider.bodies, strict=True)
    }


def markers(value) -> int:
    if isinstance(value, dict):
        return ("cache_control" in value) + sum(markers(v) for v in value.values())
    if isinstance(value, list):
        return sum(markers(v) for v in value)
    return 0


def test_claude_gets_a_cache_marker_on_the_static_system_prompt_and_on_the_turn(sent):
    path, body = sent[CLAUDE]["path"], sent[CLAUDE]["body"]
    assert path.endswith("/messages")
    # the system prompt is exactly the static part, marked: with the tools before it, the cached prefix
    assert [block["text"] for block in body["system"]] == [STATIC]
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert [tool["name"] for tool in body["tools"]] == ["list_files"] and markers(body["tools"]) == 0
    # the other marker is on the last block of the last message (the turn so far); the per-call part, first in
    # the messages, carries none of its own
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    first_block = body["messages"][0]["content"][0]
    assert PER_CALL in first_block["text"] and "cache_control" not in first_block
    assert markers(body) == 2


@pytest.mark.parametrize("spec", [HOSTED_OPENAI, LOCAL])
def test_other_providers_get_no_cache_marker(sent, spec):
    path, body = sent[spec]["path"], sent[spec]["body"]
    assert path.endswith("/chat/completions")
    assert markers(body) == 0
    # the static part heads the system message (a local model gets the text-protocol tool list after it)
    system = body["messages"][0]
    assert system["role"] == "system" and system["content"].startswith(STATIC)
    first = body["messages"][1]["content"]
    first = first if isinstance(first, str) else first[0]["text"]
    assert PER_CALL in first


def test_a_users_own_injection_points_replace_the_markers(sent):
    assert markers(sent["claude, markers off"]["body"]) == 0
