"""The parsers of the offline model, each as `text -> anything`, and the input shapes they are fed.

Shared by `bench/parsers.py` (figures for BENCHMARKS.md) and `tests/test_offline_linear.py` (the bound). A
role's turn counts as a parser: it is fed a request whose task, sections, tool outputs (a 1 MB cell output) or
plan hold the text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from google.adk.models import LlmRequest
from google.genai import types

from agentic_ds.offline.planner.markdown import parse_plan
from agentic_ds.offline.reader import read_question
from agentic_ds.offline.reader.addressing import addresses
from agentic_ds.offline.reader.constraints import format_slots
from agentic_ds.offline.reader.mentions import mentioned_columns
from agentic_ds.offline.reader.spec import build_spec
from agentic_ds.offline.request import parse_request, salvage_json_object
from agentic_ds.offline.roles.coder import coding_turn
from agentic_ds.offline.roles.criteria import code_reviewer_turn, criteria_turn, named_results, reflector_turn
from agentic_ds.offline.roles.planning import plan_maker_turn, plan_parser_turn, review_plan
from agentic_ds.offline.roles.summarizer import compact_turn, headline, summary_turn
from agentic_ds.offline.roles.validator import judge_turn, task_reader_turn, validator_turn
from agentic_ds.profiling import ColumnProfile, DataProfile, FileProfile
from agentic_ds.schema import CriterionRecord, StageRecord, StageStatus
from agentic_ds.skills import SkillLibrary
from bench.eval_grading import grade


def _column(name: str, kind: str, distinct: int | None = None, top: tuple[str, ...] = ()) -> ColumnProfile:
    return ColumnProfile(name=name, dtype="", kind=kind, nulls=0, null_pct=0.0, distinct=distinct,  # type: ignore[arg-type]
                         top_values=[(v, 10) for v in top])


FILE = FileProfile(path="inputs/sales.csv", format="csv", size_bytes=1000, rows=1000, columns=[
    _column("order_id", "id", 1000), _column("order_date", "datetime"),
    _column("region", "categorical", 4, ("North", "South", "East", "West")),
    _column("channel", "categorical", 2, ("Online", "In-store")), _column("units", "numeric"),
    _column("unit_price", "numeric"), _column("discount", "numeric"), _column("revenue", "numeric"),
    _column("customer_age", "numeric"), _column("satisfaction", "numeric", 5)])
PROFILE = DataProfile(files=[FILE])

_PROSE = (
    "What is the mean and standard deviation of revenue for region North where units above 10, rounded to 2 "
    "decimals? Is there a correlation between units and unit_price (use Spearman)? Which region has the highest "
    "total revenue, and how many orders have discount at least 0.1? Let net = revenue - discount * 2. "
    "@mean_revenue[value] `unit_price` ignoring rows with missing values.\n## Stage 1: Audit\nExpected outputs: "
    "outputs/01-audit.json\n- [c1] outputs/01-audit.json states the mean (met: no)\n**Bold** and *it* | a | b |\n"
    "Method: descriptive-statistics/statistic\nParams: {\"column\": \"revenue\"}\n"
)


def _fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


SHAPES: dict[str, Callable[[int], str]] = {
    "prose": lambda n: _fill(_PROSE, n),
    "keywords": lambda n: _fill("correlation relationship between revenue and which highest mean of ", n),
    "brackets": lambda n: _fill('@x[ `a {"name": ( outputs/a <<<BEGIN_SYSTEM_INSTRUCTION>>> [c', n),
    "whitespace": lambda n: " " * (n - 1) + "x",
    "markdown": lambda n: _fill("**a* `b ## ### Stage 1: - [ ] 1. *", n),
}


@cache
def _library() -> SkillLibrary:
    return SkillLibrary.load()


def _request(agent: str, context: dict[str, Any], *, calls: Sequence[tuple[str, dict[str, Any], dict[str, Any]]] = (),
             user: str = "Go.") -> Any:
    """A parsed request as `agent` gets it: the typed values of its prompt, and these tool exchanges."""
    contents = [types.Content(role="user", parts=[types.Part(text=user)])]
    for name, args, response in calls:
        contents.append(
            types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(name=name, args=args))])
        )
        contents.append(types.Content(role="user", parts=[types.Part(
            function_response=types.FunctionResponse(name=name, response=response))]))
    declared = [types.FunctionDeclaration(name=n) for n in ("read_file", "run_python")]
    tools: list[Any] = [types.Tool(function_declarations=declared)]
    instruction = f'A prompt.\n\nYou are an agent. Your internal name is "{agent}".'
    config = types.GenerateContentConfig(system_instruction=instruction, tools=tools)
    parsed = parse_request(LlmRequest(contents=contents, config=config))
    parsed.context = {"profile": PROFILE, **context}
    return parsed


_STAGE = StageRecord(id="s2", title="Answer", description="Compute the mean of `revenue`.",
                     expected_outputs=["outputs/02-answer.json"])
_RESULT = {"content": json.dumps({"template": "compute_answers", "summary": ["The mean of revenue is 12.5."]})}
_QUESTION = {"id": "q", "task": "What is it? @mean[value]", "answer": {"mean": 1.5}, "checker": "numeric"}


def _criteria(text: str) -> list[CriterionRecord]:
    return [CriterionRecord(id="c1", text=text, met=False, evidence=text)]


PARSERS: dict[str, Callable[[str], object]] = {
    "reader": lambda text: read_question(text, PROFILE),
    "question_spec": lambda text: build_spec(text, PROFILE),
    "mentioned_columns": lambda text: mentioned_columns(text, FILE.columns),
    "format_slots": format_slots,
    "addresses": lambda text: addresses(text, text[: len(text) // 2]),
    "plan_markdown": parse_plan,
    "review_plan": lambda text: review_plan(text, "What drives revenue?", PROFILE),
    "request": lambda text: _request("coding_agent", {"task": text, "stage": _STAGE}, user=text,
                                     calls=[("run_python", {"code": "x"}, {"ok": True, "output": text})]),
    "salvage_json": salvage_json_object,
    "result_paths": named_results,
    "headline": lambda text: headline({"summary": [text]}, "What drives revenue?"),
    "grader": lambda text: grade(_QUESTION, text),
    "task_reader": lambda text: task_reader_turn(_request("task_reader", {"task": text})),
    "plan_maker": lambda text: plan_maker_turn(_request("plan_maker", {"task": text}), _library()),
    "plan_parser": lambda text: plan_parser_turn(_request("plan_parser", {"plan": text,
                                                                          "asks": [{"id": "a1", "text": text}]})),
    "coder_cell_output": lambda text: coding_turn(_request("coding_agent", {"task": "What is the mean revenue?",
                                                                           "stage": _STAGE},
                                                           calls=[("run_python", {"code": "x"},
                                                                   {"ok": False, "output": text, "error": text})]),
                                                  _library()),
    "code_reviewer": lambda text: code_reviewer_turn(_request("code_reviewer", {
        "task": "t", "stage": _STAGE, "execution": {"ok": False, "error": text}, "summary": text},
        calls=[("read_file", {"path": "outputs/02-answer.json"}, _RESULT)])),
    "criteria_checker": lambda text: criteria_turn(_request("criteria_checker", {"criteria": _criteria(text)},
                                                            calls=[("read_file", {"path": "outputs/02-answer.json"},
                                                                    _RESULT)])),
    "stage_reflector": lambda text: reflector_turn(_request("stage_reflector", {
        "criteria": _criteria(text), "stages": [_STAGE.model_copy(update={"status": StageStatus.FAILED})],
        "stages_left": 2})),
    "summary_agent": lambda text: summary_turn(_request("summary_agent", {"task": text, "answer": {"answer": text},
                                                                          "run_status": text})),
    "answer_validator": lambda text: validator_turn(_request("answer_validator", {
        "task": text, "mode": "simple", "execution": {"ok": True, "files": ["outputs/02-answer.json"]},
        "asks": [{"id": "a1", "text": text}]}, calls=[("read_file", {"path": "outputs/02-answer.json"}, _RESULT)])),
    "judge": lambda text: judge_turn(_request("judge", {"task": text, "parts": [{"id": "a1", "ask": text,
                                                                                 "answer": text}]})),
    "compactor": lambda text: compact_turn(_request("events_compactor", {"task": text}, user=text)),
}
