"""Writes every CSV the held-out questions use into a folder, deterministically and with no network.

The public tables come from datasets that ship inside installed packages (statsmodels, scikit-learn); we do
not commit their data. Three "seaborn-style" tables (tips, penguins, flights) are generated here from a fixed
seed, with some missing values, a category column and a date column each.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import numpy as np
import pandas as pd

SEED = 20240607


def _sm(name: str) -> pd.DataFrame:
    import statsmodels.api as sm

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sm.datasets, name).load_pandas().data.copy()


def _as_int(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    for column in columns:
        frame[column] = frame[column].astype(int)
    return frame


def macrodata() -> pd.DataFrame:
    return _as_int(_sm("macrodata"), "year", "quarter")


def longley() -> pd.DataFrame:
    return _as_int(_sm("longley"), "YEAR", "TOTEMP")


def fair() -> pd.DataFrame:
    frame = _sm("fair")
    return _as_int(frame, "rate_marriage", "age", "religious", "educ", "occupation", "occupation_husb")


def grunfeld() -> pd.DataFrame:
    frame = _sm("grunfeld")[["firm", "year", "invest", "value", "capital"]]
    return _as_int(frame.copy(), "year")


def spector() -> pd.DataFrame:
    return _as_int(_sm("spector"), "TUCE", "PSI", "GRADE")


def stackloss() -> pd.DataFrame:
    frame = _sm("stackloss")
    return _as_int(frame, *frame.columns)


def sunspots() -> pd.DataFrame:
    return _as_int(_sm("sunspots"), "YEAR")


def engel() -> pd.DataFrame:
    return _sm("engel")


def statecrime() -> pd.DataFrame:
    return _sm("statecrime").reset_index()


def nile() -> pd.DataFrame:
    return _as_int(_sm("nile"), "year")


def co2() -> pd.DataFrame:
    frame = _sm("co2")
    frame.index.name = "date"
    frame = frame.reset_index()
    frame["date"] = pd.to_datetime(frame["date"]).dt.strftime("%Y-%m-%d")
    return frame


def elnino() -> pd.DataFrame:
    return _as_int(_sm("elnino"), "YEAR")


def anes96() -> pd.DataFrame:
    frame = _sm("anes96").drop(columns=["logpopul"])
    return _as_int(frame, "TVnews", "selfLR", "ClinLR", "DoleLR", "PID", "age", "educ", "income", "vote")


class _Bunch(Protocol):
    """What scikit-learn's `load_*(as_frame=True)` returns: the data and target as one frame."""

    frame: pd.DataFrame


def _sklearn(loader: Callable[..., _Bunch], **kwargs: object) -> tuple[pd.DataFrame, list[str]]:
    bunch = loader(as_frame=True, **kwargs)
    return bunch.frame.copy(), list(getattr(bunch, "target_names", []))


def iris() -> pd.DataFrame:
    from sklearn.datasets import load_iris

    frame, names = _sklearn(load_iris)
    frame.columns = ["sepal_length", "sepal_width", "petal_length", "petal_width", "target"]
    frame["species"] = [names[t] for t in frame.pop("target")]
    return frame


def wine() -> pd.DataFrame:
    from sklearn.datasets import load_wine

    frame, _ = _sklearn(load_wine)
    frame.insert(0, "cultivar", frame.pop("target") + 1)
    return frame


def diabetes() -> pd.DataFrame:
    from sklearn.datasets import load_diabetes

    frame, _ = _sklearn(load_diabetes, scaled=False)
    frame = frame.rename(columns={"target": "progression"})
    return _as_int(frame, "age", "sex", "progression")


def breast_cancer() -> pd.DataFrame:
    from sklearn.datasets import load_breast_cancer

    frame, names = _sklearn(load_breast_cancer)
    frame.insert(0, "diagnosis", [names[t] for t in frame.pop("target")])
    return frame


