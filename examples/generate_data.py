"""Generate the bundled sample data: a retail chain's orders over two years, and its stores.

    python examples/generate_data.py            # writes examples/data/{retail_sales,stores}.csv
    python examples/generate_data.py --out DIR  # somewhere else

Deterministic: a seeded numpy generator and fixed number formatting, so the same seed gives the same
bytes. The structure planted here (trends, weekly and seasonal pattern, channel and age effects,
messy entries) is listed in examples/README.md; tests/test_examples_data.py checks it is there.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SEED = 20240601
START = dt.date(2023, 1, 1)
DAYS = 731  # 2023-01-01 .. 2024-12-31
REGIONS = ("North", "South", "East", "West")
# Yearly growth of order volume per region: the trend differs by region, South is flat.
REGION_GROWTH = {"North": 0.30, "South": 0.0, "East": 0.15, "West": 0.08}
WEEKDAY_FACTOR = (0.85, 0.85, 0.9, 0.95, 1.1, 1.4, 1.25)  # Monday .. Sunday
MONTH_FACTOR = (0.8, 0.85, 0.95, 1.0, 1.0, 1.05, 1.1, 1.1, 1.0, 1.0, 1.25, 1.6)  # January .. December
ORDERS_PER_STORE_DAY = 1.0  # for a store of average size, before the factors above
ONLINE_SHARE = 0.35
ONLINE_UNITS_FACTOR = 1.3
DISCOUNTS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3)
DISCOUNT_WEIGHTS = (0.40, 0.15, 0.15, 0.10, 0.10, 0.05, 0.05)
DISCOUNT_UNITS_SLOPE = 6.0  # expected extra units per unit of discount share (units rise with discount)


@dataclass(frozen=True)
class Category:
    name: str
    weight: float
    price: float  # median unit price
    units: float  # mean extra units per order beyond the first


CATEGORIES = (
    Category("Electronics", 0.15, 180.0, 0.3),
    Category("Home", 0.20, 60.0, 1.0),
    Category("Clothing", 0.25, 40.0, 1.5),
    Category("Sports", 0.15, 55.0, 1.0),
    Category("Grocery", 0.25, 12.0, 4.0),
)
STORES = (
    # store_id, city, region, size_sqm, opened_year, store_type
    ("S01", "Aberdeen", "North", 2400, 2004, "Retail park"),
    ("S02", "Inverness", "North", 1300, 2015, "High street"),
    ("S03", "Dundee", "North", 1800, 2009, "Mall"),
    ("S04", "Brighton", "South", 2100, 1999, "Mall"),
    ("S05", "Southampton", "South", 2900, 2001, "Retail park"),
    ("S06", "Plymouth", "South", 1100, 2018, "High street"),
    ("S07", "Norwich", "East", 1600, 2011, "High street"),
    ("S08", "Cambridge", "East", 2000, 2007, "Mall"),
    ("S09", "Ipswich", "East", 1400, 2016, "High street"),
    ("S10", "Bristol", "West", 2600, 2003, "Retail park"),
    ("S11", "Exeter", "West", 1200, 2019, "High street"),
    ("S12", "Gloucester", "West", 1700, 2012, "Mall"),
)
MISSING_AGE_SHARE = 0.02
MISSING_SATISFACTION_SHARE = 0.03
MESSY_REGION_SHARE = 0.015
MESSY_CATEGORY_SHARE = 0.005
DUPLICATED_ROWS = 3
SALES_COLUMNS = (
    "order_id", "date", "region", "store_id", "category", "channel", "units", "unit_price",
    "discount", "revenue", "customer_age", "satisfaction",
)
STORE_COLUMNS = ("store_id", "city", "region", "size_sqm", "opened_year", "store_type")


def generate(out: Path, seed: int = SEED) -> list[Path]:
    """Write `retail_sales.csv` and `stores.csv` into `out`; return their paths."""
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    stores_path = out / "stores.csv"
    _write(stores_path, STORE_COLUMNS, [list(store) for store in STORES])
    sales_path = out / "retail_sales.csv"
    _write(sales_path, SALES_COLUMNS, _orders(rng))
    return [sales_path, stores_path]


def _orders(rng: np.random.Generator) -> list[list[object]]:
    mean_size = sum(store[3] for store in STORES) / len(STORES)
    rows: list[list[object]] = []
    for day in range(DAYS):
        date = START + dt.timedelta(days=day)
        years = day / 365.25
        for store_id, _city, region, size, _opened, _type in STORES:
            rate = (
                ORDERS_PER_STORE_DAY
                * size / mean_size
                * (1 + REGION_GROWTH[region] * years)
                * WEEKDAY_FACTOR[date.weekday()]
                * MONTH_FACTOR[date.month - 1]
            )
            for _ in range(rng.poisson(rate)):
                rows.append(_order(rng, date, region, store_id))
    for number, row in enumerate(rows, start=1):
        row[0] = f"O{number:06d}"
    _plant_outlier(rows)
    _mess_up(rng, rows)
    return rows


def _order(rng: np.random.Generator, date: dt.date, region: str, store_id: str) -> list[object]:
    category = CATEGORIES[rng.choice(len(CATEGORIES), p=[c.weight for c in CATEGORIES])]
    online = rng.random() < ONLINE_SHARE
    discount = float(rng.choice(DISCOUNTS, p=DISCOUNT_WEIGHTS))
    mean_extra_units = category.units * (1 + DISCOUNT_UNITS_SLOPE * discount) * (ONLINE_UNITS_FACTOR if online else 1.0)
    units = 1 + int(rng.poisson(mean_extra_units))
    unit_price = round(float(category.price * rng.lognormal(0.0, 0.35)), 2)
    revenue = round(units * unit_price * (1 - discount), 2)
    # Online customers are younger and a little less satisfied.
    age = int(np.clip(round(rng.normal(34 if online else 45, 12)), 18, 85))
    satisfaction = int(np.clip(round(rng.normal(3.6 if online else 4.1, 0.8)), 1, 5))
    return [
        "", date.isoformat(), region, store_id, category.name, "Online" if online else "In-store",
        units, f"{unit_price:.2f}", f"{discount:.2f}", f"{revenue:.2f}", age, satisfaction,
    ]


def _plant_outlier(rows: list[list[object]]) -> None:
    """One bulk order: 480 units of Grocery at store S05 on 2024-03-14 (the first such order that day)."""
    for row in rows:
        if row[1] == "2024-03-14" and row[3] == "S05":
            unit_price = 11.5
            row[4:10] = ["Grocery", "In-store", 480, f"{unit_price:.2f}", "0.10", f"{480 * unit_price * 0.9:.2f}"]
            return
    raise RuntimeError("no order at S05 on 2024-03-14 to turn into the outlier; change the seed")


def _mess_up(rng: np.random.Generator, rows: list[list[object]]) -> None:
    """Missing values, inconsistent spellings, and a few exact duplicate rows."""
    for row in rows:
        if rng.random() < MISSING_AGE_SHARE:
            row[10] = ""
        if rng.random() < MISSING_SATISFACTION_SHARE:
            row[11] = ""
        if rng.random() < MESSY_REGION_SHARE:
            region = str(row[2])
            row[2] = (f" {region} ", region.lower(), region.upper())[int(rng.integers(3))]
        if rng.random() < MESSY_CATEGORY_SHARE:
            row[4] = str(row[4]).lower()
    picked = sorted(rng.choice(len(rows), size=DUPLICATED_ROWS, replace=False).tolist(), reverse=True)
    for index in picked:
        rows.insert(index + 1, list(rows[index]))


def _write(path: Path, header: tuple[str, ...], rows: list[list[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "data")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    for path in generate(args.out, args.seed):
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
