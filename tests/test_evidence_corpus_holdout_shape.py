"""The hold-out batch of the evidence corpus is well formed (it runs no product code).

Checks the batch itself: size, ids, categories, labels consistent with the README's rules for status, big outputs,
and that it builds deterministically, quickly and without touching the disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import get_args

import pytest

from tests.evidence_corpus.case import Case, Category
from tests.evidence_corpus.holdout import holdout_cases

ROOT = Path(__file__).resolve().parents[1]
MB = 1_000_000

# Builds the batch in a fresh interpreter (imports included) and reports its CPU time and a digest of its content.
BUILD = textwrap.dedent("""
    import hashlib, json, time
    from dataclasses import asdict
    t0 = time.process_time()
    from tests.evidence_corpus.holdout import holdout_cases
    cases = holdout_cases()
    cpu = time.process_time() - t0
    digest = hashlib.sha256(json.dumps([asdict(c) for c in cases], sort_keys=True).encode()).hexdigest()
    print(json.dumps({"cpu": cpu, "digest": digest, "n": len(cases)}))
""")


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return holdout_cases()


def test_size_ids_and_categories(cases: list[Case]) -> None:
    assert len(cases) >= 60
    ids = [c.id for c in cases]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    assert all(i.startswith("ho-") for i in ids)
    counts = Counter(c.category for c in cases)
    assert set(counts) == set(get_args(Category)), counts
    wanted = {"correct": 18, "invented": 8, "small_integers": 6, "derived": 6, "misquoted": 6, "multipart": 8,
              "partial": 6, "failed_code": 4}
    assert all(counts[k] >= n for k, n in wanted.items()), counts


def test_every_ask_is_labelled(cases: list[Case]) -> None:
    for c in cases:
        ask_ids = [a.id for a in c.asks]
        assert ask_ids == [f"a{i}" for i in range(1, len(ask_ids) + 1)], c.id
        assert set(c.addressed) == set(ask_ids), c.id
        assert set(c.answered) == set(ask_ids), c.id
        assert {p.id for p in c.parts} <= set(ask_ids), c.id
        # answered means addressed and backed by code: never answered without being addressed
        assert all(c.addressed[a] for a in ask_ids if c.answered[a]), c.id
        assert c.note, c.id


def test_status_follows_the_rules(cases: list[Case]) -> None:
    for c in cases:
        ran = any(cell.ok for cell in c.cells)
        if not ran:
            assert c.status == "failed", c.id
        elif c.status == "completed":
            assert all(c.answered.values()), c.id
            assert all(cr.holds for cr in c.criteria), c.id
        else:
            assert c.status == "incomplete", c.id
        if not ran:
            assert not any(c.answered.values()), c.id  # outputs of cells that raised are not evidence


def test_criteria_and_modes(cases: list[Case]) -> None:
    for c in cases:
        assert c.mode == ("orchestrated" if c.criteria else "simple"), c.id
        for cr in c.criteria:
            assert cr.holds <= cr.shows, (c.id, cr.id)  # a quote that would not show the criterion cannot hold
        if c.category == "misquoted":
            assert c.mode == "orchestrated" and not all(cr.holds for cr in c.criteria), c.id
    assert sum(c.category == "correct" and c.mode == "orchestrated" for c in cases) >= 3


def test_files_are_where_the_recorder_puts_them(cases: list[Case]) -> None:
    for c in cases:
        assert all(k.startswith("inputs/") for k in c.inputs), c.id
        for cell in c.cells:
            assert all(k.startswith("outputs/") for k in cell.files), c.id
            assert cell.stage >= 1
            if c.mode == "simple":
                assert cell.stage == 1, c.id
        for p in c.parts:
            assert all(f.startswith("outputs/") for f in p.files), c.id


def test_big_outputs(cases: list[Case]) -> None:
    big = [c.id for c in cases if max(len(cell.output.encode()) for cell in c.cells) >= MB]
    assert len(big) >= 6, big


def test_builds_fast_deterministically_and_writes_nothing(cases: list[Case], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run([sys.executable, "-c", BUILD], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["cpu"] < 5.0, result
    here = hashlib.sha256(json.dumps([asdict(c) for c in cases], sort_keys=True).encode()).hexdigest()
    assert result["digest"] == here  # the same batch in another process: fixed seeds, no hidden state
    assert not any(tmp_path.iterdir())  # nothing written to the working directory
