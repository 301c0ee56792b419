"""bench/cassettes.py: calls, tokens and the cacheable-prefix share of recorded runs, per stage."""

from __future__ import annotations

from agentic_ds.testing.cassette import CassetteWriter, read_cassette
from agentic_ds.testing.chat_request import read_request
from bench.cassettes import measure, replayed_requests, reusable, serialise, shared_length
from tests.relay_support import body, call_and_result


def test_each_stage_counts_its_calls_tokens_and_the_prefix_shared_with_the_agents_previous_request(tmp_path):
    first = body()
    second = body("coding_agent", *call_and_result("call_0", "run_python", {"code": "print(1)"}, {"ok": True}))
    writer = CassetteWriter(tmp_path / "c.jsonl")
    for request, scope in ((first, "stage_orchestrator.s1"), (second, "stage_orchestrator.s2"), (body("x"), "")):
        writer.add(read_request(request), scope, {"content": "ok", "tool_calls": []})
    writer.close()
    recorded = read_cassette(tmp_path / "c.jsonl")
    texts = [serialise(r) for r in recorded]
    assert texts[0].startswith("system: You write code.") and '"name": "run_python"' in texts[0]
    assert texts[1].startswith(texts[0])   # the second request of the agent extends the first
    stages = measure(recorded)
    assert list(stages) == ["s1", "s2", "(root)"]
    assert stages["s1"].prefix_chars == 0 and stages["(root)"].prefix_chars == 0   # first requests of an agent
    assert stages["s2"].prefix_chars == len(texts[0]) and stages["s2"].tokens == len(texts[1]) // 4
    assert 0 < stages["s2"].share < 1
    # s2's request extends the agent's first one whole, so it reaches what same-agent caching can serve
    assert stages["s2"].first_chars == 0 and stages["s2"].ceiling == 1.0
    assert stages["s1"].ceiling == 0.0 and stages["(root)"].first_chars == len(texts[2])


def test_the_provider_cache_share_counts_a_head_shared_with_another_agents_earlier_request():
    shared = "## Task\nMean price by region\n\n## Data profile\n" + "price: numeric, mean 11.2; " * 40

    def sent(agent: str, role: str) -> dict:
        return {"messages": [{"role": "system", "content": f"{shared}\n{role}\n\nYour internal name is \"{agent}\"."},
                             {"role": "user", "content": "go"}]}

    bodies = [sent("plan_maker", "You plan."), sent("plan_reviewer", "You review."), sent("plan_maker", "You plan.")]
    requests = replayed_requests(bodies, ["", "", "stage_orchestrator.s1"])
    assert [r.agent for r in requests] == ["plan_maker", "plan_reviewer", "plan_maker"]
    stages = measure(requests)
    root, s1 = stages["(root)"], stages["s1"]
    head = len("system: " + shared + "\nYou ")
    # the reviewer's first request: nothing from an earlier request of its own, its head from the planner's
    assert root.prefix_chars == 0 and root.cache_chars == head
    # the planner again: its whole earlier request, by either measure
    assert s1.prefix_chars == s1.cache_chars == len(requests[2].text)
    assert root.cache_share > root.share == 0
    # what no earlier request shares, by the part it lies in: the rest of each system text (the role onwards) and
    # the messages after it (no tools are declared here)
    assert root.uncached["tools"] == 0 and root.uncached["messages"] == 2 * len("user: go")
    assert root.uncached["system"] + root.uncached["messages"] == root.input_chars - root.cache_chars
    assert shared_length("abcx", "abcy") == 3 and shared_length("ab", "abc") == 2 and shared_length("", "a") == 0


def test_the_reuse_bound_counts_lines_sent_earlier_in_any_position_and_never_first_sent_text():
    def sent(agent: str, system: str, user: str) -> dict:
        return {"messages": [{"role": "system", "content": f"Shared\n{system}\n\nYour internal name is \"{agent}\"."},
                             {"role": "user", "content": user}]}

    # The reviewer's request holds the planner's lines in another order, then lines no request sent before.
    bodies = [sent("plan_maker", "alpha\nbeta", "go"), sent("plan_reviewer", "beta\nalpha", "go\nnew")]
    requests = replayed_requests(bodies, ["", ""])
    (root,) = measure(requests).values()
    second = requests[1].text
    assert second.startswith("system: Shared\nbeta\nalpha\n")
    head = len("system: Shared\n")   # the prefix the planner's request shares
    fresh = len('Your internal name is "plan_reviewer".\n') + len("new")
    assert root.cache_chars == head and root.reuse_chars == len(second) - fresh
    assert root.message_chars == len("user: go") + len("user: go\nnew")
    assert 0 < root.cache_share < root.reuse_bound < 1
    # a megabyte of lines: one pass; served whole once every line was sent, a prefix never counted twice
    big = "\n".join(f"row {n}" for n in range(100_000))
    lines: set[str] = set()
    assert reusable(big, 0, lines) == 0 and reusable(big, 5, lines) == len(big)
