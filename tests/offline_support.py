"""Test support for the offline model: generated data, real profiles, and a small tool executor.

`drive()` plays ADK's part for one agent: it renders the agent's prompt from a context of typed values and
gives the model both (the values as `PROMPT_CONTEXT`, as the run's plugin does), executes the tool calls the
model makes (files from the run directory, Python in a subprocess with the run directory as cwd), and returns
the model's final text. The end-to-end tests run the real workflow instead.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from google.adk.models import LlmRequest
from google.genai import types

from agentic_ds.adk_private import AGENT_NAME_LABEL
from agentic_ds.agent_table import AGENTS
from agentic_ds.context.per_call import PROMPT_CONTEXT
from agentic_ds.profiling import ColumnProfile, DataProfile, FileProfile, profile_inputs, render_profile
from agentic_ds.workflow.prompting import render

_MPL_CACHE = Path(tempfile.gettempdir()) / "agentic-ds-offline-tests-mpl"   # font cache built once, not per run
TOOL_NAMES = ("read_file", "list_files", "run_python", "sql_query", "profile_data", "list_skills", "load_skill")
READ_ONLY = ("read_file", "list_files", "sql_query", "profile_data", "list_skills", "load_skill")


def col(name: str, kind: str, *, distinct: int | None = None, top_values: tuple[str, ...] = (),
        null_pct: float = 0.0, **stats: Any) -> ColumnProfile:
    """A profiled column as the profiler writes it (top values get a count each)."""
    return ColumnProfile(name=name, dtype="", kind=kind, nulls=0, null_pct=null_pct, distinct=distinct,
                         top_values=[(v, 10 - i) for i, v in enumerate(top_values)], **stats)


def data_file(path: str, rows: int | None, columns: tuple[ColumnProfile, ...] | list[ColumnProfile]) -> FileProfile:
    return FileProfile(path=path, format="csv", size_bytes=0, rows=rows, columns=list(columns))


def shop_frame(seed: int = 7, n: int = 360) -> pd.DataFrame:
    """Orders with a region effect on price, an online premium, a weekly date axis and a few gaps."""
    rng = np.random.default_rng(seed)
    region = rng.choice(["Alpine", "Coastal", "Desert", "Forest"], n)
    channel = rng.choice(["online", "in-store"], n)
    units = rng.integers(1, 25, n)
    unit_price = np.round(rng.gamma(3, 6, n) + (region == "Coastal") * 4, 2)
    discount = np.round(rng.uniform(0, 0.4, n), 3)
    revenue = np.round(units * unit_price * (1 - discount) + (channel == "online") * 15, 2)
    frame = pd.DataFrame({
        "order_id": np.arange(1000, 1000 + n),
        "order_date": pd.date_range("2022-03-01", periods=n, freq="D").strftime("%Y-%m-%d"),
        "region": region,
        "sales_channel": channel,
        "product_category": rng.choice(["kitchen", "garden", "toys"], n, p=[0.5, 0.3, 0.2]),
        "store_id": rng.integers(1, 10, n),
        "units": units,
        "unit_price": unit_price,
        "discount": discount,
        "revenue": revenue,
        "delivery_days": rng.integers(1, 12, n),
    })
    frame.loc[rng.choice(n, 9, replace=False), "discount"] = np.nan
    return frame


def make_run_dir(
    root: Path, frame: pd.DataFrame | None = None, name: str = "orders.csv"
) -> tuple[Path, pd.DataFrame, DataProfile]:
    """A run directory with `inputs/<name>` and a real `data_profile.json`; returns (root, frame, profile)."""
    frame = shop_frame() if frame is None else frame
    (root / "inputs").mkdir(parents=True, exist_ok=True)
    frame.to_csv(root / "inputs" / name, index=False)
    profile = profile_inputs([root / "inputs" / name], base=root)
    (root / "data_profile.json").write_text(json.dumps(profile.to_json(), indent=2, default=str))
    return root, frame, profile


def profile_text(profile: DataProfile) -> str:
    return render_profile(profile)


class Tools:
    """Executes tool calls against a run directory and records them."""

    def __init__(self, root: Path, read_cap: int | None = None) -> None:
        self.root = Path(root)
        self.read_cap = read_cap          # cut long files like the real read_file does
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        self.calls.append((name, args))
        return getattr(self, name)(**args)

    def read_file(self, path: str, offset: int = 0) -> dict[str, Any]:
        full = self.root / path
        if not full.is_file():
            return {"error": f"no such file: {path!r}", "hint": "use list_files"}
        text = full.read_text()
        cap = self.read_cap or len(text)
        page = text[offset: offset + cap]
        result: dict[str, Any] = {"path": path, "content": page, "truncated": offset + cap < len(text)}
        if result["truncated"]:
            result["next_offset"] = offset + len(page)
        return result

    def list_files(self, path: str = ".") -> dict[str, Any]:
        base = self.root / path
        return {"path": path, "files": sorted(str(p.relative_to(self.root)) for p in base.rglob("*") if p.is_file())}

    def run_python(self, code: str) -> dict[str, Any]:
        before = {p for p in self.root.rglob("*") if p.is_file()}
        done = subprocess.run([sys.executable, "-c", code], cwd=self.root, capture_output=True, text=True, timeout=120,
                              env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin", "HOME": str(self.root),
                                   "MPLCONFIGDIR": str(_MPL_CACHE)})
        new = sorted(str(p.relative_to(self.root)) for p in {p for p in self.root.rglob("*") if p.is_file()} - before)
        error = done.stderr.strip().splitlines()[-1] if done.returncode else ""
        return {"ok": done.returncode == 0, "output": (done.stdout + done.stderr)[-3000:],
                "figures": [f for f in new if f.startswith("figures/")],
                "files": [f for f in new if not f.startswith("figures/")], "error": error}


def request(agent: str, instruction: str, contents: list[types.Content], tools: tuple[str, ...] = TOOL_NAMES,
            schema: Any = None) -> LlmRequest:
    declarations = (
        [types.Tool(function_declarations=[types.FunctionDeclaration(name=n) for n in tools])] if tools else None
    )
    config = types.GenerateContentConfig(
        system_instruction=f'{instruction}\n\nYou are an agent. Your internal name is "{agent}".',
        tools=declarations,
        response_schema=schema,
        labels={AGENT_NAME_LABEL: agent},   # as ADK sends it
    )
    return LlmRequest(contents=list(contents), config=config)


def user(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


async def drive(model: Any, agent: str, context: dict[str, Any], tools: Tools | None, *, mode: str = "orchestrated",
                names: tuple[str, ...] = TOOL_NAMES, contents: list[types.Content] | None = None,
                max_turns: int = 20) -> tuple[str, list[types.Content]]:
    """Run one agent turn to its final text, executing tool calls with `tools`; the prompt is the agent's template
    rendered with `context`, which the model gets as data too."""
    entry = AGENTS.get(agent)
    instruction = render(entry.prompt_for(mode), context) if entry is not None and entry.prompt else ""
    token = PROMPT_CONTEXT.set((agent, context))
    try:
        history = list(contents or [user("Go.")])
        for _ in range(max_turns):
            response = [r async for r in model.generate_content_async(request(agent, instruction, history, names))][0]
            assert response.usage_metadata and response.usage_metadata.prompt_token_count > 0
            history.append(response.content)
            calls = [p.function_call for p in response.content.parts if p.function_call]
            if not calls:
                return response.content.parts[0].text, history
            assert tools is not None, f"{agent} called tools without any: {calls}"
            history.append(types.Content(role="user", parts=[
                types.Part(function_response=types.FunctionResponse(name=c.name, response=tools(c.name, dict(c.args))))
                for c in calls
            ]))
    finally:
        PROMPT_CONTEXT.reset(token)
    raise AssertionError(f"{agent} did not finish in {max_turns} turns")
