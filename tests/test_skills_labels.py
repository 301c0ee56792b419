"""Group labels that differ only by spaces or case are one group, and the result says it merged them."""

import json
import subprocess
import sys

from agentic_ds.skills import SkillLibrary


def test_statistic_by_group_merges_spelling_variants_and_says_so(tmp_path):
    (tmp_path / "inputs").mkdir()
    (tmp_path / "outputs").mkdir()
    (tmp_path / "figures").mkdir()
    rows = ["region,price", "North,10", " North ,20", "NORTH,30", "south,5", "South,7", "South,9"]
    (tmp_path / "inputs" / "d.csv").write_text("\n".join(rows) + "\n")
    code = SkillLibrary.load().render(
        "descriptive-statistics", "statistic", data_path="inputs/d.csv", result_path="outputs/r.json",
        fig_prefix="figures/r", column="price", stat="mean", group_col="region",
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "outputs" / "r.json").read_text())
    assert result["by_group"] == {"North": 20.0, "South": 7.0}
    assert any("merged 3 value(s)" in n for n in result["notes"]), result["notes"]
