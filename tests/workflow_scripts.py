"""Scripted steps shared by the workflow tests: one small, real plan over a small, real CSV."""

from __future__ import annotations

from pathlib import Path

from agentic_ds.testing.scripted import as_json, call, text

PLAN_MD = """## Stages
### Stage 1: Audit the data
Check inputs/sales.csv for missing values and types.
Expected outputs: outputs/audit.json
### Stage 2: Mean price by region
Compute the mean of price per region.
Expected outputs: outputs/means.csv
## Success criteria
- outputs/means.csv holds the mean price of every region
"""

PARSED = {
    "stages": [
        {
            "id": "s1",
            "title": "Audit the data",
            "description": "Check inputs/sales.csv.",
            "expected_outputs": ["outputs/audit.json"],
        },
        {
            "id": "s2",
            "title": "Mean price by region",
            "description": "Mean of price per region.",
            "expected_outputs": ["outputs/means.csv"],
        },
    ],
    "success_criteria": [{"text": "outputs/means.csv holds the mean price of every region", "asks": ["a1"]}],
}

AUDIT_CODE = (
    "import pandas as pd, json, os\n"
    "df = pd.read_csv('inputs/sales.csv')\n"
    "os.makedirs('outputs', exist_ok=True)\n"
    "json.dump({'rows': len(df), 'missing': int(df.isna().sum().sum())}, open('outputs/audit.json', 'w'))\n"
    "print('rows', len(df))\n"
)
MEANS_CODE = (
    "import pandas as pd\n"
    "df = pd.read_csv('inputs/sales.csv')\n"
    "m = df.groupby('region')['price'].mean().round(2)\n"
    "m.to_csv('outputs/means.csv')\n"
    "print(m.to_string())\n"
)
BROKEN_CODE = "import pandas as pd\ndf = pd.read_csv('inputs/sales.csv')\nprint(df['prize'].mean())\n"


def write_sales(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sales.csv"
    rows = ["region,price,units"] + [f"{r},{p},{u}" for r, p, u in [
        ("north", 10, 1), ("north", 12, 2), ("south", 20, 3), ("south", 22, 1), ("east", 5, 4), ("east", 7, 2),
    ]]
    path.write_text("\n".join(rows) + "\n")
    return path


def approve(reason: str = "fine") -> list:
    return [text(f"APPROVED - {reason}")]


def decide(exit_: bool, reason: str = "ok"):
    return as_json({"exit": exit_, "reason": reason})


def criteria(met: bool, evidence: str = "outputs/means.csv: north 11.0, south 21.0, east 6.0"):
    return as_json({"criteria": [{"id": "c1", "met": met, "evidence": evidence}]})


def validated(answer: str = "South has the highest mean price (21.0).", *, valid: bool = True,
              asks: list | None = None):
    """The answer validator's structured answer; `asks` defaults to one entry answering ask a1 with `answer`."""
    first = {"id": "a1", "answered": True, "answer": answer, "files": ["outputs/means.csv"]}
    entries = asks if asks is not None else [first]
    return as_json({"valid": valid, "answer": answer, "confidence": "high", "caveats": [],
                    "reasoning_trace": ["read outputs/means.csv"], "output_type": "text", "asks": entries})


def no_change():
    return as_json({"edits": [], "new_stages": [], "note": "plan still fits"})


def happy_scripts() -> dict[str, list]:
    return {
        "plan_maker": [text(PLAN_MD)],
        "plan_reviewer": approve(),
        "plan_parser": [as_json(PARSED)],
        "coding_agent": [
            call("run_python", code=AUDIT_CODE), text("Audit done: 6 rows, 0 missing. outputs/audit.json"),
            call("run_python", code=MEANS_CODE), text("Means: north 11.0, south 21.0, east 6.0. outputs/means.csv"),
        ],
        "code_reviewer": approve("audit ok") + approve("means ok"),
        "criteria_checker": [criteria(False, "not yet"), criteria(True)],
        "answer_validator": [validated()],
        "summary_agent": [text("## Answer\nSouth has the highest mean price (21.0).\n\n## Key findings\n- north 11.0")],
    }
