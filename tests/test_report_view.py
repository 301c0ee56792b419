"""Loading a run directory into a RunView: complete runs, and every way a run can be partial."""

from __future__ import annotations

import json
import os

from agentic_ds.report.view import load_run_view
from tests.report_fixtures import TASK, make_run


def test_complete_run_is_read_whole(tmp_path):
    view = load_run_view(make_run(tmp_path))

    assert view.id == "20261122-013000-which-region"
    assert view.task == TASK
    assert view.status == "completed_with_warnings" and view.wall_s == 72.5
    assert [s.title for s in view.stages] == ["Load and audit", "Compare regions", "Monthly trend"]
    assert [s.status for s in view.stages] == ["approved", "approved", "failed"]
    assert [s.attempts for s in view.stages] == [1, 2, 3]
    compare = view.stages[1]
    assert compare.description.startswith("Mean amount per region")
    assert "groupby('region')" in compare.code and compare.code_path == "stages/02-compare-regions/code.py"
    assert [f.path for f in compare.figures] == ["figures/02-compare-regions-001.png"]
    assert compare.figures[0].file is not None and compare.figures[0].file.is_file()
    assert compare.tables[0].columns == ["region", "amount"] and compare.tables[0].total_rows == 4
    assert view.stages[2].last_output == "KeyError: 'dat'\n"
    assert [c.met for c in view.criteria] == [True, False]
    assert {model: c.input_tokens for model, c in view.cost.by_model.items()} == {
        "offline": 22800,
        "openai/gpt-4.1-mini": 5000,
    }
    assert view.total_usd == 0.0123 and view.total_tokens == 27800 + 4220
    assert view.input_views[0].path == "inputs/sales.csv" and view.input_views[0].rows == 2391
    assert view.input_views[0].columns == 3
    assert view.report_text.startswith("# Which region sells most?")
    assert view.problems == [] and view.extra_figures == [] and view.extra_tables == []


def test_each_input_gets_the_shape_profiled_under_its_name_in_a_folder_of_thousands(tmp_path):
    """The profile may name a file by another path (`data/...` for `inputs/data/...`): matched by file name, the
    first profiled file of that name wins; one name matched, not every name against every profiled file."""
    n = 3000
    inputs = [f"inputs/data/part-{i:04d}.csv" for i in range(n)] + ["inputs/sales.csv", "inputs/unprofiled.csv"]
    run = make_run(tmp_path, inputs=inputs)
    files = [{"path": f"data/part-{i:04d}.csv", "rows": i, "columns": [{"name": "x"}]} for i in range(n)]
    files += [{"path": "inputs/sales.csv", "rows": 5, "columns": []}, {"path": "other/part-0001.csv", "rows": -1}]
    (run / "data_profile.json").write_text(json.dumps({"files": files}))

    views = load_run_view(run).input_views

    assert [v.path for v in views] == inputs
    assert [(v.rows, v.columns) for v in views[:n]] == [(i, 1) for i in range(n)]
    assert (views[n].rows, views[n].columns) == (5, 0)
    assert (views[-1].rows, views[-1].columns) == (None, None)


def test_directory_with_nothing_but_a_name_loads_as_unknown(tmp_path):
    run = tmp_path / "20261122-013000-empty"
    run.mkdir()

    view = load_run_view(run)

    assert view.id == run.name and view.status == "unknown"
    assert view.stages == [] and view.cost.by_model == {} and view.wall_s is None and view.report_text is None
    assert any("run.json is missing" in p for p in view.problems)
    assert any("plan.json is missing" in p for p in view.problems)


def test_malformed_records_are_reported_not_raised(tmp_path):
    run = make_run(tmp_path)
    (run / "run.json").write_text("{not json")
    (run / "plan.json").write_text("[1, 2]")
    (run / "stages" / "02-compare-regions" / "result.json").write_text('{"figures": "oops", "attempts": "two"}')

    view = load_run_view(run)

    assert view.status == "unknown"
    assert any("run.json is not valid JSON" in p for p in view.problems)
    assert any("plan.json does not hold a JSON object" in p for p in view.problems)
    # Stages are still found from their directories.
    assert [s.dir for s in view.stages] == [
        f"stages/{n}" for n in ("01-load-and-audit", "02-compare-regions", "03-monthly-trend")
    ]
    # The figure is still attached by its file name, even though result.json's list is broken.
    assert [f.path for f in view.stages[1].figures] == ["figures/02-compare-regions-001.png"]


def test_wrong_types_in_run_json_fall_back_to_defaults(tmp_path):
    run = make_run(
        tmp_path,
        wall_s="fast",
        stages="none",
        cost={"by_model": ["x"]},
        criteria=[{"id": "c1", "met": "yes"}],
        started_at="2026-11-22T01:30:00+00:00",
        ended_at="2026-11-22T01:30:30+00:00",
    )

    view = load_run_view(run)

    assert view.wall_s == 30.0  # computed from the timestamps
    assert view.cost.by_model == {} and view.total_usd is None
    assert view.criteria[0].met is None
    assert len(view.stages) == 3  # from plan.json and the stage directories


