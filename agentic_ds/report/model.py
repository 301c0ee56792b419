"""What a report is rendered from: the run's record (`schema.RunRecord`) and stages (`schema.StageRecord`), each
extended with what the report shows from the rest of the run directory. Filled by `view.load_run_view`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ConfigDict, Field

from agentic_ds.followups.record import FollowupRecord
from agentic_ds.report import formatting as fmt
from agentic_ds.report.tables import TableView
from agentic_ds.schema import ModelUsage, RunRecord, StageRecord, StageStatus

REPORT_FILES = ("report.md", "report.html")


@dataclass
class FigureRef:
    path: str                      # relative to the run directory
    file: Path | None              # resolved file, None when missing or refused


@dataclass
class InputView:
    path: str
    rows: int | None = None
    columns: int | None = None


class StageView(StageRecord):
    """A stage as recorded, with its plan, code, output, figures and tables from the run directory."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    code: str | None = None
    code_path: str | None = None
    last_output: str | None = None  # tail of the last cell's output
    figures: list[FigureRef] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    tables: list[TableView] = Field(default_factory=list)

    @property
    def not_run(self) -> bool:
        """Pending, and nothing on disk says it began (a run that died may not have recorded its start)."""
        return self.status is StageStatus.PENDING and not self.attempts and not self.code_path


class RunView(RunRecord):
    """run.json as recorded, and what the rest of the run directory adds to it. Stages and criteria merge the
    record with plan.json and the stage directories; `problems` says what is missing or unreadable."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    root: Path
    stages: list[StageView] = Field(default_factory=list)  # type: ignore[assignment]
    input_views: list[InputView] = Field(default_factory=list)
    context_note: str = ""               # how prompts stayed in budget: compactions, loop responses
    not_profiled: int = 0                # readable inputs past the profiler's bound on files
    attempts_note: str = ""              # a resumed run: each attempt's outcome and time
    calls_note: str = ""                 # how the model calls went: retries, waits, step-downs, the failed call
    report_text: str | None = None       # the summary agent's markdown, without our appendix
    extra_figures: list[FigureRef] = Field(default_factory=list)   # figures no stage claims
    extra_tables: list[TableView] = Field(default_factory=list)    # output tables no stage claims
    outputs: list[str] = Field(default_factory=list)
    artifacts: dict[str, bool] = Field(default_factory=dict)       # top-level file -> present
    problems: list[str] = Field(default_factory=list)              # what is missing or unreadable
    followups: list[FollowupRecord] = Field(default_factory=list)  # follow-up questions asked on the run, in order

    @property
    def has_record(self) -> bool:
        return self.artifacts.get("run.json", False)

    @property
    def status_label(self) -> str:
        return self.status.label

    @property
    def total_usd(self) -> float | None:
        """The recorded total, else the sum of the known per-model costs (None when none is known)."""
        if self.cost.total_usd is not None:
            return self.cost.total_usd
        known = [usage.usd for usage in self.cost.by_model.values() if usage.usd is not None]
        return sum(known) if known else None

    @property
    def cost_text(self) -> str:
        """The cost as the report and `show` say it: unknown for a model with no known price."""
        return fmt.cost(self.total_usd, self.cost.unpriced)

    @property
    def total_tokens(self) -> int:
        return self.usage_totals.input_tokens + self.usage_totals.output_tokens

    @property
    def usage_totals(self) -> ModelUsage:
        """Calls and tokens over every model (run.json's `cost.by_model`; its `usd` is `total_usd`)."""
        models = self.cost.by_model.values()
        return ModelUsage(calls=sum(u.calls for u in models), input_tokens=sum(u.input_tokens for u in models),
                          cached_tokens=sum(u.cached_tokens for u in models),
                          output_tokens=sum(u.output_tokens for u in models), usd=self.total_usd)

    @property
    def unpriced_note(self) -> str:
        """What the total leaves out: the models whose price is unknown."""
        if not self.cost.unpriced:
            return ""
        return (f"No price is known for {', '.join(self.cost.unpriced)}: the total counts only the other models "
                f"(set model_options.{self.cost.unpriced[0]}.price_per_mtok to price it).")

    @property
    def all_figures(self) -> list[FigureRef]:
        return [f for s in self.stages for f in s.figures] + self.extra_figures
