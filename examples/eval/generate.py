"""Generate the offline eval set: small deterministic CSV files and the question manifest.

    python examples/eval/generate.py            # writes examples/eval/data/ and examples/eval/manifest.jsonl
    python examples/eval/generate.py --out DIR  # somewhere else

The data are invented (fictional employees, sensors, students, countries and a small shop) from a seeded
numpy generator with fixed number formatting, so the same seed gives the same bytes. The answers are
computed here from the values as written to the CSV files (read back with the `csv` module), with numpy
and scipy directly: never with agentic-ds' own templates. The questions live in `questions.py`.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 20250214
CITIES = ("Lisbon", "Oslo", "Tallinn", "Valencia", "Ghent", "Krakow")
DEPARTMENTS = ("Sales", "Engineering", "Support", "Marketing", "Finance")
LEVELS = ("Junior", "Mid", "Senior")
CONTINENTS = ("Africa", "Americas", "Asia", "Europe", "Oceania")
COUNTRY_SYLLABLES = ("ar", "bel", "cor", "dun", "el", "fa", "gor", "hal", "is", "jen", "kal", "lum", "mor", "nev",
                     "or", "pal", "quen", "ros", "sal", "tor", "ul", "var", "wen", "yel", "zan")


def _fixed(values: np.ndarray, digits: int) -> list[str]:
    return [f"{v:.{digits}f}" for v in values]


def employees(rng: np.random.Generator, n: int = 240) -> dict[str, list[str]]:
    department = rng.choice(DEPARTMENTS, n, p=[0.25, 0.3, 0.2, 0.15, 0.1])
    level = rng.choice(LEVELS, n, p=[0.4, 0.35, 0.25])
    age = rng.integers(22, 65, n)
    experience = np.clip(age - 22 - rng.integers(0, 8, n), 0, None)
    dept_effect = {"Sales": 0, "Engineering": 14000, "Support": -6000, "Marketing": 3000, "Finance": 9000}
    level_effect = {"Junior": 0, "Mid": 9000, "Senior": 21000}
    salary = (42000 + 900 * experience + np.array([dept_effect[d] for d in department])
              + np.array([level_effect[lv] for lv in level]) + rng.normal(0, 7000, n)).round(0)
    bonus = np.round(rng.gamma(1.6, 1800, n) + (level == "Senior") * 1500, 2)
    score = np.clip(np.round(rng.normal(3.4, 0.7, n), 1), 1.0, 5.0)
    training = rng.poisson(18, n)
    training[rng.choice(n, 5, replace=False)] = rng.integers(70, 120, 5)
    missing_bonus = rng.choice(n, 18, replace=False)
    # Scores are missing only where the bonus is too: "ignore rows with missing values" then means one thing.
    missing_score = rng.choice(missing_bonus, 9, replace=False)
    bonus_text = _fixed(bonus, 2)
    score_text = _fixed(score, 1)
    for i in missing_bonus:
        bonus_text[i] = ""
    for i in missing_score:
        score_text[i] = ""
    return {
        "employee_id": [f"E{i:03d}" for i in range(1, n + 1)],
        "department": list(department), "level": list(level),
        "city": list(rng.choice(CITIES, n)), "remote": list(rng.choice(["yes", "no"], n, p=[0.4, 0.6])),
        "age": [str(v) for v in age], "years_experience": [str(v) for v in experience],
        "salary": [str(int(v)) for v in salary], "bonus": bonus_text, "performance_score": score_text,
        "training_hours": [str(v) for v in training],
    }


def sensors(rng: np.random.Generator, n: int = 480) -> dict[str, list[str]]:
    start = dt.datetime(2024, 3, 1)
    sensor = np.array(["A", "B", "C"] * (n // 3))
    offset = {"A": 0.0, "B": 1.5, "C": -1.0}
    temperature = rng.normal(21, 2.5, n) + np.array([offset[s] for s in sensor])
    temperature[rng.choice(n, 4, replace=False)] = rng.uniform(40, 46, 4)     # clear spikes
    humidity = rng.uniform(30, 72, n)
    pressure = rng.normal(1013, 4, n) - np.array([{"A": 0, "B": 2.0, "C": 0.8}[s] for s in sensor])
    battery = np.clip(100 - np.arange(n) * 0.15 + rng.normal(0, 1.5, n), 5, 100)
    return {
        "reading_id": [f"R{i:04d}" for i in range(1, n + 1)],
        "timestamp": [(start + dt.timedelta(hours=i)).strftime("%Y-%m-%d %H:%M") for i in range(n)],
        "sensor": list(sensor), "temperature": _fixed(temperature, 2), "humidity": _fixed(humidity, 1),
        "pressure": _fixed(pressure, 2), "battery_pct": _fixed(battery, 1),
    }


def students(rng: np.random.Generator, n: int = 200) -> dict[str, list[str]]:
    study = np.clip(rng.gamma(3, 1.6, n), 0.2, 15)
    sleep = np.clip(rng.normal(7, 1.1, n), 3.5, 10)
    siblings = rng.choice([0, 1, 2, 3, 4], n, p=[0.25, 0.35, 0.25, 0.1, 0.05])
    class_effect = {"A": 3, "B": 0, "C": -4, "D": 6}
    klass = rng.choice(list(class_effect), n)
    score = np.clip(np.round(35 + 4.2 * study + 2.5 * (sleep - 7) - 1.5 * siblings
                             + np.array([class_effect[c] for c in klass]) + rng.normal(0, 9, n)), 0, 100).astype(int)
    sleep_text = _fixed(sleep, 1)
    for i in rng.choice(n, 10, replace=False):
        sleep_text[i] = ""
    return {
        "student_id": [f"S{i:03d}" for i in range(1, n + 1)], "class": list(klass),
        "gender": list(rng.choice(["female", "male"], n)), "study_hours": _fixed(study, 1), "sleep_hours": sleep_text,
        "siblings": [str(v) for v in siblings], "exam_score": [str(v) for v in score],
        "passed": [str(int(v >= 50)) for v in score],
    }


def countries(rng: np.random.Generator, n: int = 40) -> dict[str, list[str]]:
    names: list[str] = []
    while len(names) < n:
        name = "".join(rng.choice(COUNTRY_SYLLABLES, 3)).capitalize() + rng.choice(["ia", "land", "stan", "ora"])
        if name not in names:
            names.append(name)
    continent = rng.choice(CONTINENTS, n)
    population = np.round(rng.lognormal(2.6, 1.1, n), 1)
    gdp_per_head = rng.lognormal(9.6, 0.8, n)                       # dollars per person
    gdp = np.round(population * gdp_per_head / 1000, 1)             # billions
    life = np.clip(np.round(52 + 4.0 * np.log(gdp_per_head / 1000) + rng.normal(0, 2.5, n), 1), 45, 86)
    co2 = np.round(np.clip(gdp_per_head / 4000 + rng.normal(0, 1.2, n), 0.1, None), 2)
    area = rng.integers(2_000, 3_000_000, n)
    return {"country": names, "continent": list(continent), "population_m": _fixed(population, 1),
            "gdp_billion": _fixed(gdp, 1), "life_expectancy": _fixed(life, 1), "co2_per_capita": _fixed(co2, 2),
            "area_km2": [str(v) for v in area]}


def shop(rng: np.random.Generator) -> dict[str, dict[str, list[str]]]:
    n_customers, n_products, n_orders = 150, 30, 600
    customer_ids = [f"C{i:03d}" for i in range(1, n_customers + 1)]
    segment = rng.choice(["Consumer", "Corporate", "Premium"], n_customers, p=[0.55, 0.3, 0.15])
    customers = {"customer_id": customer_ids,
                 "country": list(rng.choice(["Portugal", "Norway", "Estonia", "Spain", "Belgium", "Poland"],
                                            n_customers)),
                 "segment": list(segment), "signup_year": [str(v) for v in rng.integers(2018, 2024, n_customers)]}
    product_ids = [f"P{i:02d}" for i in range(1, n_products + 1)]
    category = rng.choice(["Toys", "Books", "Garden", "Kitchen"], n_products)
    base = {"Toys": 25, "Books": 14, "Garden": 40, "Kitchen": 33}
    list_price = np.round(np.array([base[c] for c in category]) * rng.uniform(0.6, 1.6, n_products), 2)
    words = ("Bright", "Cosy", "Swift", "Handy", "Mellow", "Sturdy", "Lucky", "Quiet", "Bold", "Tiny")
    products = {"product_id": product_ids,
                "product_name": [f"{words[i % 10]} {c} {i // 10 + 1}" for i, c in enumerate(category)],
                "category": list(category), "list_price": _fixed(list_price, 2),
                "weight_kg": _fixed(rng.uniform(0.1, 6, n_products), 2)}
    chosen = rng.integers(0, n_products, n_orders)
    buyer = rng.integers(0, n_customers, n_orders)
    premium = segment[buyer] == "Premium"
    quantity = rng.integers(1, 6, n_orders) + premium * rng.integers(0, 4, n_orders)
    unit_price = np.round(list_price[chosen] * rng.uniform(0.85, 1.0, n_orders), 2)
    revenue = np.round(quantity * unit_price, 2)
    start = dt.date(2023, 1, 1)
    orders = {"order_id": [f"O{i:04d}" for i in range(1, n_orders + 1)],
              "customer_id": [customer_ids[b] for b in buyer],
              "order_date": sorted((start + dt.timedelta(days=int(d))).isoformat()
                                   for d in rng.integers(0, 365, n_orders)),
              "product_id": [product_ids[c] for c in chosen], "quantity": [str(v) for v in quantity],
              "unit_price": _fixed(unit_price, 2), "revenue": _fixed(revenue, 2),
              "shipping_cost": _fixed(np.round(2.5 + 0.8 * quantity + rng.uniform(0, 3, n_orders), 2), 2)}
    log = {"log_id": [str(i) for i in range(1, 41)], "user": list(rng.choice(["ana", "bo", "cy"], 40)),
           "action": list(rng.choice(["login", "export", "edit"], 40)),
           "logged_at": [f"2024-01-{1 + i % 28:02d} 09:{i % 60:02d}" for i in range(40)]}
    return {"audit_log.csv": log, "customers.csv": customers, "orders.csv": orders, "products.csv": products}


def write_csv(path: Path, columns: dict[str, list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    names = list(columns)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(names)
        writer.writerows(zip(*(columns[name] for name in names), strict=True))


def generate(out: Path, seed: int = SEED) -> list[Path]:
    """Write every data file under `out/data/` and `out/manifest.jsonl`; return the paths written."""
    rng = np.random.default_rng(seed)
    tables = {"employees.csv": employees(rng), "sensors.csv": sensors(rng), "students.csv": students(rng),
              "countries.csv": countries(rng)}
    tables.update({f"shop/{name}": columns for name, columns in shop(rng).items()})
    written = []
    for name, columns in tables.items():
        write_csv(out / "data" / name, columns)
        written.append(out / "data" / name)
    sys.path.insert(0, str(HERE))
    from questions import build_questions  # noqa: PLC0415 - a sibling script, not a package

    manifest = out / "manifest.jsonl"
    lines = [json.dumps(q, ensure_ascii=False) for q in build_questions(out / "data")]
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [*written, manifest]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for data/ and manifest.jsonl")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    for path in generate(args.out, args.seed):
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
