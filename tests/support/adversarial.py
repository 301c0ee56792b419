"""Text built to make a parser of user or model text go super-linear, and the parsers it is fed to.

Shared by tests/test_parsers_linear.py (ratio time(1 MB) / time(100 KB)) and bench/parsers.py (the
figures in BENCHMARKS.md). The shapes are the ones regexes and scanners trip on: unclosed code fences
followed by whitespace, long runs of one character, long tokens without a break, nested brackets,
many short lines. The offline model's own parsers (`agentic_ds/offline/`) are measured by its bench.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

SHAPES: dict[str, Callable[[int], str]] = {
    "prose": lambda n: _prose(n),
    "unclosed fence + spaces": lambda n: "```" + " " * (n - 3),
    "unclosed json fence + newlines": lambda n: "```json" + "\n" * (n - 7),
    "many unclosed fences": lambda n: "```json\n{" * (n // 9),
    "backticks": lambda n: "`" * n,
    "one long token": lambda n: "a" * n,
    "dotted path without extension": lambda n: "a." * (n // 2),
    "open braces": lambda n: "{" * n,
    "commas and spaces": lambda n: ("," + " " * 50) * (n // 51),
    "sentence ends": lambda n: ". " * (n // 2),
    "table pipes": lambda n: "| " * (n // 2),
    "empty lines": lambda n: "\n" * n,
    "brackets": lambda n: "[" * n,
    "traceback": lambda n: (
        "Traceback (most recent call last):\n  File \"<cell>\", line 3\nKeyError: 'x'\n" * (n // 70)
    )[:n],
}


def _prose(n: int) -> str:
    rng = random.Random(n)
    words = ["the", "mean", "of", "revenue", "by", "region", "is", "12.5", "inputs/sales.csv", "Error:", "then", "|"]
    return " ".join(rng.choice(words) for _ in range(n // 5))[:n]


def parsers(run_dir: Path) -> dict[str, Callable[[str], Any]]:
    """Every parser of user or model text outside `offline/`, as `text -> result` (`run_dir`: for the
    markdown renderer, which resolves images against a run directory)."""
    from agentic_ds.cli.progress import PlainRenderer
    from agentic_ds.context.compaction import ExtractiveSummarizer
    from agentic_ds.context.loop_detector import find_repeated_passage, normalise_error
    from agentic_ds.context.tokens import estimate_tokens
    from agentic_ds.report.markup import MarkdownRenderer
    from agentic_ds.skills import SkillLibrary, default_skills_dir
    from agentic_ds.workflow.structured import repair_json
    from agentic_ds.workspace import Workspace

    markdown = MarkdownRenderer(Workspace(run_dir))
    skills = SkillLibrary.load(default_skills_dir())
    return {
        "structured.repair_json": repair_json,
        "loop_detector.find_repeated_passage": find_repeated_passage,
        "loop_detector.stream (4 KB chunks)": stream_to_loop_detector,
        "loop_detector.normalise_error": normalise_error,
        "compaction.summarize_text": lambda text: ExtractiveSummarizer().summarize_text([text_event(text)]),
        "tokens.estimate_tokens": estimate_tokens,
        "skills.rank (the task)": skills.scored,
        "progress.format_event": lambda text: PlainRenderer.format_event({"kind": "text", "author": "a", "text": text}),
        "markup.render": markdown.render,
        **evidence_parsers(run_dir),
        **relay_parsers(run_dir),
    }


def evidence_parsers(run_dir: Path) -> dict[str, Callable[[str], Any]]:
    """The parsers that decide a run's status and grade an eval, each fed the text a model or user controls."""
    from agentic_ds.errors import UsageError
    from agentic_ds.evaluation.grading import grade
    from agentic_ds.evaluation.manifest import parse_line
    from agentic_ds.evidence.answers import check_answer
    from agentic_ds.evidence.asks import read_asks, slots
    from agentic_ds.evidence.citations import CitationCheck
    from agentic_ds.evidence.gates import Exempt, trace
    from agentic_ds.evidence.numbers import NumberIndex, extract
    from agentic_ds.evidence.sources import Cell, CodeEvidence
    from agentic_ds.schema import CriterionRecord
    from agentic_ds.workspace import Workspace

    task = "How did unemployment relate to inflation and real GDP growth over 1959-2009? Answer as @r[value]."
    stage = run_dir / "stages" / "01-a"
    stage.mkdir(parents=True, exist_ok=True)
    (stage / "cell_001.out.txt").write_text("r 12.5 p 0.46\n")
    cells = [Cell("stages/01-a/cell_001.py", True, "stages/01-a/cell_001.out.txt", [])]
    evidence = CodeEvidence(workspace=Workspace(run_dir), cells=cells)

    def indexed(text: str) -> bool:
        index = NumberIndex()
        index.add_text(text)
        return index.traces(extract("12.5")[0])

    def checked(text: str) -> Any:
        claim = {"valid": True, "answer": text, "asks": [{"id": "a1", "answered": True, "answer": text,
                                                          "files": ["stages/01-a/cell_001.out.txt"]}]}
        return check_answer(task, read_asks(None, task), claim, evidence)

    def cited(text: str) -> Any:
        criterion = CriterionRecord(id="c1", text="outputs/r.json holds r with its p-value", met=True, evidence=text)
        return CitationCheck(evidence, task).problem(criterion)

    def manifest_line(text: str) -> Any:
        try:
            return parse_line(run_dir / "manifest.jsonl", 1, text)
        except UsageError as refused:        # refusing a bad line is the answer; it must come as fast
            return refused.message

    return {
        "evidence.asks (the task's slots)": lambda text: (slots(text), read_asks(None, text)),
        "evidence.numbers.extract (an answer)": extract,
        "evidence.numbers.add_text (an output)": indexed,
        "evidence.check_answer (an answer)": checked,
        "evidence.gates.trace (an answer's part)": lambda text: trace(text, ["stages/01-a/cell_001.out.txt"],
                                                                       evidence, Exempt()),
        "evidence.citations (a criterion's evidence)": cited,
        "evaluation.grade (a final answer)": lambda text: grade(task, "numeric", {"r": 0.46}, {"answer": text}),
        "evaluation.manifest (a line)": manifest_line,
    }


