"""Listing runs under a work directory, and resolving a RUN argument."""

from __future__ import annotations

import json

import pytest

from agentic_ds.errors import UsageError
from agentic_ds.report.listing import find_run, list_runs
from tests.report_fixtures import make_run


def _runs(root):
    make_run(root, "20261120-090000-older", started_at="2026-11-20T09:00:00+00:00", status="completed")
    make_run(root, "20261122-013000-which-region")
    interrupted = root / "20261123-100000-interrupted"
    interrupted.mkdir()
    (root / "notes").mkdir()  # not a run
    (root / "README.txt").write_text("x")
    return interrupted


def test_lists_runs_newest_first_with_their_facts(tmp_path):
    _runs(tmp_path)

    runs = list_runs(tmp_path)

    assert [r.id for r in runs] == [
        "20261123-100000-interrupted",
        "20261122-013000-which-region",
        "20261120-090000-older",
    ]
    newest, middle, oldest = runs
    assert newest.status == "unknown" and newest.task == "" and newest.wall_s is None and not newest.has_report
    assert middle.status == "completed_with_warnings" and middle.mode == "orchestrated"
    assert middle.wall_s == 72.5 and middle.total_usd == 0.0123
    assert middle.path == (tmp_path / "20261122-013000-which-region").resolve()
    assert oldest.status == "completed"
    assert json.loads(json.dumps(middle.to_json()))["path"].endswith("20261122-013000-which-region")


def test_missing_root_has_no_runs(tmp_path):
    assert list_runs(tmp_path / "nowhere") == []


def test_corrupt_run_record_lists_as_unknown(tmp_path):
    run = make_run(tmp_path)
    (run / "run.json").write_text("{")

    [summary] = list_runs(tmp_path)

    assert summary.id == run.name and summary.status == "unknown"


def test_find_run_by_path_id_and_unique_prefix(tmp_path, monkeypatch):
    _runs(tmp_path)
    target = (tmp_path / "20261122-013000-which-region").resolve()

    assert find_run(str(target), tmp_path / "elsewhere") == target
    assert find_run("20261122-013000-which-region", tmp_path) == target
    assert find_run("20261122", tmp_path) == target
    monkeypatch.chdir(tmp_path)
    assert find_run("./20261122-013000-which-region", tmp_path / "elsewhere") == target


def test_ambiguous_prefix_is_a_usage_error_naming_the_candidates(tmp_path):
    _runs(tmp_path)

    with pytest.raises(UsageError) as caught:
        find_run("2026112", tmp_path)

    assert "matches 3 runs" in caught.value.message and "20261120-090000-older" in caught.value.message
    assert caught.value.hint == "give more of the run id"


def test_unknown_run_is_a_usage_error_with_a_hint(tmp_path):
    _runs(tmp_path)

    with pytest.raises(UsageError) as caught:
        find_run("nope", tmp_path)

    assert "no run matches 'nope'" in caught.value.message
    assert "agentic-ds list" in caught.value.hint


def test_a_directory_that_is_not_a_run_is_refused(tmp_path):
    _runs(tmp_path)

    with pytest.raises(UsageError, match="not a run directory"):
        find_run(str(tmp_path / "notes"), tmp_path)
