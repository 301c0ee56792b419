"""Run directories are always new; inputs land under inputs/ without collisions and nothing is overwritten."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

from agentic_ds.errors import InputError
from agentic_ds.runs.workdir import copy_inputs, create_run_dir, validate_inputs

NOW = datetime(2026, 3, 4, 5, 6, 7)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def put(path: str, text: str = "x\n") -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


def placed(workspace) -> dict[str, str]:
    return {workspace.rel(p): p.read_text() for p in sorted(workspace.inputs.rglob("*")) if p.is_file()}


def test_run_dir_is_timestamp_and_slug(tmp_path):
    workspace = create_run_dir(Path("workdirs"), "Mean price, by Region!", now=NOW)
    assert workspace.root == (tmp_path / "workdirs" / "20260304-050607-mean-price-by-region")
    assert workspace.root.is_dir()


def test_same_second_same_task_never_reuses_a_directory():
    first = create_run_dir(Path("w"), "task", now=NOW)
    (first.root / "keep.txt").write_text("earlier run")
    second = create_run_dir(Path("w"), "task", now=NOW)
    third = create_run_dir(Path("w"), "task", now=NOW)
    assert [p.root.name for p in (first, second, third)] == [
        "20260304-050607-task",
        "20260304-050607-task-2",
        "20260304-050607-task-3",
    ]
    assert (first.root / "keep.txt").read_text() == "earlier run"


def test_run_root_that_is_a_file():
    put("w")
    with pytest.raises(InputError, match="cannot create the run root w|the run root w is not a directory"):
        create_run_dir(Path("w"), "task", now=NOW)


def test_single_file_keeps_its_name():
    put("data/sales.csv", "a,b\n")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    assert copy_inputs([Path("data/sales.csv")], workspace) == ["inputs/sales.csv"]
    assert placed(workspace) == {"inputs/sales.csv": "a,b\n"}


def test_same_named_files_from_different_folders_never_collide():
    put("a/data.csv", "from a")
    put("b/data.csv", "from b")
    put("c/other.csv", "c")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    copy_inputs([Path("a/data.csv"), Path("b/data.csv"), Path("c/other.csv")], workspace)
    assert placed(workspace) == {
        "inputs/a/data.csv": "from a",
        "inputs/b/data.csv": "from b",
        "inputs/other.csv": "c",
    }


def test_same_named_files_deeper_take_just_enough_parent_folders():
    put("x/2024/data.csv", "x")
    put("y/2024/data.csv", "y")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    copy_inputs([Path("x/2024/data.csv"), Path("y/2024/data.csv")], workspace)
    assert placed(workspace) == {"inputs/x/2024/data.csv": "x", "inputs/y/2024/data.csv": "y"}


def test_folder_is_copied_recursively_under_its_own_name_skipping_hidden_and_pycache():
    put("data/sales.csv", "s")
    put("data/regions/north.csv", "n")
    put("data/.DS_Store", "junk")
    put("data/.git/config", "junk")
    put("data/__pycache__/m.pyc", "junk")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    assert copy_inputs([Path("data")], workspace) == ["inputs/data/regions/north.csv", "inputs/data/sales.csv"]
    assert placed(workspace) == {"inputs/data/regions/north.csv": "n", "inputs/data/sales.csv": "s"}


def test_folder_and_file_with_the_same_name():
    put("p/data/x.csv", "in folder")
    put("q/data", "a file named data")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    copy_inputs([Path("p/data"), Path("q/data")], workspace)
    assert placed(workspace) == {"inputs/p/data/x.csv": "in folder", "inputs/q/data": "a file named data"}


def test_input_inside_another_input_folder_is_copied_once():
    put("data/sales.csv", "s")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    assert copy_inputs([Path("data"), Path("data/sales.csv"), Path("data")], workspace) == ["inputs/data/sales.csv"]


def test_symlinked_file_keeps_the_name_it_was_given():
    put("real/2026-export-final.csv", "r")
    Path("sales.csv").symlink_to(Path("real/2026-export-final.csv").resolve())
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    assert copy_inputs([Path("sales.csv")], workspace) == ["inputs/sales.csv"]
    assert not (workspace.inputs / "sales.csv").is_symlink()


def test_copies_are_independent_of_the_originals():
    original = put("d.csv", "v1")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    copy_inputs([original], workspace)
    original.write_text("v2")
    assert (workspace.inputs / "d.csv").read_text() == "v1"


def test_large_files_are_hard_linked_on_the_same_filesystem():
    original = put("big.csv", "0123456789")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    copy_inputs([original], workspace, link_threshold_bytes=10)
    linked = workspace.inputs / "big.csv"
    assert linked.stat().st_ino == original.stat().st_ino
    assert linked.read_text() == "0123456789"


def test_large_files_are_copied_when_hard_links_fail(monkeypatch):
    original = put("big.csv", "0123456789")
    workspace = create_run_dir(Path("w"), "t", now=NOW)

    def cross_device(*_args):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cross_device)
    copy_inputs([original], workspace, link_threshold_bytes=10)
    linked = workspace.inputs / "big.csv"
    assert not linked.is_symlink() and linked.read_text() == "0123456789"
    assert linked.stat().st_ino != original.stat().st_ino


def test_missing_input_is_refused_before_anything_is_created():
    put("ok.csv")
    with pytest.raises(InputError, match="input not found: nope.csv") as err:
        validate_inputs([Path("ok.csv"), Path("nope.csv")], Path("w"))
    assert err.value.exit_code == 2
    assert not Path("w").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read files without read permission")
def test_unreadable_input_is_refused():
    secret = put("secret.csv")
    secret.chmod(0)
    try:
        with pytest.raises(InputError, match="input secret.csv is not readable"):
            validate_inputs([secret], Path("w"))
    finally:
        secret.chmod(0o644)


def test_unreadable_file_inside_an_input_folder_is_planned_with_its_problem_and_not_copied(monkeypatch):
    put("data/ok.csv")
    put("data/locked.csv")
    real_open = os.open

    def refuse_locked(path, flags, *args):
        if str(path).endswith("locked.csv"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", refuse_locked)
    planned = {item.run_path: item.problem for item in validate_inputs([Path("data")], Path("w"))}
    assert planned["inputs/data/ok.csv"] is None
    assert planned["inputs/data/locked.csv"].startswith("could not be opened (Permission denied)")
    monkeypatch.setattr(os, "open", real_open)
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    monkeypatch.setattr(os, "open", refuse_locked)
    assert copy_inputs([Path("data")], workspace) == ["inputs/data/ok.csv"]


def test_special_files_and_links_inside_a_folder_are_planned_with_their_problem():
    put("data/ok.csv")
    os.mkfifo("data/pipe.csv")
    Path("data/loop").symlink_to(Path("data").resolve())
    Path("data/gone.csv").symlink_to(Path("nowhere.csv").resolve())
    planned = {item.run_path: item.problem for item in validate_inputs([Path("data")], Path("w"))}
    assert planned == {
        "inputs/data/gone.csv": "a link that leads nowhere (No such file or directory); fix or remove it",
        "inputs/data/loop": "a link to a folder; links to folders are not followed (pass that folder itself)",
        "inputs/data/ok.csv": None,
        "inputs/data/pipe.csv": "not a regular file (a named pipe (FIFO)); not copied",
    }
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    assert copy_inputs([Path("data")], workspace) == ["inputs/data/ok.csv"]


def test_a_symlink_loop_given_as_input_is_refused():
    Path("loop").symlink_to("loop")
    with pytest.raises(InputError, match="input loop is a symbolic link that leads nowhere"):
        validate_inputs([Path("loop")], Path("w"))


def test_special_file_is_refused():
    os.mkfifo("pipe")
    with pytest.raises(InputError, match="input pipe is neither a file nor a folder"):
        validate_inputs([Path("pipe")], Path("w"))


def test_folder_without_usable_files_is_refused():
    put("empty/.hidden")
    with pytest.raises(InputError, match="holds no files to copy"):
        validate_inputs([Path("empty")], Path("w"))


@pytest.mark.parametrize("given", [".", "w"])
def test_folder_holding_the_run_root_is_refused(given):
    put("data.csv")
    Path("w").mkdir()
    with pytest.raises(InputError, match="contains the run root"):
        validate_inputs([Path(given)], Path("w"))


def test_existing_file_in_inputs_is_never_overwritten():
    put("d.csv", "new")
    workspace = create_run_dir(Path("w"), "t", now=NOW)
    workspace.inputs.mkdir()
    (workspace.inputs / "d.csv").write_text("already there")
    with pytest.raises(FileExistsError):
        copy_inputs([Path("d.csv")], workspace)
    assert (workspace.inputs / "d.csv").read_text() == "already there"
