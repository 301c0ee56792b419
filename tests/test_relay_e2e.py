"""Record a real run through the relay with a scripted responder (the offline model answering the request files, as
a helper session would), then replay the cassette through the product's real LiteLLM path.

The recording runs `agentic-ds` as a subprocess (the real CLI); the replays run it in this process against the
replay server. Everything talks over 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path

import pytest

from agentic_ds.testing.cassette import CASSETTE, read_cassette, read_meta
from agentic_ds.testing.relay_cli import record
from agentic_ds.testing.relay_cli import run_cli as relay_main
from agentic_ds.testing.relay_responder import OfflineResponder
from agentic_ds.testing.replay import assert_replays
from agentic_ds.workflow.prompting import PROMPTS_DIR_ENV
from tests.relay_support import edit_cassette

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

REPO = Path(__file__).resolve().parents[1]
TASK = "Mean size_sqm by region"
ARGS = ["run", "--mode", "simple", TASK, "--files", str(REPO / "examples/data/stores.csv")]
# How the offline model's run ends is the product's business; the relay must record whatever it is, and the
# replay must end the same way.
EXIT_CODES = {"completed": 0, "completed_with_warnings": 0, "incomplete": 3}


class MalformedFirst(OfflineResponder):
    """Answers request 0 with a cut JSON first: the relay must reject it and wait for the fixed reply."""

    def reply_bytes(self, number: int, body: dict) -> bytes:
        if number == 0 and self.writes.get(0, 0) == 0:
            return b'{"content": "cut'
        return super().reply_bytes(number, body)


@pytest.fixture(scope="module", autouse=True)
def _recorded_run_folders_removed():
    """`relay record` keeps its run folder in the temporary folder for the developer to read: the ones these tests
    made (and only those: another suite may be recording beside them) are removed after them."""
    made: list[str] = []
    real = tempfile.mkdtemp

    def mkdtemp(*args, **kwargs):
        path = real(*args, **kwargs)
        if Path(path).name.startswith("relay-record-"):
            made.append(path)
        return path

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "mkdtemp", mkdtemp)
        yield
    for path in made:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, Path]:
    """A new cassette recorded as a developer records one, the run and the responder in this process (the offline
    model reads the values its prompts were rendered from, which only the run's own process has)."""
    root = tmp_path_factory.mktemp("recorded")
    cassette, requests = root / "offline-simple", root / "requests"
    printed = io.StringIO()
    with MalformedFirst(requests) as responder, contextlib.redirect_stdout(printed):
        code = relay_main(["record", str(cassette), "--requests", str(requests),
                           "--note", "recorded by the test's scripted responder", "--in-process", "--", *ARGS])
    assert code == 0, printed.getvalue()[-3000:]
    assert f"requests appear in {requests}" in printed.getvalue()
    assert not responder.errors
    return cassette, requests


@pytest.fixture
def cassette(recorded, tmp_path) -> Path:
    """A copy of the recorded cassette, for a test to edit."""
    copy = tmp_path / "cassette"
    shutil.copytree(recorded[0], copy)
    return copy


def test_a_run_driven_through_the_relay_is_recorded_with_its_command_inputs_and_ending(recorded):
    cassette, requests = recorded
    meta = read_meta(cassette)
    assert meta["exit_code"] == EXIT_CODES[meta["status"]], meta["reason"]
    assert meta["args"] == ["run", "--mode", "simple", TASK, "--files", "inputs/stores.csv"]
    assert meta["inputs"] == [{"path": "inputs/stores.csv", "source": "examples/data/stores.csv", "bytes": 511,
                               "sha256": meta["inputs"][0]["sha256"], "stored": True}]
    assert (cassette / "inputs/stores.csv").read_bytes() == (REPO / "examples/data/stores.csv").read_bytes()
    assert meta["config"]["calls"] == {"timeout_s": 2400, "retries": 1}
    assert "--model openai/relay" in meta["command"] and meta["note"] == "recorded by the test's scripted responder"
    exchanges = read_cassette(cassette / CASSETTE)
    assert len(exchanges) == meta["recorded"]["exchanges"] == len(list(requests.glob("*.request.md")))
    agents = [e.agent for e in exchanges]
    assert {"coding_agent", "answer_validator", "summary_agent"} <= set(agents)
    for agent in set(agents):   # simple mode: one scope, each agent's requests numbered in order
        assert [e.index for e in exchanges if e.agent == agent] == list(range(agents.count(agent)))
    # the malformed first reply was moved aside with a reason, and the fixed one used
    assert "not valid JSON" in (requests / "0000.reply.1.error").read_text()
    finished = json.loads((requests / "finished.json").read_text())
    assert finished == {"exit_code": meta["exit_code"], "status": meta["status"]}
    # compact: each system prompt is stored once
    lines = (cassette / CASSETTE).read_text().splitlines()
    blobs = [json.loads(line)["text"] for line in lines if line.startswith('{"blob"')]
    assert len(blobs) == len(set(blobs))
    assert sum(1 for text in blobs if 'Your internal name is "coding_agent"' in text) == 1


def test_the_replayed_run_ends_as_recorded(cassette, tmp_path):
    result = assert_replays(cassette, tmp_path / "replay")
    assert result.outcome.status == read_meta(cassette)["status"] and not result.misses and not result.unused
    assert len(result.requests) == len(read_cassette(cassette / CASSETTE))


def test_a_reworded_prompt_still_replays(cassette, tmp_path, monkeypatch):
    prompts = tmp_path / "prompts"
    shutil.copytree(REPO / "prompts", prompts)
    for template in prompts.glob("*.md.j2"):
        text = template.read_text()
        text = text.replace("{% block static %}", "{% block static %}Reworded: read every instruction twice.\n", 1)
        text = text.replace("{% block per_call %}", "{% block per_call %}Reworded too.\n", 1)
        template.write_text(text.replace("You ", "You, the agent, ").replace("Use ", "Please use "))
    monkeypatch.setenv(PROMPTS_DIR_ENV, str(prompts))
    result = assert_replays(cassette, tmp_path / "replay")
    assert any("Reworded: read every instruction twice." in json.dumps(body) for body in result.requests)


def test_a_request_more_than_recorded_fails_with_a_readable_diff(cassette, tmp_path):
    validator = [e for e in read_cassette(cassette / CASSETTE) if e.agent == "answer_validator"]
    edit_cassette(cassette / CASSETTE, keep=lambda record: record["exchange"] != validator[-1].number)
    with pytest.raises(AssertionError) as failure:
        assert_replays(cassette, tmp_path / "replay")
    text = str(failure.value)
    assert "cannot answer (1 request(s))" in text   # the run stopped at once: no retry, no step-down
    assert f"request {len(validator)} of agent `answer_validator` in scope (root) cannot be answered" in text
    assert f"the cassette recorded only {len(validator) - 1} request(s) of it there" in text
    assert "expected: no request after exchange" in text and "came (last messages):" in text
    assert "tool:" in text   # the tool results that came back, shown


def test_an_agent_the_cassette_never_saw_fails_naming_it(cassette, tmp_path):
    edit_cassette(cassette / CASSETTE, keep=lambda record: record["agent"] != "summary_agent")
    with pytest.raises(AssertionError, match=r"agent `summary_agent` .* the cassette never saw this agent"):
        assert_replays(cassette, tmp_path / "replay")


def test_a_request_of_another_shape_fails_with_expected_and_came(cassette, tmp_path):
    (second,) = [e for e in read_cassette(cassette / CASSETTE) if e.agent == "coding_agent" and e.index == 1]
    assert second.exchanges == [["run_python"]]

    def other_tool(record: dict) -> None:
        if record["exchange"] == second.number:
            record["exchanges"] = [["sql_query"]]

    edit_cassette(cassette / CASSETTE, keep=lambda record: True, change=other_tool)
    with pytest.raises(AssertionError) as failure:
        assert_replays(cassette, tmp_path / "replay")
    text = str(failure.value)
    assert "request 2 of agent `coding_agent`" in text
    assert f"differs from exchange {second.number} in its shape" in text
    assert 'expected (recorded): [["sql_query"]]' in text and 'came:                [["run_python"]]' in text


def test_a_cassette_is_re_recorded_from_its_meta(cassette, tmp_path):
    before = read_meta(cassette)
    assert record(cassette, [], requests=tmp_path / "requests", responder="offline") == 0
    after = read_meta(cassette)
    assert after["args"] == before["args"] and after["note"] == before["note"]
    assert (after["status"], after["exit_code"]) == (before["status"], before["exit_code"])
    assert after["recorded"]["responder"] == "offline"
    assert not (cassette / f"{CASSETTE}.new").exists()
    assert len(read_cassette(cassette / CASSETTE)) == after["recorded"]["exchanges"]


def test_a_plan_sent_back_then_approved_is_recorded_as_one_cassette_and_replays(tmp_path):
    """`--then` continues the run the first command made (`approve RUN --edit`, then `approve RUN`) against the
    same relay, so a plan a person sends back and then approves is one cassette, replayed the same way."""
    cassette, requests = tmp_path / "offline-approval", tmp_path / "requests"
    args = ["run", "--mode", "orchestrated", TASK, "--approve-plan", "--files", str(REPO / "examples/data/stores.csv")]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = relay_main(["record", str(cassette), "--requests", str(requests), "--responder", "offline",
                           "--then", "approve RUN --edit 'also report the median size_sqm per region'",
                           "--then", "approve RUN", "--note", "the offline model, sent back once", "--", *args])
    assert code == 0, printed.getvalue()[-3000:]
    meta = read_meta(cassette)
    assert meta["then"] == [["approve", "RUN", "--edit", "also report the median size_sqm per region"],
                            ["approve", "RUN"]]
    assert meta["status"] in EXIT_CODES and meta["exit_code"] == EXIT_CODES[meta["status"]]
    planners = [e for e in read_cassette(cassette / CASSETTE) if e.agent == "plan_maker"]
    assert len(planners) >= 2   # the plan was made, sent back with the notes, and made again
    assert "also report the median size_sqm per region" in json.dumps(planners[-1].messages)
    assert_replays(cassette, tmp_path / "replay")


def test_a_then_command_must_continue_the_run(tmp_path):
    printed = io.StringIO()
    with contextlib.redirect_stderr(printed):
        code = relay_main(["record", str(tmp_path / "c"), "--then", "run --mode simple x", "--", *ARGS])
    assert code == 2 and "a `then` command continues the run" in printed.getvalue()
