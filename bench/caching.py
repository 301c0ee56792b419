"""Prompt caching: the share of input tokens a provider could serve from its prefix cache.

Scenario: one scripted 6-stage orchestrated run (real sandbox, real tools, no model): the plan is sent back once
by the reviewer, every coder turn makes 3 `run_python` calls before its summary, and stage 3 is sent back once by
the code reviewer (a second attempt with feedback). Every model call of every agent is captured as the model
received it.

Each request is serialised in the order a provider receives it: system instruction, tool declarations, then
the contents. Providers cache by prefix (OpenAI, DeepSeek, vLLM, llama.cpp automatically; Anthropic up to the
cache marker), so what can be cached on a call is the longest common prefix with the same agent's previous
request. Tokens are counted with the project's counter (`count_tokens(None, text)`, the calibrated estimate).

share = sum(common-prefix tokens) / sum(input tokens) over every call. An agent's first call has nothing to
share a prefix with: it counts in the denominator with 0 in the numerator (cross-agent sharing is not counted).
Last line: `caching: cacheable_prefix_share=X calls=N`. Bar: >= 0.6.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from google.adk.models import LlmRequest  # noqa: E402

from agentic_ds.context.tokens import count_tokens  # noqa: E402
from agentic_ds.testing.scripted import call, text  # noqa: E402
from bench.context import honest  # noqa: E402
from bench.record import record_section  # noqa: E402
from bench.scripted_runs import Finding, group_means, long_run_scripts, write_data  # noqa: E402

STAGES = 6
CELLS = 3
RETRIED_STAGE = 3
BAR = 0.6
TASK = "Which group has the higher mean value, and how does the value change over the days?"


MEANS = group_means()
# The run's result: the last cell of the last stage writes the group means, which the checker and the validator cite.
FINDING = Finding(
    "outputs/group_means.json",
    f"a {MEANS['a']}, b {MEANS['b']}",
    f"Group {max(MEANS, key=MEANS.__getitem__)} has the higher mean value: {MEANS['a']} in group a, "
    f"{MEANS['b']} in group b.",
)


def cell(stage: int, index: int, writes_result: bool = False) -> str:
    code = (
        "import pandas as pd\n"
        "df = pd.read_csv('inputs/metrics.csv')\n"
        f"print('stage {stage} cell {index}')\n"
        f"print(df.groupby('group')['value'].describe().round(2).to_string())\n"
        f"print(df[df['day'] % {index + 2} == 0]['value'].mean())\n"
    )
    if writes_result:
        code += (
            "import os\n"
            "os.makedirs('outputs', exist_ok=True)\n"
            f"df.groupby('group')['value'].mean().round(2).to_json({FINDING.path!r})\n"
        )
    return code


def scripts() -> dict[str, list]:
    """The long-run scripts of `bench.scripted_runs`, with a plan review round, cells and one retried stage."""
    base = long_run_scripts(STAGES, 0, finding=FINDING)
    plan = base["plan_maker"][0]
    base["plan_maker"] = [plan, plan]
    base["plan_reviewer"] = [text("CHANGES REQUESTED\n1. Name the columns each stage uses."), text("APPROVED")]
    coder: list = []
    reviews: list = []
    for stage in range(1, STAGES + 1):
        for attempt in range(2 if stage == RETRIED_STAGE else 1):
            last = stage == STAGES
            coder += [
                call("run_python", code=cell(stage, i + attempt * CELLS, last and i == CELLS - 1))
                for i in range(CELLS)
            ]
            coder.append(text(f"Stage {stage} done: group b mean {MEANS['b']}, files in outputs/."))
            if attempt == 0 and stage == RETRIED_STAGE:
                reviews.append(text("CHANGES REQUESTED\n1. Write the table to outputs/stage3.csv."))
            else:
                reviews.append(text("APPROVED"))
    base.update(coding_agent=coder, code_reviewer=reviews)
    return {agent: [honest(step) for step in steps] for agent, steps in base.items()}


def serialise(request: LlmRequest) -> str:
    """The request as a provider receives it: system instruction, tool declarations, then the contents."""
    pieces: list[str] = []
    config = request.config
    if config is not None:
        if config.system_instruction:
            pieces.append(f"system: {config.system_instruction}")
        for tool in config.tools or []:
            for declaration in getattr(tool, "function_declarations", None) or []:
                pieces.append(f"tool: {declaration.model_dump_json(exclude_none=True)}")
    for content in request.contents or []:
        for part in content.parts or []:
            if part.text:
                pieces.append(f"{content.role}: {part.text}")
            if part.function_call:
                pieces.append(f"call {part.function_call.name} {json.dumps(part.function_call.args, default=str)}")
            if part.function_response:
                response = json.dumps(part.function_response.response, default=str)
                pieces.append(f"result {part.function_response.name} {response}")
    return "\n".join(pieces)


def common_prefix(a: str, b: str) -> str:
    return os.path.commonprefix([a, b])


@dataclass
class AgentShare:
    agent: str
    calls: int = 0
    input_tokens: int = 0
    prefix_tokens: int = 0

    def add(self, previous: str | None, current: str) -> None:
        self.calls += 1
        self.input_tokens += count_tokens(None, current)
        if previous is not None:
            self.prefix_tokens += count_tokens(None, common_prefix(previous, current))

    @property
    def share(self) -> float:
        return self.prefix_tokens / self.input_tokens if self.input_tokens else 0.0


def measure(requests: dict[str, list[LlmRequest]]) -> list[AgentShare]:
    shares = []
    for agent, sent in requests.items():
        share = AgentShare(agent)
        previous = None
        for request in sent:
            current = serialise(request)
            share.add(previous, current)
            previous = current
        shares.append(share)
    return sorted(shares, key=lambda s: -s.input_tokens)


async def run(root: Path) -> dict[str, list[LlmRequest]]:
    from agentic_ds.testing.harness import make_request
    from agentic_ds.testing.scripted import ScriptedLlm
    from agentic_ds.workflow.runner import execute_run

    request = make_request(root, TASK, [write_data(root / "data")])
    models = {agent: ScriptedLlm(name=agent, script=steps) for agent, steps in scripts().items()}
    outcome = await execute_run(request, llm_overrides=dict(models))
    assert outcome.status == "completed", outcome.reason
    for model in models.values():
        model.assert_complete()
    return {agent: model.requests for agent, model in models.items()}


def table(shares: list[AgentShare]) -> list[str]:
    lines = ["| agent | calls | input tokens | cacheable prefix tokens | share |", "|---|---:|---:|---:|---:|"]
    for s in shares:
        lines.append(f"| {s.agent} | {s.calls} | {s.input_tokens} | {s.prefix_tokens} | {s.share:.2f} |")
    return lines


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--label", default="", help="a line recorded above the table (e.g. 'baseline')")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        shares = measure(await run(Path(tmp)))
    calls = sum(s.calls for s in shares)
    share = sum(s.prefix_tokens for s in shares) / sum(s.input_tokens for s in shares)
    rows = table(shares)
    print("\n".join(rows))
    line = f"caching: cacheable_prefix_share={share:.3f} calls={calls}"
    if not args.no_record:
        record_section("caching", [
            f"Scripted orchestrated run: {STAGES} stages, {CELLS} `run_python` calls per coder turn (real sandbox), "
            f"the plan sent back once, stage {RETRIED_STAGE} sent back once by the code reviewer. Each request is "
            "serialised as a provider receives it (system instruction, tool declarations, contents); a call's "
            "cacheable prefix is its longest common prefix with the same agent's previous request; first calls "
            "count in the denominator with 0 cacheable tokens. Tokens: `count_tokens(None, text)`.",
            *(["", args.label] if args.label else []),
            "",
            *rows,
            "",
            f"- bar: share >= {BAR}: {'met' if share >= BAR else 'MISSED'}",
        ], result=line)
    print(line)


if __name__ == "__main__":
    asyncio.run(main())
