"""A run directory carried back from a Ray worker: what executed code planted is not followed, the size cap leaves
the inputs' copy and then the largest files behind (named), and unpacking takes nothing but plain files."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import pytest

from agentic_ds.evaluation.run_archive import pack_input, pack_run, unpack_input, unpack_run


def run_dir(root: Path) -> Path:
    run = root / "20260101-000000-a-run"
    for folder in ("inputs/data", "outputs", "figures", "stages/01-load", "empty"):
        (run / folder).mkdir(parents=True)
    (run / "run.json").write_text('{"status": "completed"}')
    (run / "inputs/data/big.csv").write_bytes(b"x" * 6000)
    (run / "outputs/result.json").write_text('{"mean": 1}')
    (run / "figures/plot.png").write_bytes(b"p" * 3000)
    (run / "stages/01-load/cell_001.py").write_text("print(1)\n")
    return run


def test_a_run_directory_comes_back_whole_without_what_code_planted(tmp_path):
    run = run_dir(tmp_path / "worker")
    secret = tmp_path / "worker-secret"
    secret.write_text("token")
    (run / "outputs/stolen").symlink_to(secret)                 # planted by executed code
    os.link(secret, run / "outputs/hard")                       # a second name of a file outside
    os.mkfifo(run / "outputs/pipe")
    packed = pack_run(run)
    assert {item["path"]: item["why"].split(":")[0] for item in packed.left} == {
        "outputs/stolen": "not packed", "outputs/hard": "not packed", "outputs/pipe": "not packed"}
    dest = tmp_path / "back" / run.name
    dest.parent.mkdir()
    assert unpack_run(packed.data, dest) == packed.files == 5
    assert (dest / "outputs/result.json").read_text() == '{"mean": 1}' and (dest / "empty").is_dir()
    assert not (dest / "outputs/stolen").exists() and not packed.left_for_size


def test_over_the_cap_the_inputs_copy_then_the_largest_files_stay_on_the_worker(tmp_path):
    run = run_dir(tmp_path)
    packed = pack_run(run, cap=4000)
    left = {item["path"]: item["why"] for item in packed.left}
    assert left["inputs/data/big.csv"].startswith("not returned: a copy of an input")
    assert list(left) == ["inputs/data/big.csv"] and packed.files == 4 and not packed.left_for_size
    packed = pack_run(run, cap=2000)
    assert "figures/plot.png" in {item["path"] for item in packed.left} and packed.left_for_size
    dest = tmp_path / "back"
    unpack_run(packed.data, dest, cap=2000)
    assert (dest / "run.json").is_file() and not (dest / "figures/plot.png").exists()


@pytest.mark.parametrize("member", ["../escape.txt", "/etc/owned", "link"])
def test_unpacking_refuses_anything_but_plain_files_and_folders(tmp_path, member):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo(member)
        if member == "link":
            info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
            tar.addfile(info)
        else:
            info.size = 2
            tar.addfile(info, io.BytesIO(b"hi"))
    with pytest.raises(ValueError, match="refused archive entry"):
        unpack_run(buffer.getvalue(), tmp_path / "dest")
    assert not (tmp_path / "dest").exists() and not (tmp_path / "escape.txt").exists()


def test_an_input_lands_at_its_own_absolute_path_under_the_workers_folder(tmp_path):
    folder = tmp_path / "data" / "shop"
    folder.mkdir(parents=True)
    (folder / "orders.csv").write_text("id\n1\n")
    into = tmp_path / "worker"
    unpack_input(pack_input(folder), into)
    assert (into / str(folder.resolve()).lstrip("/") / "orders.csv").read_text() == "id\n1\n"
    assert pack_input(folder, cap=1) is None
