"""The bundled sample data is reproducible and holds the structure examples/README.md promises."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest
from scipy import stats

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DATA = EXAMPLES / "data"


def _generator() -> ModuleType:
    """examples/ is not a package: load the script by path (registered, as dataclasses require)."""
    name = "examples_generate_data"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / "generate_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sales() -> pd.DataFrame:
    return pd.read_csv(DATA / "retail_sales.csv", parse_dates=["date"])


@pytest.fixture(scope="module")
def clean(sales: pd.DataFrame) -> pd.DataFrame:
    """What a careful analyst works on: duplicates dropped, spellings normalised."""
    frame = sales.drop_duplicates().copy()
    frame["region"] = frame["region"].str.strip().str.title()
    frame["category"] = frame["category"].str.title()
    return frame


def test_generator_is_deterministic_and_matches_the_committed_files(tmp_path: Path) -> None:
    generator = _generator()
    first = generator.generate(tmp_path / "one")
    second = generator.generate(tmp_path / "two")

    for one, two in zip(first, second, strict=True):
        assert one.read_bytes() == two.read_bytes()
        assert one.read_bytes() == (DATA / one.name).read_bytes(), (
            f"{one.name} differs: re-run examples/generate_data.py"
        )


def test_another_seed_gives_other_data(tmp_path: Path) -> None:
    path = _generator().generate(tmp_path, seed=1)[0]

    assert path.read_bytes() != (DATA / "retail_sales.csv").read_bytes()


def test_sample_files_stay_small() -> None:
    assert sum(path.stat().st_size for path in DATA.iterdir()) < 1.5 * 1024 * 1024


def test_shape_and_planted_messiness(sales: pd.DataFrame) -> None:
    assert len(sales) == 10_803
    assert sales.duplicated().sum() == 3
    assert sales["customer_age"].isna().sum() == 267
    assert sales["satisfaction"].isna().sum() == 329
    assert (sales["region"] != sales["region"].str.strip().str.title()).sum() == 141
    assert {" North ", "north", "NORTH"} <= set(sales["region"])
    assert (sales["category"] != sales["category"].str.title()).sum() == 65


def test_the_outlier(sales: pd.DataFrame) -> None:
    top = sales.nlargest(2, "units")

    first = top.iloc[0]
    assert (first["units"], first["store_id"], first["date"].date().isoformat()) == (480, "S05", "2024-03-14")
    assert first["revenue"] == pytest.approx(4968.0)
    assert top.iloc[1]["units"] < 50


def test_upward_trend_that_differs_by_region(clean: pd.DataFrame) -> None:
    yearly = clean.groupby([clean["date"].dt.year, "region"])["revenue"].sum().unstack(0)
    growth = yearly[2024] / yearly[2023] - 1
    total = clean.groupby(clean["date"].dt.year)["revenue"].sum()

    assert total[2024] / total[2023] - 1 > 0.05
    assert growth["North"] > 0.15
    assert growth["South"] < 0.02
    assert growth.idxmax() == "North" and growth.idxmin() == "South"
    monthly = clean.set_index("date")["revenue"].resample("MS").sum()
    slope = stats.linregress(np.arange(len(monthly)), monthly.to_numpy())
    assert slope.slope > 0 and slope.pvalue < 0.05


def test_weekly_and_seasonal_pattern(clean: pd.DataFrame) -> None:
    daily = clean.groupby("date")["revenue"].sum()
    dates = daily.index
    assert isinstance(dates, pd.DatetimeIndex)
    by_weekday = daily.groupby(dates.day_of_week).mean()
    by_month = daily.groupby(dates.month).mean()

    assert by_weekday.idxmax() == 5  # Saturday
    assert by_weekday[5] / by_weekday[[0, 1, 2, 3]].mean() > 1.4
    assert by_month.idxmax() == 12
    assert by_month[12] / by_month.mean() > 1.4
    assert by_month[[1, 2]].mean() / by_month.mean() < 0.85


def test_online_orders_bring_more_revenue(clean: pd.DataFrame) -> None:
    online = clean.loc[clean["channel"] == "Online", "revenue"]
    in_store = clean.loc[clean["channel"] == "In-store", "revenue"]

    assert online.mean() / in_store.mean() > 1.1
    assert stats.ttest_ind(online, in_store, equal_var=False).pvalue < 1e-6
    assert stats.mannwhitneyu(online, in_store).pvalue < 1e-6


def test_discount_goes_with_more_units(clean: pd.DataFrame) -> None:
    rho, p_value = stats.spearmanr(clean["discount"], clean["units"])

    assert rho > 0.2 and p_value < 1e-10


def test_online_customers_are_younger_and_less_satisfied(clean: pd.DataFrame) -> None:
    means = clean.groupby("channel")[["customer_age", "satisfaction"]].mean()

    assert means.loc["In-store", "customer_age"] - means.loc["Online", "customer_age"] > 8
    assert means.loc["In-store", "satisfaction"] - means.loc["Online", "satisfaction"] > 0.3


def test_stores_join_and_bigger_stores_sell_more(clean: pd.DataFrame) -> None:
    stores = pd.read_csv(DATA / "stores.csv")
    joined = clean.merge(stores[["store_id", "size_sqm"]], on="store_id", how="left", validate="many_to_one")
    per_store = joined.groupby(["store_id", "size_sqm"])["revenue"].sum().reset_index()

    assert joined["size_sqm"].notna().all()
    assert len(stores) == 12 and stores["store_id"].is_unique
    assert stats.pearsonr(per_store["size_sqm"], per_store["revenue"]).statistic > 0.8
