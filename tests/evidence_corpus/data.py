"""Deterministic data sets for the corpus (fixed seeds, built in memory, cached; nothing is written to disk).

Every frame is built once per process and must be treated as read-only by callers (copy before changing it).
"""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pandas as pd

REGIONS = ["North", "South", "East", "West", "Central"]
MONTHS = [str(p) for p in pd.period_range("2023-01", periods=24, freq="M")]


def shown(*objs: object) -> str:
    """What `print(a, b)` of each object, one call per object, writes to stdout."""
    return "".join(f"{o}\n" for o in objs)


def frame_text(df: pd.DataFrame) -> str:
    """`df.to_string()` for a frame with a default index and int, str or fixed-decimal float columns, built
    without pandas' formatter (which takes seconds on a busy machine for 20,000 rows). As pandas does, numeric
    headers and every value get a leading space, columns are right-justified and joined by one space."""
    cols, heads = [[str(i) for i in df.index]], [""]
    for name in df.columns:
        values = df[name].tolist()
        kind = df[name].dtype.kind
        if kind == "f":  # '%.6f', then trailing zeros trimmed alike from the whole column, one decimal at least
            scaled = np.rint(np.asarray(values) * 1e6).astype(np.int64)
            cut = next((k for k in range(5, 0, -1) if not (scaled % 10**k).any()), 0)
            strs = [f"{v:.{6 - cut}f}" for v in values]
        else:
            strs = [str(v) for v in values]
        cols.append([" " + x for x in strs])
        heads.append((" " if kind in "iuf" else "") + str(name))
    widths = [max(len(h), max(map(len, c))) for h, c in zip(heads, cols, strict=True)]
    line = (f"{{:<{widths[0]}}}" + "".join(f" {{:>{w}}}" for w in widths[1:])).format
    return "\n".join([line(*heads)] + [line(*row) for row in zip(*cols, strict=True)])


def csv(df: pd.DataFrame | pd.Series, index: bool = True) -> str:
    return df.to_csv(index=index)


def csv_rows(df: pd.DataFrame) -> str:
    """`df.to_csv(index=False)` for a frame of ints, plain strings and floats (written as repr), built quickly."""
    cols = [[str(v) for v in df[c].tolist()] for c in df.columns]
    return "\n".join([",".join(map(str, df.columns)), *map(",".join, zip(*cols, strict=True))]) + "\n"


def dumps(obj: dict) -> str:
    return json.dumps(obj, indent=2)


