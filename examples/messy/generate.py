"""Generate a messy clinic-visits export: the kind of file an analyst gets from an old system.

    python examples/messy/generate.py            # writes examples/messy/data/clinic_visits.csv
    python examples/messy/generate.py --out DIR  # somewhere else

Deterministic (numpy seed 20241127, fixed formatting): the same seed gives the same bytes. What is wrong with
the file, and the figures a careful cleaning gives, are listed in examples/messy/README.md;
tests/test_examples_messy.py checks both.
"""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

import numpy as np

SEED = 20241127
ENCODING = "cp1252"          # Windows-1252: "Zürich" is not UTF-8 here
DELIMITER = ";"              # with decimal commas, as a European spreadsheet exports it
VISITS = 1200
START = dt.date(2024, 1, 1)
DAYS = 182                   # 2024-01-01 .. 2024-06-30
# clinic: (city as the system spells it, mean wait in minutes)
CLINICS = {"Zürich Nord": 24.0, "Genève Centre": 31.0, "Köln Süd": 18.0, "Malmö Hamn": 27.0}
SPELLINGS = {                # how front-desk staff typed the clinic now and then
    "Zürich Nord": ("zürich nord", "ZÜRICH NORD", " Zürich Nord"),
    "Genève Centre": ("Geneve Centre", "genève centre", "Genève Centre "),
    "Köln Süd": ("Koln Sud", "KÖLN SÜD", "köln süd"),
    "Malmö Hamn": ("Malmo Hamn", "malmö hamn", "MALMÖ HAMN "),
}
MISSING = ("", "n/a", "-")   # three ways the export writes a missing value
MESSY_NAME_SHARE = 0.08
MISSING_WAIT_SHARE = 0.05
MISSING_SATISFACTION_SHARE = 0.07
SLASH_DATE_SHARE = 0.15      # some rows carry dd/mm/yyyy instead of yyyy-mm-dd
DUPLICATED_ROWS = 36         # exact copies of a visit, written again by a retried export
HEADER = ("visit_id", "visit_date", "clinic", "patient_age", "wait_minutes", "satisfaction", "fee_chf")


def generate(out: Path, seed: int = SEED) -> Path:
    rng = np.random.default_rng(seed)
    names = list(CLINICS)
    rows: list[list[str]] = []
    for number in range(1, VISITS + 1):
        clinic = names[int(rng.integers(len(names)))]
        day = START + dt.timedelta(days=int(rng.integers(DAYS)))
        date = day.strftime("%d/%m/%Y") if rng.random() < SLASH_DATE_SHARE else day.isoformat()
        age = int(np.clip(rng.normal(47, 18), 1, 95))
        wait = max(1.0, rng.gamma(4.0, CLINICS[clinic] / 4.0))
        # Patients who wait longer are less satisfied: about a point less per 30 minutes.
        satisfaction = int(np.clip(round(5.2 - wait / 30 + rng.normal(0, 0.7)), 1, 5))
        fee = 80 + 1.2 * age + rng.normal(0, 15)
        shown = clinic
        if rng.random() < MESSY_NAME_SHARE:
            choices = SPELLINGS[clinic]
            shown = choices[int(rng.integers(len(choices)))]
        wait_text = _missing(rng) if rng.random() < MISSING_WAIT_SHARE else _decimal(wait, 1)
        sat_text = _missing(rng) if rng.random() < MISSING_SATISFACTION_SHARE else str(satisfaction)
        rows.append([f"V{number:05d}", date, shown, str(age), wait_text, sat_text, _decimal(fee, 2)])
    picked = sorted(rng.choice(len(rows), size=DUPLICATED_ROWS, replace=False).tolist(), reverse=True)
    for index in picked:
        rows.insert(index + 1 + int(rng.integers(3)), list(rows[index]))
    out.mkdir(parents=True, exist_ok=True)
    path = out / "clinic_visits.csv"
    lines = [DELIMITER.join(HEADER), *(DELIMITER.join(row) for row in rows)]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode(ENCODING))
    return path


def _decimal(value: float, places: int) -> str:
    return f"{value:.{places}f}".replace(".", ",")


def _missing(rng: np.random.Generator) -> str:
    return MISSING[int(rng.integers(len(MISSING)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "data")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    path = generate(args.out, args.seed)
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
