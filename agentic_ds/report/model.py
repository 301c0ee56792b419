"""The records a report is rendered from: plain dataclasses, filled by `view.load_run_view`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from agentic_ds.report.tables import TableView

REPORT_FILES = ("report.md", "report.html")


@dataclass
class FigureRef:
    path: str                      # relative to the run directory
    file: Path | None              # resolved file, None when missing or refused


@dataclass
class StageView:
    id: str
    title: str
    status: str = "pending"
    attempts: int = 0
    description: str = ""
    expected_outputs: list[str] = field(default_factory=list)
    summary: str = ""
    review: str = ""
    dir: str = ""                  # stages/NN-slug, "" when the stage never got a directory
    code: str | None = None
    code_path: str | None = None
    last_output: str | None = None  # tail of the last cell's output
    figures: list[FigureRef] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    tables: list[TableView] = field(default_factory=list)


@dataclass
class CriterionView:
    id: str
    text: str
    met: bool | None               # None: never checked
    evidence: str = ""


@dataclass
class ModelCost:
    model: str
    calls: int
    input_tokens: int
    output_tokens: int
    usd: float | None


@dataclass
class AgentUsage:
    name: str
    llm_calls: int
    input_tokens: int
    output_tokens: int
    wall_s: float | None


@dataclass
class FinalAnswer:
    answer: str
    confidence: str = ""
    caveats: list[str] = field(default_factory=list)
    reasoning_trace: list[str] = field(default_factory=list)
    output_type: str = ""


@dataclass
class InputView:
    path: str
    rows: int | None = None
    columns: int | None = None


@dataclass
class RunView:
    root: Path
    id: str
    task: str = ""
    mode: str = ""
    status: str = "unknown"
    reason: str = ""
    started_at: str = ""
    ended_at: str = ""
    wall_s: float | None = None
    models: dict[str, str] = field(default_factory=dict)
    isolation: str = ""
    agents: list[AgentUsage] = field(default_factory=list)
    costs: list[ModelCost] = field(default_factory=list)
    total_usd: float | None = None
    context_note: str = ""               # how prompts stayed in budget: compactions, loop responses
    calls_note: str = ""                 # how the model calls went: retries, waits, step-downs, the failed call
    stages: list[StageView] = field(default_factory=list)
    criteria: list[CriterionView] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    inputs: list[InputView] = field(default_factory=list)
    final_answer: FinalAnswer | None = None
    report_text: str | None = None       # the summary agent's markdown, without our appendix
    extra_figures: list[FigureRef] = field(default_factory=list)   # figures no stage claims
    extra_tables: list[TableView] = field(default_factory=list)    # output tables no stage claims
    outputs: list[str] = field(default_factory=list)
    artifacts: dict[str, bool] = field(default_factory=dict)       # top-level file -> present
    problems: list[str] = field(default_factory=list)              # what is missing or unreadable

    @property
    def has_record(self) -> bool:
        return self.artifacts.get("run.json", False)

    @property
    def status_label(self) -> str:
        return self.status.replace("_", " ")

    @property
    def total_tokens(self) -> int:
        return sum(c.input_tokens + c.output_tokens for c in self.costs)

    @property
    def all_figures(self) -> list[FigureRef]:
        return [f for s in self.stages for f in s.figures] + self.extra_figures
