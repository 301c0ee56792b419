"""The last-resort attempt when every skill template failed: plain pandas, few assumptions.

It still computes everything it reports (counts, and mean/median/min/max of the named numeric
columns) and writes the same result JSON shape as the templates, so the stage can finish honestly.
"""

from __future__ import annotations

from agentic_ds.skills.templates import python_literal

_CODE = '''\
"""Fallback summary written by the offline model after the skill templates failed."""
import json
from pathlib import Path

import pandas as pd

DATA_PATH = {data_path}
RESULT_PATH = {result_path}
COLUMNS = {columns}
ENCODING = {encoding}

path = Path(DATA_PATH)
suffix = path.suffix.lower()
if suffix in (".parquet", ".pq"):
    df = pd.read_parquet(path)
elif suffix in (".xlsx", ".xls"):
    df = pd.read_excel(path)
elif suffix in (".json", ".jsonl"):
    df = pd.read_json(path, lines=suffix == ".jsonl", encoding=ENCODING)
else:
    df = pd.read_csv(path, sep=None, engine="python", encoding=ENCODING)
summary = [f"{{DATA_PATH}} has {{len(df):,}} rows and {{df.shape[1]}} columns."]
stats = {{}}
for column in [c for c in COLUMNS if c in df.columns]:
    values = pd.to_numeric(df[column], errors="coerce")
    if values.notna().sum() == 0:
        missing = int(df[column].isna().sum())
        summary.append(f"{{column}}: {{df[column].nunique()}} distinct values, {{missing}} missing.")
        continue
    stats[column] = {{k: float(getattr(values, k)()) for k in ("mean", "median", "min", "max")}}
    s = stats[column]
    summary.append(
        f"{{column}}: mean {{s['mean']:.4g}}, median {{s['median']:.4g}}, min {{s['min']:.4g}}, max {{s['max']:.4g}} "
        f"(n={{int(values.notna().sum())}})."
    )
Path(RESULT_PATH).parent.mkdir(parents=True, exist_ok=True)
Path(RESULT_PATH).write_text(json.dumps({{"skill": "fallback", "template": "basic_summary", "summary": summary,
                                         "figures": [], "tables": {{"stats": stats}}}}, indent=2))
print("\\n".join(summary))
'''


def fallback_code(data_path: str, result_path: str, columns: list[str], encoding: str | None = None) -> str:
    return _CODE.format(
        data_path=python_literal(data_path),
        result_path=python_literal(result_path),
        columns=python_literal(list(columns)),
        encoding=python_literal(encoding),
    )