def _sales(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    m = rng.integers(0, 24, n)
    region = rng.choice(REGIONS, n, p=[0.28, 0.2, 0.22, 0.14, 0.16])
    growth = pd.Series({"North": 0.010, "South": 0.004, "East": 0.034, "West": -0.004, "Central": 0.011})
    ad_trend = pd.Series({"North": 0.004, "South": 0.002, "East": 0.036, "West": 0.0, "Central": 0.006})
    g = growth[region].to_numpy()
    discount = rng.integers(0, 31, n)
    ad_spend = (rng.gamma(3.0, 1.2, n) * np.exp(ad_trend[region].to_numpy() * m)).round(2)
    price = rng.normal(48, 9, n).clip(15).round(2)
    channel = rng.choice(["Online", "Retail"], n, p=[0.55, 0.45])
    lam = np.where(channel == "Online", 1.09, 1.0) * 40 * np.exp(g * m) * (1 + 0.012 * discount)
    lam = lam * (1 + 0.05 * ad_spend) * (price / 48) ** -1.1
    units = rng.poisson(lam)
    revenue = (units * price * (1 - discount / 100)).round(2)
    return pd.DataFrame({
        "order_id": np.arange(100001, 100001 + n),
        "month": np.array(MONTHS)[m],
        "region": region,
        "channel": channel,
        "discount_pct": discount,
        "ad_spend": ad_spend,
        "price": price,
        "units": units,
        "revenue": revenue,
    })


@cache
def sales() -> pd.DataFrame:
    return _sales(4800, 7)


@cache
def sales_big() -> pd.DataFrame:
    return _sales(20000, 11)


@cache
def ab() -> pd.DataFrame:
    rng = np.random.default_rng(21)
    n = 9000
    group = rng.choice(["A", "B"], n)
    p = np.where(group == "B", 0.124, 0.108)
    converted = (rng.random(n) < p).astype(int)
    value = np.where(converted == 1, rng.gamma(4, 14, n).round(2), 0.0)
    return pd.DataFrame({"user_id": np.arange(1, n + 1), "group": group, "converted": converted, "order_value": value})


@cache
def churn() -> pd.DataFrame:
    rng = np.random.default_rng(33)
    n = 3000
    contract = rng.choice(["Month-to-month", "One year", "Two year"], n, p=[0.5, 0.28, 0.22])
    tenure = rng.integers(1, 73, n)
    charges = rng.normal(70, 22, n).clip(18).round(2)
    calls = rng.poisson(1.6, n)
    base = pd.Series({"Month-to-month": -0.35, "One year": -1.6, "Two year": -2.7})[contract].to_numpy()
    logit = base - 0.025 * tenure + 0.012 * (charges - 70) + 0.28 * calls
    churned = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return pd.DataFrame({"customer_id": [f"C{i:05d}" for i in range(1, n + 1)], "contract": contract,
                         "tenure_months": tenure, "monthly_charges": charges, "support_calls": calls,
                         "churned": churned})


@cache
def houses() -> pd.DataFrame:
    rng = np.random.default_rng(45)
    n = 1200
    hood = rng.choice(["Riverside", "Old Town", "Hillcrest", "Lakeside"], n, p=[0.3, 0.25, 0.25, 0.2])
    sqft = rng.normal(1750, 420, n).clip(600).round(0).astype(int)
    beds = np.clip((sqft / 600).round().astype(int) + rng.integers(-1, 2, n), 1, 6)
    age = rng.integers(0, 90, n)
    prem = pd.Series({"Riverside": 1.0, "Old Town": 0.92, "Hillcrest": 1.21, "Lakeside": 1.34})[hood].to_numpy()
    price = (prem * (95000 + 182 * sqft - 650 * age) * rng.lognormal(0, 0.18, n)).round(-2)
    return pd.DataFrame({"house_id": np.arange(1, n + 1), "neighbourhood": hood, "sqft": sqft, "bedrooms": beds,
                         "age_years": age, "price": price})


@cache
def trial() -> pd.DataFrame:
    rng = np.random.default_rng(57)
    n = 240
    arm = np.repeat(["drug", "placebo"], n // 2)
    baseline = rng.normal(152, 11, n).round(1)
    reduction = np.where(arm == "drug", rng.normal(8.4, 6.5, n), rng.normal(3.2, 6.1, n)).round(1)
    return pd.DataFrame({"patient_id": np.arange(1, n + 1), "arm": arm, "age": rng.integers(35, 80, n),
                         "baseline_sbp": baseline, "sbp_reduction": reduction})


@cache
def traffic() -> pd.DataFrame:
    rng = np.random.default_rng(69)
    dates = pd.date_range("2024-01-01", "2024-12-31", freq="D")
    weekday = dates.day_name()
    lift = pd.Series({"Monday": 0.97, "Tuesday": 1.0, "Wednesday": 1.02, "Thursday": 1.01, "Friday": 0.95,
                      "Saturday": 1.16, "Sunday": 1.09})[weekday].to_numpy()
    trend = 1 + 0.0009 * np.arange(len(dates))
    visits = rng.poisson(1500 * lift * trend)
    return pd.DataFrame({"date": dates.strftime("%Y-%m-%d"), "weekday": weekday, "visits": visits})


@cache
def salaries() -> pd.DataFrame:
    rng = np.random.default_rng(81)
    n = 800
    dept = rng.choice(["Engineering", "Sales", "Marketing", "Operations", "Finance"], n, p=[.3, .22, .14, .2, .14])
    gender = rng.choice(["F", "M"], n, p=[0.44, 0.56])
    years = rng.integers(0, 30, n)
    base = pd.Series({"Engineering": 98000, "Sales": 71000, "Marketing": 74000, "Operations": 62000,
                      "Finance": 83000})[dept].to_numpy()
    salary = (base * (1 + 0.018 * years) * np.where(gender == "F", 0.955, 1.0) * rng.lognormal(0, 0.09, n))
    return pd.DataFrame({"employee_id": np.arange(1, n + 1), "department": dept, "gender": gender,
                         "years_experience": years, "salary": salary.round(0).astype(int)})


@cache
def orders() -> pd.DataFrame:
    rng = np.random.default_rng(93)
    n = 6000
    ret = rng.random(n) < 0.38
    value = np.where(ret, rng.gamma(5, 13.5, n), rng.gamma(4, 12.2, n)).round(2)
    return pd.DataFrame({"order_id": np.arange(1, n + 1), "customer_id": rng.integers(1, 4813, n),
                         "customer_type": np.where(ret, "returning", "new"), "order_value": value})


@cache
def monthly() -> pd.DataFrame:
    rng = np.random.default_rng(105)
    months = pd.period_range("2021-01", periods=36, freq="M")
    season = 1 + 0.12 * np.sin(2 * np.pi * (np.arange(36) % 12) / 12)
    revenue = (72000 * (1 + 0.011) ** np.arange(36) * season * rng.normal(1, 0.035, 36)).round(2)
    return pd.DataFrame({"month": months.astype(str), "revenue": revenue})


@cache
def sensors() -> pd.DataFrame:
    rng = np.random.default_rng(117)
    n = 24000
    ids = [f"S{i:02d}" for i in range(1, 13)]
    sensor = np.tile(ids, n // 12)
    ts = pd.date_range("2024-06-01", periods=n // 12, freq="min").repeat(12)
    hot = sensor == "S07"
    temp = np.where(hot, rng.normal(81.3, 4.0, n), rng.normal(64.8, 2.6, n)).round(2)
    return pd.DataFrame({"timestamp": ts.strftime("%Y-%m-%d %H:%M"), "sensor": sensor, "temp_c": temp,
                         "humidity": rng.normal(41, 6, n).round(1), "vibration": rng.gamma(2, 0.05, n).round(4)})