def test_planned_stages_that_never_ran_are_pending(tmp_path):
    run = make_run(tmp_path)
    record = json.loads((run / "run.json").read_text())
    record["stages"] = record["stages"][:1]
    (run / "run.json").write_text(json.dumps(record))
    for name in ("02-compare-regions", "03-monthly-trend"):
        for f in (run / "stages" / name).iterdir():
            f.unlink()
        (run / "stages" / name).rmdir()

    view = load_run_view(run)

    assert [(s.title, s.status, s.attempts) for s in view.stages] == [
        ("Load and audit", "approved", 1), ("Compare regions", "pending", 0), ("Monthly trend", "pending", 0)]
    # Figure and table of the missing stage are still shown, as unclaimed.
    assert [f.path for f in view.extra_figures] == ["figures/02-compare-regions-001.png"]
    assert [t.path for t in view.extra_tables] == ["outputs/region_means.csv"]


def test_missing_files_named_by_records_are_listed(tmp_path):
    run = make_run(tmp_path)
    (run / "figures" / "02-compare-regions-001.png").unlink()
    (run / "outputs" / "region_means.csv").unlink()
    (run / "stages" / "03-monthly-trend" / "code.py").unlink()

    view = load_run_view(run)

    assert view.stages[1].figures[0].file is None
    assert "figure figures/02-compare-regions-001.png is missing" in view.problems
    assert "table outputs/region_means.csv is missing" in view.problems
    # Without code.py, the cells are the code.
    assert view.stages[2].code.startswith("# --- cell_001.py ---")


def test_records_cannot_point_outside_the_run_directory(tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG not yours")
    (tmp_path / "secret.csv").write_text("a\n1\n")
    run = make_run(tmp_path)
    os.symlink(secret, run / "figures" / "link.png")
    result_path = run / "stages" / "02-compare-regions" / "result.json"
    result = json.loads(result_path.read_text())
    result["figures"] = ["../../secret.png", str(secret), "figures/link.png"]
    result["files"] = ["../secret.csv", str(tmp_path / "secret.csv")]
    result_path.write_text(json.dumps(result))

    view = load_run_view(run)

    embedded = [f.file for s in view.stages for f in s.figures] + [f.file for f in view.extra_figures]
    assert all(f is None or tmp_path / "secret" not in (f, f.with_suffix("")) for f in embedded)
    assert all(f is None or f.resolve().is_relative_to(run.resolve()) for f in embedded)
    assert view.stages[1].tables == []
    assert any("refused" in p for p in view.problems)


def test_report_text_excludes_the_generated_appendix(tmp_path):
    run = make_run(tmp_path)
    (run / "report.md").write_text(
        "# Answer\n42\n\n<!-- agentic-ds:appendix -->\n## Run record\nold\n<!-- /agentic-ds:appendix -->\n"
    )

    assert load_run_view(run).report_text == "# Answer\n42"


def test_large_code_and_outputs_are_capped(tmp_path):
    run = make_run(tmp_path)
    stage = run / "stages" / "01-load-and-audit"
    (stage / "code.py").write_text("x = 1\n" * 100_000)
    (stage / "cell_002.out.txt").write_text("noise\n" * 50_000 + "THE END\n")
    (stage / "review.md").write_text("Looks right: 2,391 rows.")
    result = json.loads((stage / "result.json").read_text())
    del result["review"]
    (stage / "result.json").write_text(json.dumps(result))

    audit = load_run_view(run).stages[0]

    assert len(audit.code) < 200_100 and audit.code.endswith("… (truncated)\n")
    assert audit.last_output.startswith("…") and audit.last_output.endswith("THE END\n")
    assert len(audit.last_output) <= 4_001
    assert audit.review == "Looks right: 2,391 rows."


def test_figures_are_attributed_by_stage_number_whatever_their_slug(tmp_path):
    run = make_run(tmp_path)
    (run / "figures" / "02-answer-by-group.png").write_bytes(
        (run / "figures" / "02-compare-regions-001.png").read_bytes()
    )
    (run / "figures" / "summary.png").write_bytes(b"\x89PNG")

    view = load_run_view(run)

    assert [f.path for f in view.stages[1].figures] == [
        "figures/02-compare-regions-001.png",
        "figures/02-answer-by-group.png",
    ]
    assert [f.path for f in view.extra_figures] == ["figures/summary.png"]


def test_the_context_record_reads_as_one_sentence():
    from agentic_ds.report.view import context_note

    kept = {"budget_tokens": 6000, "max_prompt_tokens": 5997, "compactions": 3, "over_budget_calls": 0,
            "loop_divergences": 1, "loop_stops": 0}
    assert context_note(kept) == ("Context: every prompt fit the 6,000-token budget (largest prompt 5,997); "
                                  "3 compactions; loop guard: 1 redirection, 0 stops.")
    over = {"budget_tokens": 4000, "max_prompt_tokens": 4500, "compactions": 1, "over_budget_calls": 2}
    assert context_note(over) == ("Context: 2 prompts went over the 4,000-token budget (largest prompt 4,500) even "
                                  "after compaction; 1 compaction.")
    assert context_note({"loop_divergences": 0, "loop_stops": 0}) == "Context: loop guard: 0 redirections, 0 stops."
    assert context_note({}) == "" and context_note({"budget_tokens": "junk"}) == ""
