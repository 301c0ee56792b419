"""The helpers every skill template shares (`skills/_shared/helpers.py.j2`), run as the templates run them.

`numeric_values` parses each distinct text once and maps the numbers back to the rows; what it gives must be what
parsing every row on its own gives (the reference below), on text columns of every kind pandas may hand it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest

HELPERS = Path(__file__).resolve().parents[1] / "skills" / "_shared" / "helpers.py.j2"
THOUSANDS = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")


def helpers() -> dict[str, Any]:
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    namespace: dict[str, Any] = {"re": re, "np": np, "pd": pd, "plt": plt}
    exec(compile(HELPERS.read_text(encoding="utf-8"), str(HELPERS), "exec"), namespace)
    return namespace


def every_row(series: pd.Series) -> pd.Series:
    """Each row's text parsed on its own: currency signs, % and spaces stripped, thousands commas dropped."""
    if pd.api.types.is_bool_dtype(series) or pd.api.types.is_numeric_dtype(series):
        return pd.to_numeric(series, errors="coerce").astype(float)
    text = series.astype("string").str.strip()
    text = text.str.replace(r"^[\$€£¥]\s*|\s*[\$€£¥%]$", "", regex=True)
    thousands = text.str.match(THOUSANDS).fillna(False).astype(bool)
    text = text.where(~thousands, text.str.replace(",", "", regex=False))
    return pd.to_numeric(text, errors="coerce").astype(float)


MESSY = ["$1,234.50", " 12 ", "7%", "€ 3", "n/a", None, "1,234,567", "12,34", "-5.5", "", "abc", "$1,234.50", "7%"]
CASES = {
    "text with currency, thousands, percent and gaps": pd.Series(MESSY * 50, dtype="string", name="amount"),
    "pandas' default text": pd.Series(MESSY * 3, name="amount"),
    "objects of mixed kinds": pd.Series([1, "2", 2.5, None, np.nan, "x", True, "1,000", 1], dtype=object),
    "categories": pd.Series(pd.Categorical(["10", "20", "10", None, "ten"]), name="level"),
    "dates": pd.Series(pd.to_datetime(["2024-01-01", None, "2024-01-01"]), name="day"),
    "nothing but missing": pd.Series([None, None], dtype=object),
    "empty": pd.Series([], dtype="string"),
    "its own index": pd.Series(["1", "2", "1"], index=[10, 5, 7], name="n"),
    "numbers already": pd.Series([1, 2, 3], name="n"),
}


@pytest.mark.parametrize("series", list(CASES.values()), ids=list(CASES))
def test_numeric_values_gives_what_parsing_every_row_gives(series: pd.Series) -> None:
    pd.testing.assert_series_equal(helpers()["numeric_values"](series), every_row(series))