def tips() -> pd.DataFrame:
    """A restaurant's bills and tips over a spring quarter: one row per party, Thursday to Sunday."""
    rng = np.random.default_rng(SEED)
    n = 244
    days = pd.date_range("2023-04-01", "2023-06-30", freq="D")
    days = days[days.day_of_week >= 3]
    weight = np.where(days.day_of_week == 4, 0.3, np.where(days.day_of_week == 3, 0.9, 1.2))
    visit = pd.DatetimeIndex(np.sort(rng.choice(days.to_numpy(), size=n, p=weight / weight.sum())))
    day = np.array(["Thur", "Fri", "Sat", "Sun"])[visit.day_of_week - 3]
    lunch_p = np.select([day == "Thur", day == "Fri"], [0.9, 0.4], 0.0)
    time = np.where(rng.random(n) < lunch_p, "Lunch", "Dinner")
    size = rng.choice([1, 2, 3, 4, 5, 6], size=n, p=[0.02, 0.64, 0.15, 0.15, 0.02, 0.02])
    bill = 4.0 + size * rng.gamma(4.0, 1.9, size=n) + np.where(time == "Dinner", 2.5, 0.0)
    rate = np.clip(rng.normal(0.155, 0.045, size=n), 0.04, 0.40)
    tip = np.maximum(1.0, np.round(bill * rate * 4) / 4)
    frame = pd.DataFrame({
        "date": visit.strftime("%Y-%m-%d"),
        "day": day,
        "time": time,
        "sex": rng.choice(["Male", "Female"], size=n, p=[0.64, 0.36]),
        "smoker": rng.choice(["Yes", "No"], size=n, p=[0.38, 0.62]),
        "size": size,
        "total_bill": np.round(bill, 2),
        "tip": tip,
    })
    frame.loc[rng.choice(n, size=6, replace=False), "tip"] = np.nan
    frame.loc[rng.choice(n, size=4, replace=False), "sex"] = np.nan
    return frame


PENGUINS = {  # species: (count, islands, bill length, bill depth, flipper, body mass) as (mean, sd)
    "Adelie": (152, ["Biscoe", "Dream", "Torgersen"], (38.8, 2.6), (18.3, 1.2), (190.0, 6.5), (3700, 450)),
    "Chinstrap": (68, ["Dream"], (48.8, 3.3), (18.4, 1.1), (196.0, 7.1), (3730, 380)),
    "Gentoo": (124, ["Biscoe"], (47.5, 3.1), (15.0, 1.0), (217.0, 6.5), (5080, 500)),
}


def penguins() -> pd.DataFrame:
    """Measurements of three penguin species on three islands, 2007-2009, with some gaps."""
    rng = np.random.default_rng(SEED + 1)
    parts = []
    for species, (count, islands, bill, depth, flipper, mass) in PENGUINS.items():
        sex = rng.choice(["male", "female"], size=count)
        shift = np.where(sex == "male", 1.0, -1.0)
        parts.append(pd.DataFrame({
            "species": species,
            "island": rng.choice(islands, size=count),
            "bill_length_mm": np.round(rng.normal(bill[0], bill[1], count) + 1.2 * shift, 1),
            "bill_depth_mm": np.round(rng.normal(depth[0], depth[1], count) + 0.5 * shift, 1),
            "flipper_length_mm": np.round(rng.normal(flipper[0], flipper[1], count) + 2.5 * shift).astype(float),
            "body_mass_g": (np.round((rng.normal(mass[0], mass[1], count) + 250 * shift) / 25) * 25).astype(float),
            "sex": sex,
            "year": rng.choice([2007, 2008, 2009], size=count),
        }))
    frame = pd.concat(parts, ignore_index=True)
    measures = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"]
    frame.loc[[3, 271], measures + ["sex"]] = np.nan
    frame.loc[rng.choice(frame.index.difference([3, 271]), size=9, replace=False), "sex"] = np.nan
    return frame


def flights() -> pd.DataFrame:
    """Monthly airline passengers (thousands), 1949-1960, with three months not recorded."""
    rng = np.random.default_rng(SEED + 2)
    months = pd.date_range("1949-01-01", "1960-12-01", freq="MS")
    t = np.arange(len(months))
    season = np.array([-0.10, -0.12, 0.01, -0.02, -0.01, 0.11, 0.21, 0.20, 0.06, -0.07, -0.20, -0.09])
    level = np.log(112) + 0.0101 * t + season[months.month - 1] * (1 + t / 200)
    passengers = np.round(np.exp(level + rng.normal(0, 0.025, len(t)))).astype(float)
    frame = pd.DataFrame({
        "date": months.strftime("%Y-%m-%d"),
        "year": months.year,
        "month": months.strftime("%b"),
        "passengers": passengers,
    })
    frame.loc[[17, 62, 115], "passengers"] = np.nan
    return frame


TABLES: dict[str, Callable[[], pd.DataFrame]] = {
    "macrodata": macrodata, "longley": longley, "fair": fair, "grunfeld": grunfeld, "spector": spector,
    "stackloss": stackloss, "sunspots": sunspots, "engel": engel, "statecrime": statecrime, "nile": nile,
    "co2": co2, "elnino": elnino, "anes96": anes96, "iris": iris, "wine": wine, "diabetes": diabetes,
    "breast_cancer": breast_cancer, "tips": tips, "penguins": penguins, "flights": flights,
}


def materialize(dest: Path) -> None:
    """Writes `<name>.csv` for every table into `dest` (created if missing)."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for name, make in TABLES.items():
        make().to_csv(dest / f"{name}.csv", index=False)


if __name__ == "__main__":
    import sys

    materialize(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "data")
