"""The reports cap what they quote from a model, and say how the model calls went (and which one failed)."""

from __future__ import annotations

import json

from agentic_ds.report.quotes import REPORT_TEXT_CHARS, quote
from agentic_ds.report.writer import write_reports
from agentic_ds.workspace import Workspace
from tests.report_fixtures import make_run

FAILURE = {
    "calls": 7, "attempts": 10, "retries": 3, "wait_s": 6.5, "timeouts": 1, "failures": 1, "replies_capped": 1,
    "step_downs": ["openai/local: rejected list content: sending plain strings from now on"],
    "by_model": {}, "capabilities": {},
    "failure": {"model": "openai/local", "api_base": "http://127.0.0.1:8080/v1", "agent": "code_reviewer",
                "where": "in stage 2 of 3: Compare regions", "kind": "auth", "status": 401,
                "message": "key revoked", "attempts": 1, "hint": "the API key was refused"},
}


def test_a_runaway_model_report_is_capped_in_both_reports_and_rewriting_is_stable(tmp_path):
    root = make_run(tmp_path)
    (root / "report.md").write_text("# Report\n\n" + "All work and no play. " * 20_000, encoding="utf-8")
    md, html = write_reports(Workspace(root))
    first = md.read_text(encoding="utf-8")
    assert len(first) < REPORT_TEXT_CHARS + 20_000 and "characters in all; the rest is in" in first
    assert html.stat().st_size < 400_000
    write_reports(Workspace(root))
    assert md.read_text(encoding="utf-8") == first


def test_huge_answers_warnings_and_reasons_are_quoted_not_copied(tmp_path):
    root = make_run(tmp_path, final_answer={"answer": "x" * 100_000, "caveats": ["c" * 50_000] * 200},
                    warnings=["w" * 50_000], reason="r" * 50_000)
    md, html = write_reports(Workspace(root))
    assert len(md.read_text(encoding="utf-8")) < 60_000
    assert html.stat().st_size < 500_000


def test_the_failed_call_is_named_with_agent_stage_endpoint_and_hint(tmp_path):
    root = make_run(tmp_path, status="failed", reason="model call to openai/local failed", calls=FAILURE)
    md, html = write_reports(Workspace(root))
    for text in (md.read_text(encoding="utf-8"), html.read_text(encoding="utf-8")):
        assert "Model calls: 7 answered, 3 retries (6.5 s waiting), 1 timeout, 1 oversized reply cut." in text
        assert (
            "code_reviewer (in stage 2 of 3: Compare regions) calling openai/local at http://127.0.0.1:8080/v1" in text
        )
        assert "key revoked" in text and "the API key was refused" in text
        assert "rejected list content" in text
    assert json.loads((root / "run.json").read_text())["calls"]["failure"]["agent"] == "code_reviewer"


def test_quote_is_bounded_and_idempotent():
    text = "a" * 10_000
    once = quote(text, 1_000)
    assert len(once) <= 1_000 and quote(once, 1_000) == once and quote("short", 1_000) == "short"


def test_a_run_whose_models_made_no_requests_says_nothing_about_model_calls(tmp_path):
    """The offline model answers in process: its runs record the policy but no request, and no "0 answered"."""
    root = make_run(tmp_path, calls={"calls": 0, "attempts": 0, "timeout_s": 120.0, "max_retries": 5})
    md, html = write_reports(Workspace(root))
    for text in (md.read_text(encoding="utf-8"), html.read_text(encoding="utf-8")):
        assert "Model calls:" not in text
