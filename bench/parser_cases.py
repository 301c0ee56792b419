"""The parsers of the offline model, each as `text -> anything`, and the input shapes they are fed.

Shared by `bench/parsers.py` (figures for BENCHMARKS.md) and `tests/test_offline_linear.py` (the bound). A
role's turn counts as a parser: it is fed a request whose task, sections, tool outputs (a 1 MB cell output) or
plan hold the text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from google.adk.models import LlmRequest
from google.genai import types

from agentic_ds.offline.coder import coding_turn
from agentic_ds.offline.columns import match_column, mentioned_columns
from agentic_ds.offline.compactor import compact_turn
from agentic_ds.offline.constraints import format_slots
from agentic_ds.offline.criteria import criteria_turn, parse_criteria
from agentic_ds.offline.intent import parse_intent
from agentic_ds.offline.methods import read_method
from agentic_ds.offline.plan_markdown import parse_plan
from agentic_ds.offline.plan_roles import plan_maker_turn, plan_parser_turn, review_plan
from agentic_ds.offline.profile import salvage_profile
from agentic_ds.offline.question import bind_question
from agentic_ds.offline.reflector import reflector_turn
from agentic_ds.offline.reply import result_paths
from agentic_ds.offline.request import parse_request, salvage_json_object, split_sections
from agentic_ds.offline.reviewer import code_reviewer_turn
from agentic_ds.offline.spec import build_spec
from agentic_ds.offline.steps import parse_stage
from agentic_ds.offline.summarizer import headline, summary_turn
from agentic_ds.offline.validator import validator_turn
from agentic_ds.profiling import ColumnProfile, DataProfile, FileProfile
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
PROFILE_JSON = json.dumps(PROFILE.to_json())

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


def _request(agent: str, sections: dict[str, str], *, calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = (),
             user: str = "Go.") -> Any:
    """A parsed request as `agent` gets it: its prompt sections, the profile read, and these tool exchanges."""
    instruction = "\n".join(f"## {title}\n{body}" for title, body in sections.items())
    instruction += f'\n\nYou are an agent. Your internal name is "{agent}".'
    exchanges = [("read_file", {"path": "data_profile.json"}, {"content": PROFILE_JSON, "truncated": False}), *calls]
    contents = [types.Content(role="user", parts=[types.Part(text=user)])]
    for name, args, response in exchanges:
        contents.append(
            types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(name=name, args=args))])
        )
        contents.append(types.Content(role="user", parts=[types.Part(
            function_response=types.FunctionResponse(name=name, response=response))]))
    tools = [types.Tool(function_declarations=[types.FunctionDeclaration(name=n) for n in ("read_file", "run_python")])]
    config = types.GenerateContentConfig(system_instruction=instruction, tools=tools)
    return parse_request(LlmRequest(contents=contents, config=config))


_STAGE = "Id: s2\nTitle: Answer\nDescription: Compute the mean of `revenue`.\nExpected outputs: outputs/02-answer.json"
_QUESTION = {"id": "q", "task": "What is it? @mean[value]", "answer": {"mean": 1.5}, "checker": "numeric"}

PARSERS: dict[str, Callable[[str], object]] = {
    "intent": parse_intent,
    "question_spec": lambda text: build_spec(text, PROFILE),
    "bind_question": lambda text: bind_question(parse_intent(text), FILE),
    "mentioned_columns": lambda text: mentioned_columns(text, FILE.columns),
    "match_column": lambda text: match_column(text, FILE.columns),
    "format_slots": format_slots,
    "plan_markdown": parse_plan,
    "review_plan": lambda text: review_plan(text, "What drives revenue?", PROFILE),
    "split_sections": split_sections,
    "request": lambda text: _request("coding_agent", {"Task": text, "Current stage": _STAGE}, user=text,
                                     calls=[("run_python", {"code": "x"}, {"ok": True, "output": text})]),
    "salvage_json": salvage_json_object,
    "salvage_profile": salvage_profile,
    "criteria_text": parse_criteria,
    "result_paths": result_paths,
    "stage_block": parse_stage,
    "method_lines": read_method,
    "headline": lambda text: headline({"summary": [text]}, "What drives revenue?"),
    "grader": lambda text: grade(_QUESTION, text),
    "plan_maker": lambda text: plan_maker_turn(_request("plan_maker", {"Task": text}), _library()),
    "plan_parser": lambda text: plan_parser_turn(_request("plan_parser", {"Task": "t", "Plan": text})),
    "coder_cell_output": lambda text: coding_turn(_request("coding_agent", {"Task": "What is the mean revenue?",
                                                                           "Current stage": _STAGE},
                                                           calls=[("run_python", {"code": "x"},
                                                                   {"ok": False, "output": text, "error": text})]),
                                                  _library()),
    "code_reviewer": lambda text: code_reviewer_turn(_request("code_reviewer", {
        "Task": "t", "Current stage": _STAGE, "Execution": text, "Coder summary": text})),
    "criteria_checker": lambda text: criteria_turn(_request("criteria_checker", {"Success criteria": text,
                                                                                 "Stage results": text})),
    "stage_reflector": lambda text: reflector_turn(_request("stage_reflector", {"Stages": text, "Criteria": text})),
    "summary_agent": lambda text: summary_turn(_request("summary_agent", {"Task": text, "Stage results": text,
                                                                          "Criteria": text, "Run status": text})),
    "answer_validator": lambda text: validator_turn(_request("answer_validator", {"Task": text, "Execution": text,
                                                                                  "Coder summary": text})),
    "compactor": lambda text: compact_turn(_request("events_compactor", {"Task": text}, user=text)),
}
