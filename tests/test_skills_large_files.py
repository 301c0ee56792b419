"""Files above the size threshold are analysed on a DuckDB sample; direct statistics stay exact."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd

from agentic_ds.skills import SkillLibrary


def run(code: str, cwd) -> dict:
    # Shrink the thresholds so a small file counts as "large" (the real values are 256 MB / 1M rows).
    code = code.replace("LARGE_FILE_BYTES = 256 * 1024 * 1024", "LARGE_FILE_BYTES = 10_000")
    code = code.replace("SAMPLE_ROWS = 1_000_000", "SAMPLE_ROWS = 500")
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((cwd / "outputs" / "r.json").read_text())


def setup(tmp_path):
    for name in ("inputs", "outputs", "figures"):
        (tmp_path / name).mkdir()
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"price": rng.normal(50, 10, 5000).round(2), "region": rng.choice(["a", "b"], 5000)})
    frame.loc[::97, "price"] = np.nan
    frame.to_csv(tmp_path / "inputs" / "big.csv", index=False)
    return frame


def test_a_direct_statistic_on_a_large_file_is_exact(tmp_path):
    frame = setup(tmp_path)
    lib = SkillLibrary.load()
    for stat, expected in (
        ("mean", frame["price"].mean()),
        ("max", frame["price"].max()),
        ("missing", frame["price"].isna().sum()),
    ):
        code = lib.render(
            "descriptive-statistics",
            "statistic",
            data_path="inputs/big.csv",
            result_path="outputs/r.json",
            fig_prefix="figures/r",
            column="price",
            stat=stat,
        )
        result = run(code, tmp_path)
        assert abs(float(result["answer_value"]) - float(expected)) < 1e-6, (stat, result["answer_value"], expected)
        assert any("exactly over all 5,000 rows" in n for n in result["notes"])


def test_other_analyses_of_a_large_file_use_a_sample_and_say_so(tmp_path):
    setup(tmp_path)
    code = SkillLibrary.load().render("descriptive-statistics", "describe", data_path="inputs/big.csv",
                                      result_path="outputs/r.json", fig_prefix="figures/r")
    result = run(code, tmp_path)
    assert any("uniform random sample of 500 rows" in n for n in result["notes"]), result["notes"]
