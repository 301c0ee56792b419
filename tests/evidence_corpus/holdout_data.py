"""Data sets of the hold-out batch (fixed seeds, built in memory once per process, never written to disk).

Callers must treat every frame as read-only (copy before changing it).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

WARDS = ["Cardiology", "Orthopedics", "General Medicine", "Oncology", "Respiratory"]
BUILDING_TYPES = ["Office", "School", "Retail", "Warehouse", "Hospital"]
SCHOOLS = ["Ashford", "Brookvale", "Cedar Park", "Dunmore", "Elmwood", "Fairview", "Glenrock", "Hartley"]
ENDPOINTS = ["/api/search", "/api/product", "/api/cart", "/api/checkout", "/api/login"]
CLOUD_REGIONS = ["us-east", "eu-west", "ap-south"]
POLICIES = ["Auto", "Home", "Health", "Travel"]
WAREHOUSES = ["WH-North", "WH-South", "WH-East", "WH-West"]
DEPARTMENTS = ["Engineering", "Sales", "Support", "Finance", "Operations", "HR"]
ITEMS = [f"q{i}" for i in range(1, 9)]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


@cache
def discharges() -> pd.DataFrame:
    rng = np.random.default_rng(201)
    n = 15000
    ward = rng.choice(WARDS, n, p=[0.22, 0.18, 0.30, 0.12, 0.18])
    age = rng.integers(18, 96, n)
    los = np.clip(rng.gamma(2.2, 2.1, n).round().astype(int), 1, 45)
    prior = rng.poisson(0.9, n).clip(0, 8)
    dest = rng.choice(["Home", "Home with care", "Skilled nursing"], n, p=[0.62, 0.23, 0.15])
    base = pd.Series({"Cardiology": -2.05, "Orthopedics": -2.6, "General Medicine": -2.2, "Oncology": -1.55,
                      "Respiratory": -1.85})[ward].to_numpy()
    d_eff = pd.Series({"Home": 0.0, "Home with care": 0.18, "Skilled nursing": 0.41})[dest].to_numpy()
    logit = base + 0.011 * (age - 65) + 0.06 * (los - 4) + 0.32 * prior + d_eff
    readmitted = (rng.random(n) < _sigmoid(logit)).astype(int)
    return pd.DataFrame({"admission_id": np.arange(500001, 500001 + n), "ward": ward, "age": age,
                         "length_of_stay": los, "prior_admissions": prior, "discharge_to": dest,
                         "readmitted_30d": readmitted})


@cache
def buildings() -> pd.DataFrame:
    rng = np.random.default_rng(202)
    n = 640
    kind = rng.choice(BUILDING_TYPES, n, p=[0.34, 0.2, 0.2, 0.16, 0.1])
    area = rng.lognormal(8.3, 0.55, n).round(-1).astype(int).clip(400)
    year = rng.integers(1950, 2021, n)
    retrofit = (rng.random(n) < 0.35).astype(int)
    zone = rng.choice(["A", "B", "C"], n, p=[0.3, 0.45, 0.25])
    base = pd.Series({"Office": 205, "School": 138, "Retail": 262, "Warehouse": 92, "Hospital": 431})[kind]
    z = pd.Series({"A": 1.08, "B": 1.0, "C": 0.93})[zone].to_numpy()
    eui = base.to_numpy() * z * (1 + 0.0042 * (2020 - year)) * rng.lognormal(0, 0.14, n) - 33 * retrofit
    return pd.DataFrame({"building_id": [f"B{i:04d}" for i in range(1, n + 1)], "building_type": kind,
                         "floor_area_m2": area, "year_built": year, "retrofit": retrofit, "climate_zone": zone,
                         "annual_kwh": (eui * area).round(0).astype(int)})


@cache
def meter_readings() -> pd.DataFrame:
    rng = np.random.default_rng(212)
    ids = ["B0007", "B0013", "B0021", "B0034", "B0058", "B0062", "B0071", "B0089", "B0102", "B0117", "B0131",
           "B0146", "B0160", "B0188", "B0203", "B0219"]
    ts = pd.date_range("2024-01-08", periods=16 * 96, freq="15min")
    hour = ts.hour.to_numpy() + ts.minute.to_numpy() / 60
    weekend = ts.day_of_week.to_numpy() >= 5
    shape = np.exp(-((hour - 11.2) ** 2) / (2 * 3.1**2)) * np.where(weekend, 0.35, 1.0)
    temp = (2.5 + 4.0 * np.sin(2 * np.pi * (hour - 9) / 24) + rng.normal(0, 0.8, len(ts))).round(1)
    scale = rng.uniform(6, 22, len(ids))
    rows = []
    for b, s in zip(ids, scale, strict=True):
        kwh = (s * (0.42 + 0.58 * shape) * rng.lognormal(0, 0.07, len(ts))).round(2)
        rows.append(pd.DataFrame({"timestamp": ts.strftime("%Y-%m-%d %H:%M"), "building_id": b, "kwh": kwh,
                                  "outdoor_temp_c": temp}))
    return pd.concat(rows, ignore_index=True)


@cache
def students() -> pd.DataFrame:
    rng = np.random.default_rng(203)
    n = 2400
    school = rng.choice(SCHOOLS, n)
    grade = rng.choice([6, 7, 8], n)
    tutoring = rng.choice(["Yes", "No"], n, p=[0.32, 0.68])
    attendance = (100 - rng.gamma(2.0, 3.4, n)).clip(55).round(1)
    s_eff = pd.Series(dict(zip(SCHOOLS, [3.1, -1.4, 5.2, -4.0, 0.6, 2.2, -2.7, -0.9], strict=True)))[school]
    ability = rng.normal(0, 9.5, n)
    math = 66 + s_eff.to_numpy() + 4.6 * (tutoring == "Yes") + 0.55 * (attendance - 93) + ability
    reading = 69 + 0.7 * s_eff.to_numpy() + 2.1 * (tutoring == "Yes") + 0.48 * (attendance - 93)
    reading = reading + 0.6 * ability + rng.normal(0, 7.5, n)
    return pd.DataFrame({"student_id": np.arange(1, n + 1), "school": school, "grade": grade, "tutoring": tutoring,
                         "attendance_pct": attendance, "math_score": math.clip(0, 100).round(1),
                         "reading_score": reading.clip(0, 100).round(1)})


@cache
def survey() -> pd.DataFrame:
    rng = np.random.default_rng(204)
    n = 1500
    dept = rng.choice(DEPARTMENTS, n, p=[0.26, 0.2, 0.2, 0.1, 0.16, 0.08])
    tenure = rng.choice(["<1y", "1-3y", "3-5y", "5y+"], n, p=[0.18, 0.34, 0.24, 0.24])
    mood = rng.normal(0, 0.75, n) + pd.Series({"Engineering": 0.25, "Sales": -0.1, "Support": -0.45,
                                                 "Finance": 0.15, "Operations": -0.2, "HR": 0.3})[dept].to_numpy()
    shift = np.array([0.35, 0.1, -0.15, 0.5, -0.4, 0.2, 0.0, -0.25])
    latent = 3.3 + mood[:, None] + shift[None, :] + rng.normal(0, 0.7, (n, 8))
    items = np.clip(np.rint(latent), 1, 5).astype(int)
    out = pd.DataFrame({"respondent_id": np.arange(1, n + 1), "department": dept, "tenure": tenure})
    for i, name in enumerate(ITEMS):
        out[name] = items[:, i]
    return out


@cache
def demand() -> pd.DataFrame:
    rng = np.random.default_rng(205)
    ts = pd.date_range("2023-01-01", "2024-12-31 23:00", freq="h")
    h = ts.hour.to_numpy()
    dow = ts.day_of_week.to_numpy()
    daily = 0.55 + 0.45 * np.exp(-((h - 18) ** 2) / 18) + 0.25 * np.exp(-((h - 8) ** 2) / 6)
    weekly = np.where(dow >= 5, 1.22, 1.0)
    years = (ts - ts[0]).days.to_numpy() / 365.25
    lam = 21 * daily * weekly * (1 - 0.031 * years) * (1 + 0.08 * np.sin(2 * np.pi * ts.day_of_year.to_numpy() / 365))
    return pd.DataFrame({"timestamp": ts.strftime("%Y-%m-%d %H:%M"), "units": rng.poisson(lam)})


@cache
def requests_log() -> pd.DataFrame:
    rng = np.random.default_rng(206)
    n = 30000
    secs = np.sort(rng.integers(0, 7 * 86400, n))
    ts = (pd.Timestamp("2024-05-13") + pd.to_timedelta(secs, unit="s")).strftime("%Y-%m-%d %H:%M:%S")
    ep = rng.choice(ENDPOINTS, n, p=[0.34, 0.27, 0.17, 0.08, 0.14])
    region = rng.choice(CLOUD_REGIONS, n, p=[0.5, 0.3, 0.2])
    med = pd.Series({"/api/search": 118, "/api/product": 64, "/api/cart": 82, "/api/checkout": 236,
                     "/api/login": 95})[ep].to_numpy()
    r_eff = pd.Series({"us-east": 1.0, "eu-west": 1.12, "ap-south": 1.48})[region].to_numpy()
    size = rng.lognormal(8.2, 0.9, n).round().astype(int)
    latency = (med * r_eff * rng.lognormal(0, 0.55, n)).round(1)
    p_err = pd.Series({"/api/search": 0.004, "/api/product": 0.002, "/api/cart": 0.006, "/api/checkout": 0.021,
                       "/api/login": 0.009})[ep].to_numpy()
    status = np.where(rng.random(n) < p_err, rng.choice([500, 502, 503], n), np.where(rng.random(n) < 0.03, 404, 200))
    return pd.DataFrame({"ts": ts, "endpoint": ep, "region": region, "status": status, "latency_ms": latency,
                         "resp_bytes": size})


@cache
def claims() -> pd.DataFrame:
    rng = np.random.default_rng(207)
    n = 25000
    policy = rng.choice(POLICIES, n, p=[0.41, 0.24, 0.25, 0.10])
    age = rng.integers(18, 86, n)
    scale = pd.Series({"Auto": 4300, "Home": 9200, "Health": 2600, "Travel": 900})[policy].to_numpy()
    amount = (scale * rng.lognormal(0, 0.8, n) * np.exp(-0.32)).round(2)
    days = np.maximum(1, rng.poisson(pd.Series({"Auto": 21, "Home": 38, "Health": 27, "Travel": 12})[policy]
                                     .to_numpy() * (amount / scale) ** 0.25)).astype(int)
    fraud_p = pd.Series({"Auto": 0.031, "Home": 0.022, "Health": 0.014, "Travel": 0.043})[policy].to_numpy()
    return pd.DataFrame({"claim_id": [f"CL{i:06d}" for i in range(1, n + 1)], "policy_type": policy,
                         "region": rng.choice(["North", "South", "East", "West"], n), "claimant_age": age,
                         "claim_amount": amount, "days_to_settle": days,
                         "fraud_flag": (rng.random(n) < fraud_p).astype(int)})


@cache
def inventory() -> pd.DataFrame:
    rng = np.random.default_rng(208)
    n = 20000
    cats = ["Electronics", "Apparel", "Grocery", "Home", "Toys"]
    cat = rng.choice(cats, n, p=[0.18, 0.26, 0.24, 0.2, 0.12])
    wh = rng.choice(WAREHOUSES, n, p=[0.3, 0.24, 0.26, 0.2])
    demand_ = rng.gamma(1.6, 4.2, n).round(2) + 0.05
    lead = rng.integers(3, 29, n)
    cover = rng.gamma(3.2, 9.0, n) * pd.Series({"WH-North": 1.0, "WH-South": 0.78, "WH-East": 1.1,
                                                  "WH-West": 0.9})[wh].to_numpy()
    cost = (pd.Series({"Electronics": 84, "Apparel": 19, "Grocery": 4.5, "Home": 27, "Toys": 14})[cat].to_numpy()
            * rng.lognormal(0, 0.5, n)).round(2)
    return pd.DataFrame({"sku": [f"SKU-{i:05d}" for i in range(1, n + 1)], "warehouse": wh, "category": cat,
                         "on_hand": np.rint(demand_ * cover).astype(int), "avg_daily_demand": demand_.round(2),
                         "lead_time_days": lead, "unit_cost": cost})
