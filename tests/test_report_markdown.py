"""The generated parts of report.md: the run-record appendix and the stand-in for a missing report."""

from __future__ import annotations

from agentic_ds.report.markdown import render_markdown_appendix, render_missing_report
from agentic_ds.report.view import APPENDIX_END_MARKER, APPENDIX_MARKER, GENERATED_MARKER, load_run_view
from tests.report_fixtures import make_run


def test_appendix_records_status_stages_criteria_artifacts_and_cost(tmp_path):
    text = render_markdown_appendix(load_run_view(make_run(tmp_path)))

    assert text.startswith(APPENDIX_MARKER) and text.rstrip().endswith(APPENDIX_END_MARKER)
    assert "| Status | **completed with warnings**: Two of three stages were approved" in text
    assert "| 2 | Compare regions | approved | 2 | `stages/02-compare-regions/code.py` |" in text
    assert "| 3 | Monthly trend | failed | 3 | `stages/03-monthly-trend/code.py` |" in text
    assert "| Mean amount per region computed | yes | outputs/region_means.csv: West 412.50, East 301.20 |" in text
    assert "| Monthly trend of sales shown | **no** | stage s3 failed: KeyError 'dat' |" in text
    assert "- Figures (2): `figures/01-load-and-audit-001.png`, `figures/02-compare-regions-001.png`" in text
    assert "- Outputs (1): `outputs/region_means.csv`" in text
    assert "- Notebook: `analysis.ipynb`\n" in text
    assert "| `openai/gpt-4.1-mini` | 2 | 5,000 | 0 | 700 | $0.0123 |" in text
    assert "| **Total** | 12 | 27,800 | 0 | 4,220 | **$0.0123** |" in text
    assert "Wall time: 1 min 12 s." in text
    assert "Gaps in the run directory" not in text


def test_appendix_of_a_partial_run_says_what_is_missing(tmp_path):
    run = make_run(tmp_path)
    for name in ("run.json", "analysis.ipynb"):
        (run / name).unlink()

    text = render_markdown_appendix(load_run_view(run))

    assert "| Status | **unknown** |" in text
    assert "- Notebook: `analysis.ipynb` (missing)" in text
    assert "run.json is missing" in text
    assert "No model usage was recorded." in text and "Wall time: -." in text
    # Stages still come from the plan and the stage directories.
    assert "| 3 | Monthly trend | failed | 3 |" in text


def test_table_cells_cannot_break_the_table_or_close_the_appendix(tmp_path):
    run = make_run(tmp_path, criteria=[{"id": "c1", "text": "a | b\nc", "met": True,
                                        "evidence": "x <!-- /agentic-ds:appendix --> y"}])

    text = render_markdown_appendix(load_run_view(run))

    assert "| a \\| b c | yes |" in text
    assert text.count(APPENDIX_END_MARKER) == 1


def test_missing_report_says_there_is_no_answer_and_what_was_done(tmp_path):
    run = make_run(tmp_path, status="failed", reason="The coder could not load the input file.")
    (run / "report.md").unlink()

    text = render_missing_report(load_run_view(run))

    assert text.startswith(GENERATED_MARKER)
    assert "**No answer.** The run ended with status **failed**: The coder could not load the input file." in text
    assert "- Stage 1, Load and audit: approved after 1 attempt." in text
    assert "- Stage 3, Monthly trend: failed after 3 attempts. Could not resample" in text
    assert "2 figure(s) and 1 output file(s)" in text


def test_missing_report_keeps_a_structured_answer_when_there_is_one(tmp_path):
    run = make_run(
        tmp_path,
        mode="simple",
        final_answer={"valid": True, "answer": "The mean amount is 356.10.", "confidence": "high"},
    )
    (run / "report.md").unlink()

    text = render_missing_report(load_run_view(run))

    assert "**Answer:** The mean amount is 356.10." in text and "No answer" not in text
