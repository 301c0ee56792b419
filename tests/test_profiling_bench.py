"""bench/offline.py in `--analyzer-only` mode, on a small CSV instead of the generated 1 GiB one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAST_LINE = re.compile(r"^offline: sample_wall_s=skipped bigcsv_mb=\d+ analyzer_mb_per_s=\d+ peak_rss_mb=skipped$")


def test_analyzer_only_prints_the_fixed_last_line(tmp_path: Path) -> None:
    csv = tmp_path / "small.csv"
    csv.write_text("a,b\n" + "".join(f"{i},{i % 7}\n" for i in range(20_000)))

    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "offline.py"), "--analyzer-only", "--csv", str(csv), "--repeats", "2"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )

    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert LAST_LINE.match(lines[-1]), lines[-1]
    assert sum(line.startswith("analyzer run ") for line in lines) == 2
    assert "20,000 rows" in lines[0]
