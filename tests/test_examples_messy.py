"""The messy export under examples/messy is reproducible and holds what its README says."""

from __future__ import annotations

import importlib.util
import unicodedata
from pathlib import Path

import pandas as pd
import pytest

MESSY = Path(__file__).resolve().parents[1] / "examples" / "messy"
DATA = MESSY / "data" / "clinic_visits.csv"


def _generate(out: Path) -> Path:
    spec = importlib.util.spec_from_file_location("examples_messy_generate", MESSY / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate(out)


def _fold(name: str) -> str:
    text = " ".join(name.split()).casefold()
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@pytest.fixture(scope="module")
def raw() -> pd.DataFrame:
    return pd.read_csv(DATA, sep=";", encoding="cp1252", decimal=",", na_values=["n/a", "-"],
                       keep_default_na=True, dtype={"visit_id": str})


def test_the_committed_file_is_what_the_generator_writes(tmp_path):
    assert _generate(tmp_path).read_bytes() == DATA.read_bytes()


def test_the_file_is_not_utf8_and_has_the_listed_defects(raw):
    data = DATA.read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert b"\r\n" in data and "Zürich".encode("cp1252") in data
    assert len(raw) == 1236 and raw.duplicated().sum() == 36
    assert raw["clinic"].nunique() > 4 and raw["clinic"].map(_fold).nunique() == 4
    assert raw["visit_date"].str.contains("/").any() and raw["visit_date"].str.contains("-").any()
    text = data.decode("cp1252")
    assert ";n/a;" in text and ";-;" in text and ";;" in text


def test_the_readmes_figures_hold_after_a_careful_cleaning(raw):
    clean = raw.drop_duplicates().assign(clinic=lambda f: f["clinic"].map(_fold))
    assert len(clean) == 1200
    waits = clean.groupby("clinic")["wait_minutes"].agg(["mean", "median", "size"])
    assert waits["size"].to_dict() == {"geneve centre": 279, "koln sud": 341, "malmo hamn": 286, "zurich nord": 294}
    assert waits["mean"].round(2).to_dict() == {"geneve centre": 30.20, "koln sud": 17.70, "malmo hamn": 26.56,
                                                "zurich nord": 23.59}
    assert waits["median"].round(2).to_dict() == {"geneve centre": 27.65, "koln sud": 17.10, "malmo hamn": 23.90,
                                                  "zurich nord": 21.90}
    assert round(waits["mean"].max() - waits["mean"].min(), 2) == 12.49
    rho = clean["wait_minutes"].corr(clean["satisfaction"], method="spearman")
    assert round(rho, 2) == -0.43
    readme = (MESSY / "README.md").read_text(encoding="utf-8")
    for figure in ("30.20", "17.70", "26.56", "23.59", "12.49", "-0.43", "1,236", "1,200"):
        assert figure in readme