def relay_parsers(run_dir: Path) -> dict[str, Callable[[str], Any]]:
    """What the relay and the replay server read of a request (model text in every message) and of a reply file."""
    import json

    from agentic_ds.testing.cassette import CassetteWriter, read_cassette
    from agentic_ds.testing.chat_request import read_request, reply_calls
    from agentic_ds.testing.relay_files import check_reply, render_delta, render_request

    def request_with(text: str) -> dict[str, Any]:
        tools = [{"type": "function", "function": {"name": "run_python", "parameters": {}}}]
        return {"messages": [
            {"role": "system", "content": text},
            {"role": "user", "content": text},
            {"role": "assistant", "content": text, "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "run_python", "arguments": text}}]},
            {"role": "tool", "tool_call_id": "c", "content": text},
            {"role": "assistant", "content": text},
            {"role": "user", "content": text},
        ], "tools": tools}

    def read(text: str) -> Any:
        request = read_request(request_with(text))
        return request.agent, request.trailing_exchanges(), render_request(1, request, "", 0)

    def delta(text: str) -> Any:
        before, now = read_request(request_with("x")), read_request(request_with(text))
        return render_delta(1, now, "", 1, (0, before))

    def reply(text: str) -> Any:
        request = read_request({"messages": [{"role": "system", "content": "x"}], "tools": request_with("")["tools"]})
        as_json = json.dumps({"content": text, "tool_calls": [{"name": "run_python", "arguments": text}]})
        return check_reply(text.encode(), request), check_reply(as_json.encode(), request), \
            reply_calls({"content": text}, request)

    def cassette(text: str) -> Any:
        path = run_dir / "cassette.jsonl"
        path.unlink(missing_ok=True)
        writer = CassetteWriter(path)
        try:
            writer.add(read_request(request_with(text)), "", {"content": text, "tool_calls": []})
        finally:
            writer.close()
        return read_cassette(path)

    return {
        "relay.read_request (a request)": read,
        "relay.render_delta (a request)": delta,
        "relay.check_reply (a reply file)": reply,
        "relay.cassette (write and read back)": cassette,
    }


def stream_to_loop_detector(text: str) -> Any:
    """What the loop guard does with one response: stream its text, then a tool call and an error carrying it."""
    from agentic_ds.context.loop_detector import LoopDetector

    detector = LoopDetector()
    for start in range(0, len(text), 4096):
        detector.on_text(text[start : start + 4096])
    detector.end_text()
    detector.on_tool_call("run_python", {"code": text})
    return detector.on_tool_result("run_python", text)


def text_event(text: str) -> Any:
    from google.adk.events import Event
    from google.genai import types

    return Event(author="coding_agent", content=types.Content(role="model", parts=[types.Part(text=text)]))
