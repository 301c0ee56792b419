"""The `agentic-ds` command line: the click group, `run`, `config show`, and the review commands registered.

This module is on the `--help` path: it imports only click and the package's light modules at
module level; settings, models, the workflow and every provider library load inside commands.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path

# litellm fetches its cost map from the network at import unless this is set; it must precede any import of it.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# ADK serialises every prompt for tracing on each model call even with no exporter configured; the stable schema
# skips most of that work (measured: 22-42% of per-call CPU), and prompts hold the user's data.
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")

import click  # noqa: E402

from agentic_ds import __version__  # noqa: E402
from agentic_ds.cli.errors import AgenticGroup  # noqa: E402

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
# One text for the top-level help and `run --help` (appended below), so the two cannot drift.
EXIT_CODES_HELP = """

\b
Exit codes:
  0    completed (or completed with warnings)
  3    incomplete (some stage or success criterion not met)
  4    the plan waits for approval (--approve-plan): agentic-ds approve RUN
  1    failed at run time
  2    usage, configuration or input error
  130  interrupted by Ctrl-C (SIGINT)
  143  stopped by SIGTERM
  129  stopped by SIGHUP (the terminal went away)"""


@click.group("agentic-ds", cls=AgenticGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", "-V", prog_name="agentic-ds", message="%(prog)s %(version)s")
@click.option("--debug", is_flag=True, help="Show full tracebacks for errors.")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """An agentic data scientist: plans, codes in a sandbox, reviews its work and writes a report,
    with any LLM or with none (the built-in offline model).

    \b
    Examples:
      agentic-ds run --mode orchestrated "Which region grows fastest, and why?" --files data/
      agentic-ds run --mode simple "Describe sales.csv" --files sales.csv --model offline
      agentic-ds config show
      agentic-ds resume 20261122-0215    # continue a run that stopped
    """
    if isinstance(ctx.command, AgenticGroup):
        ctx.command.show_tracebacks = debug


@main.command("run", context_settings=CONTEXT_SETTINGS)
@click.argument("task", metavar="TASK")
@click.option(
    "--mode",
    type=click.Choice(["orchestrated", "simple"]),
    required=True,
    help="orchestrated: plan, staged code with review loops, criteria checks (thorough, more model calls). "
    "simple: one agent pass (fast, cheap).",
)
@click.option(
    "--files", "-f", multiple=True, metavar="PATH", help="A data file or folder (recursively); repeat for more."
)
@click.option("--workdir", metavar="ROOT", help="Where run directories are created (default: workdirs/).")
@click.option(
    "--model",
    "-m",
    "models",
    multiple=True,
    metavar="MODEL|ROLE=MODEL",
    help="MODEL for every role, or ROLE=MODEL for one (roles: planner, reviewer, judge, coder, summarizer, compactor). "
    "MODEL: provider/model (LiteLLM), gemini-*, claude-code[:MODEL] (coder only) or offline.",
)
@click.option("--config", metavar="FILE", help="YAML config file (default: ./agentic-ds.yaml if present).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final lines (run, report, status).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per line: every event, then run_finished.")
@click.option(
    "--sandbox",
    type=click.Choice(["auto", "require", "off"]),
    help="auto: bubblewrap when available (without it, only the offline model's code runs); "
    "require: refuse to run without it; off: no sandbox, resource limits only (at your own risk).",
)
@click.option(
    "--max-cost",
    type=click.FloatRange(min=0, min_open=True),
    metavar="USD",
    help="Stop when the run's model cost reaches USD.",
)
@click.option("--max-llm-calls", type=click.IntRange(min=1), metavar="N", help="Stop after N model calls.")
@click.option("--max-tokens", type=click.IntRange(min=1), metavar="N", help="Stop after N tokens (input + output).")
@click.option(
    "--parallel-stages", type=click.IntRange(min=1, max=16), metavar="N",
    help="Run up to N stages at once when the plan says they need only the inputs or the same earlier stages "
    "(orchestrated mode; default 2; 1 runs them one after another).",
)
@click.option(
    "--approve-plan", is_flag=True,
    help="Pause after the plan is made (orchestrated mode): at a terminal, show it and ask to approve, edit or "
    "stop; elsewhere (CI, pipes, --json) stop in awaiting_approval (exit 4) for `agentic-ds approve RUN`.",
)
def run(**kwargs: object) -> int:
    """Analyse data files to answer TASK ("-" reads TASK from stdin).

    Each run gets a new directory ROOT/<timestamp>-<slug>/ with the inputs copied, the plan, the code
    of every stage, figures, a notebook and report.md / report.html. Nothing existing is overwritten.
    The first line says which models run and why; the last line is "status: <status>[ - <reason>]".

    \b
    Examples:
      agentic-ds run --mode orchestrated "Which region's sales grow fastest?" --files data/
      agentic-ds run --mode simple "Mean price by region" -f a/prices.csv -f b/prices.csv
      agentic-ds run --mode orchestrated "Churn drivers" -f churn.csv --model openai/gpt-4.1
      agentic-ds run --mode orchestrated "Churn" -f churn.csv -m anthropic/claude-sonnet-4-5 -m coder=claude-code
      echo "Summarise the survey" | agentic-ds run --mode simple - --files survey.xlsx --json
      agentic-ds run --mode orchestrated "Churn drivers" -f churn.csv --approve-plan
    """
    from agentic_ds.cli.run import run_click_command

    return run_click_command(**kwargs)


@main.command("resume", context_settings=CONTEXT_SETTINGS)
@click.argument("run", metavar="RUN")
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder holding the run directories (default: the configured workdir, ./workdirs).")
@click.option("--config", metavar="FILE", help="YAML config file to read secrets such as API keys from (as for `run`).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final lines (run, report, status).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per line: every event, then run_finished.")
@click.option("--max-cost", type=click.FloatRange(min=0, min_open=True), metavar="USD",
              help="Raise or set the run's cost limit (what earlier attempts spent counts).")
@click.option("--max-llm-calls", type=click.IntRange(min=1), metavar="N",
              help="Raise or set the run's limit on model calls (earlier attempts' calls count).")
@click.option("--max-tokens", type=click.IntRange(min=1), metavar="N",
              help="Raise or set the run's token limit (earlier attempts' tokens count).")
def resume(**kwargs: object) -> int:
    """Continue a run that stopped - interrupted (Ctrl-C, SIGTERM, SIGHUP), killed, failed or incomplete -
    where it stopped, in its own directory.

    RUN is a run directory, a run id, or a unique prefix of one (as for `show`). The task, mode, models and
    settings are the ones the run recorded; API keys come from today's environment, .env or --config. The
    inputs' profile, the plan and every finished stage are kept (never re-run, their files untouched); a stage
    that was under way runs again from its start, its earlier cells kept on record. The criteria are checked
    and the report is written again, covering every attempt; budgets count what earlier attempts spent.
    A completed run, a run still running, or one without a session (session.db) is refused with exit 2. A run
    queued by `agentic-ds serve` that never started starts; a run whose plan waits for approval asks at a
    terminal (elsewhere: `agentic-ds approve RUN`).

    \b
    Examples:
      agentic-ds resume 20261122-0215
      agentic-ds resume workdirs/20261122-021538-what-drives-revenue --max-cost 5
      agentic-ds list    # interrupted runs say so
    """
    from agentic_ds.cli.resume import ResumeOptions, resume_command

    ctx = click.get_current_context()
    return resume_command(ResumeOptions(debug=bool(ctx.find_root().params.get("debug")), **kwargs))  # type: ignore[arg-type]


@main.command("ask", context_settings=CONTEXT_SETTINGS)
@click.argument("run", metavar="RUN")
@click.argument("question", metavar="QUESTION", required=False)
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder holding the run directories (default: the configured workdir, ./workdirs).")
@click.option("--config", metavar="FILE", help="YAML config file to read secrets such as API keys from (as for `run`).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final lines (follow-up, report, status).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per line: every event, then run_finished.")
@click.option("--max-cost", type=click.FloatRange(min=0, min_open=True), metavar="USD", help="Cost limit.")
@click.option("--max-llm-calls", type=click.IntRange(min=1), metavar="N", help="Limit on model calls.")
@click.option("--max-tokens", type=click.IntRange(min=1), metavar="N", help="Token limit.")
@click.option("--followup", metavar="ID", hidden=True, help="Answer a follow-up `agentic-ds serve` prepared.")
def ask(**kwargs: object) -> int:
    """Ask a follow-up QUESTION on a finished run (`-` reads it from stdin).

    The same kind of agents answer it, with the run's models and settings, its inputs, and what it found (its
    answer, plan, stage summaries, output files and notebook code) as their memory; new code runs in a sandbox
    of its own against the run's inputs and a copy of its outputs. The follow-up is kept in
    RUN/followups/NN-slug/ (followup.json: question, status, answer; its code and outputs), its status decided
    by the same evidence rules as a run's, and the run's report shows it under the main answer. Nothing the
    run wrote is changed but its report. Refused with exit 2: an unknown run, an empty question, a run still
    running, queued or waiting for a decision on its plan.

    \b
    Examples:
      agentic-ds ask 20261122-0215 "What is the median salary in Sales?"
      agentic-ds ask 20261122-0215 "Which region had the most orders?" --json
    """
    from agentic_ds.cli.ask import AskOptions, ask_command

    ctx = click.get_current_context()
    return ask_command(AskOptions(debug=bool(ctx.find_root().params.get("debug")), **kwargs))  # type: ignore[arg-type]


for _command in (main, run, resume, ask):
    _command.help = inspect.cleandoc(_command.help or "") + EXIT_CODES_HELP


@main.group("config", context_settings=CONTEXT_SETTINGS)
def config_group() -> None:
    """Inspect the configuration.

    \b
    Examples:
      agentic-ds config show
      agentic-ds config show --config team.yaml --model coder=claude-code
    """


@config_group.command("show", context_settings=CONTEXT_SETTINGS)
@click.option("--config", metavar="FILE", help="YAML config file (default: ./agentic-ds.yaml if present).")
@click.option("--model", "-m", "models", multiple=True, metavar="MODEL|ROLE=MODEL", help="As for `run`.")
@click.option("--workdir", metavar="ROOT", help="As for `run`.")
def config_show(config: str | None, models: tuple[str, ...], workdir: str | None) -> int:
    """Print the effective configuration as YAML (secrets masked) and the model of every role, with why.

    Layers, lowest first: defaults, agentic-ds.yaml (or --config), environment variables
    (AGENTIC_DS_*, nested with __, e.g. AGENTIC_DS_MODELS__CODER) and ./.env, then flags.
    Exits 2 when the configured models cannot run (e.g. a missing API key).

    \b
    Examples:
      agentic-ds config show
      agentic-ds config show --model openai/gpt-4.1 --model compactor=openai/gpt-4.1-mini
      AGENTIC_DS_SANDBOX__MODE=require agentic-ds config show
    """
    from agentic_ds.cli.config_show import config_document, render_yaml
    from agentic_ds.cli.errors import report_error
    from agentic_ds.errors import EXIT_OK, EXIT_USAGE

    document, error = config_document(config, models, workdir)
    click.echo(render_yaml(document), nl=False)
    if error:
        report_error(error)
        return EXIT_USAGE
    return EXIT_OK


from agentic_ds.cli import review  # noqa: E402 - `list`, `show`, `open` live in their own module

review.register(main)

from agentic_ds.cli import approval  # noqa: E402 - `approve` lives in its own module

approval.register(main)
approval.approve_command.help = inspect.cleandoc(approval.approve_command.help or "") + EXIT_CODES_HELP

from agentic_ds.cli import eval as eval_cli  # noqa: E402 - `eval` lives in its own module

eval_cli.register(main)

from agentic_ds.cli import serve  # noqa: E402 - `serve` lives in its own module

serve.register(main)
