"""`task_reader`: the task read once, at the start, into the asks the run holds itself to and a short title.

Which parts a question has is language, so the planner's model reads it; code keeps what is a format
(`evidence/asks.py`: every `@name[...]` is an ask). The asks go to state (`asks`), plan.md, run.json and the
report, so a user sees what the run held itself to. A reader that gives no valid answer leaves the task as one
ask, and the title its first words.
"""

from __future__ import annotations

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.evidence.asks import read_asks, slots
from agentic_ds.schema import read_model
from agentic_ds.state import SessionState, TaskReading, typed
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.prompting import PromptContext
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import error_key

MAX_TITLE_CHARS = 80
MAX_TITLE_WORDS = 10
FALLBACK_TITLE_WORDS = 6


def reading_delta(task: str, reading: TaskReading | None) -> SessionState:
    """The state the reading leaves: the asks (with every slot) and the title."""
    asks = read_asks(reading, task)
    title = _title(reading.title if reading is not None else "")
    title = title or _title(" ".join(task.split()[:FALLBACK_TITLE_WORDS]))
    return {S.ASKS: [ask.model_dump(mode="json") for ask in asks], S.TITLE: title}


def _title(text: str) -> str:
    words = " ".join(text.replace("\n", " ").split()).strip(" .:;\"'`#*").split(" ")
    return " ".join(words[:MAX_TITLE_WORDS])[:MAX_TITLE_CHARS].strip()


def build_task_reader(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: SessionState) -> PromptContext:
        task = str(state.get(S.TASK) or "")
        return {"task": task, "slots": slots(task), "data_profile": state.get(S.DATA_PROFILE) or "",
                "profile": services.profile(), "previous_error": state.get(error_key(A.TASK_READER)) or ""}

    def store(callback_context: CallbackContext) -> None:
        state = typed(callback_context.state)
        reading = read_model(TaskReading, state.get(S.TASK_READING))
        delta = reading_delta(str(state.get(S.TASK) or ""), reading)
        state[S.ASKS], state[S.TITLE] = delta[S.ASKS], delta[S.TITLE]

    # A reader that gave no valid answer (after its retries) leaves no reading: `store` keeps the task whole.
    return llm_agent(services, A.TASK_READER, mode, context, after_agent_callback=store)
