"""bench/reader_readings.py's comparison: how each reading changed, and hold-out questions never named."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import reader_readings


def _row(split: str, qid: str, *, answerable: bool = True, doubts: tuple[str, ...] = (), params: str = "p",
         ) -> dict[str, Any]:
    return {"set": "probe", "split": split, "id": qid, "kind": "direct" if answerable else "unread",
            "answerable": answerable, "doubts": list(doubts), "params": params}


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def before_after(tmp_path: Path) -> tuple[Path, Path]:
    before = [_row("dev", "same"), _row("dev", "lost"), _row("dev", "new", doubts=("'means'",)),
              _row("dev", "changed"), _row("dev", "other", answerable=False),
              _row("holdout", "secret-lost"), _row("holdout", "secret-new", answerable=False)]
    after = [_row("dev", "same"), _row("dev", "lost", doubts=("'negative'",)), _row("dev", "new"),
             _row("dev", "changed", params="q"), _row("dev", "other", answerable=False, doubts=("x",)),
             _row("holdout", "secret-lost", answerable=False), _row("holdout", "secret-new")]
    return _write(tmp_path / "before.jsonl", before), _write(tmp_path / "after.jsonl", after)


def test_each_change_is_put_in_its_kind(before_after: tuple[Path, Path]) -> None:
    compared, changes = reader_readings.compare(*before_after, split=None)

    assert compared == 7
    assert changes == {"confident_lost": ["probe/lost", "probe/secret-lost"],
                       "confident_new": ["probe/new", "probe/secret-new"],
                       "confident_changed": ["probe/changed"], "other_changed": ["probe/other"]}


@pytest.mark.parametrize("split", ["holdout", None])
def test_hold_out_questions_are_counted_never_named(before_after: tuple[Path, Path], split: str | None,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["reader_readings.py", "compare", *map(str, before_after)] + (["--split", split] if split else [])
    monkeypatch.setattr(sys, "argv", argv)

    reader_readings.main()

    out = capsys.readouterr().out
    assert "secret" not in out and "probe/" not in out
    assert out.splitlines()[-1].startswith("readings: n=")


def test_dev_questions_are_named_with_how_they_changed(before_after: tuple[Path, Path],
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["reader_readings.py", "compare", *map(str, before_after), "--split", "dev"])

    reader_readings.main()

    lines = capsys.readouterr().out.splitlines()
    assert lines == ["confident_lost: probe/lost", "confident_new: probe/new", "confident_changed: probe/changed",
                     "readings: n=5 confident_lost=1 confident_new=1 confident_changed=1 other_changed=1"]
