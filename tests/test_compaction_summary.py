"""The extractive summary (offline compactor) keeps file names, numbers, errors and decisions."""

from __future__ import annotations

from google.adk.events import Event
from google.genai import types

from agentic_ds.context.compaction import SUMMARY_HEADER, ExtractiveSummarizer


def event(author: str, *parts: types.Part, ts: float) -> Event:
    return Event(
        author=author, invocation_id="inv", content=types.Content(role="model", parts=list(parts)), timestamp=ts
    )


def history() -> list[Event]:
    filler = "\n".join(f"row {i}: " + "x" * 40 + f" {i * 1.5:.1f}" for i in range(300))
    return [
        event("user", types.Part(text="Please analyse inputs/sales.csv and find the trend."), ts=1),
        event(
            "coder",
            types.Part(
                function_call=types.FunctionCall(
                    name="run_python", args={"code": "df = pd.read_csv('inputs/sales.csv')"}
                )
            ),
            ts=2,
        ),
        event(
            "coder",
            types.Part(
                function_response=types.FunctionResponse(
                    name="run_python", response={"output": "shape: (48213, 7)\nwrote outputs/monthly.csv\n" + filler}
                )
            ),
            ts=3,
        ),
        event(
            "coder",
            types.Part(
                function_response=types.FunctionResponse(
                    name="run_python", response={"error": "Traceback (most recent call last):\nKeyError: 'revenue'"}
                )
            ),
            ts=4,
        ),
        event(
            "coder",
            types.Part(text="I decided to use the column amount instead of revenue. The slope is 0.0312 (p = 0.004)."),
            ts=5,
        ),
        event("reviewer", types.Part(text="Approved: figures/trend.png matches the numbers."), ts=6),
        event("coder", types.Part(text="Let me think about this for a moment."), ts=7),
    ]


async def test_summary_keeps_files_numbers_errors_and_decisions_within_the_bound():
    summarizer = ExtractiveSummarizer(max_chars=1500)
    compacted = await summarizer.maybe_summarize_events(events=history())
    compaction = compacted.actions.compaction
    assert (compaction.start_timestamp, compaction.end_timestamp) == (1, 7)
    summary = compaction.compacted_content.parts[0].text
    assert summary.startswith(SUMMARY_HEADER) and len(summary) <= 1500
    for fact in ["inputs/sales.csv", "outputs/monthly.csv", "figures/trend.png", "48213", "KeyError: 'revenue'",
                 "decided to use the column amount", "0.0312", "Approved"]:
        assert fact in summary, fact
    assert "think about this" not in summary  # nothing to keep in it
    assert summary.count("row ") <= 8  # one big table cannot crowd out the rest


async def test_a_later_summary_carries_the_earlier_one_forward():
    summarizer = ExtractiveSummarizer(max_chars=800)
    first = (await summarizer.maybe_summarize_events(events=history())).actions.compaction.compacted_content
    seed = Event(author="model", invocation_id="seed", content=first, timestamp=1)
    later = [event("coder", types.Part(text="\n".join(f"value {i}: {i * 7}" for i in range(200))), ts=8)]
    summary = summarizer.summarize_text([seed, *later])
    assert "inputs/sales.csv" in summary and "KeyError: 'revenue'" in summary
    assert len(summary) <= 800 and summary.count(SUMMARY_HEADER) == 1


async def test_nothing_to_summarize():
    assert await ExtractiveSummarizer().maybe_summarize_events(events=[]) is None
