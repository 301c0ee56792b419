"""Every ADK internal agentic-ds relies on, and the only module that touches one.

google-adk is pinned to 2.13.x (pyproject.toml). The names below are private to ADK, or rely on behaviour its
public API does not promise, so any minor release may move them; `tests/test_adk_private.py` checks each entry
of `PRIVATE_NAMES` and fails with "ADK upgrade moved <name>: see agentic_ds/adk_private.py". Each is used
because no public API does the job at an acceptable cost (BENCHMARKS.md, "overhead"):

- `content_history`: ADK's contents processor (`flows.llm_flows.context._contents.request_processor`), to
  rebuild the history an agent is sent after the compaction guard compacted it mid-request.
- `in_branch`: `_contents._is_event_belongs_to_branch`, so the guard compacts exactly what ADK would send.
- `events_to_compact`: `apps.compaction._events_to_compact_for_token_threshold` and
  `_is_range_worth_compacting`: ADK's own choice of events (tool calls kept with their responses).
- `replace_session_events`: edits `session.events` in place. ADK builds every request from the in-memory
  session's list; dropping what is compacted or finished keeps a long run's per-call cost flat.
- `DeclaredTool`: overrides `FunctionTool._get_declaration` (ADK's documented hook for custom tools) to build a
  declaration once instead of deep-copying it for every request.
- `RunSessionService`: overrides `SqliteSessionService._get_db_connection` and reads `_db_path`,
  `_db_connect_path`, `_db_connect_uri`, `_schema_ready`, to keep one connection open (the stock service opens
  one per stored event, +5.6 ms each).
- `label_dynamic_instruction`, `INSTRUCTION_PREAMBLE`: `flows.llm_flows.prompt._instructions`, how ADK labels
  an instruction it puts into the contents (fenced, markers in the text elided), so the per-call part of a
  prompt (`context/per_call.py`) reads to a model, and to the offline model, as ADK's own does.
- `OTHER_AGENT_PREAMBLE`: `flows.llm_flows.context._fencing`, how ADK relays another agent's words into an
  agent's contents; `context/per_call.py` leaves those out (every agent's prompt already says what it needs).
- `ResolvedTelemetry`: wraps the getters of `TelemetryConfig`'s answer properties in `cached_property`.
- `agent_of`: `flows.llm_flows.core._model_call.ADK_AGENT_NAME_LABEL_KEY`, the label ADK puts on every request
  (`config.labels`) with the name of the agent that sends it, so the offline model knows the agent from data,
  not from the text of the prompt.

ADK's own mechanisms weighed against these (issue 24), and kept out where they fall short:

- Compaction, `App(events_compaction_config=...)`: ADK 2.13's trigger (`CompactionRequestProcessor`) compares the
  budget with the prompt size the agent's *previous* call reported, so the call after a large tool result goes out
  over budget; it compacts the whole session rather than the branch the agent is sent; and its summary is authored
  `user`, which an `include_contents="none"` agent takes for the start of its turn (dropping the events kept
  verbatim). `bench/context_adk.py` runs both on one scenario (BENCHMARKS.md, "context_adk"): with a 6,000-token
  budget the guard kept every one of 281 calls within it (max 5,993) and all 20 planted facts; ADK's own trigger
  sent 145 calls over it (max 8,220) and kept 10 of the 20 facts. So the config goes
  to `context/compaction_guard.py`, which measures the request about to be sent, and the App gets none; the guard
  needs `content_history`, `in_branch` and `events_to_compact` above.
- Context caching, `App(context_cache_config=...)`: for Gemini it creates explicit server-side caches (billed
  storage, extra API calls) and for every LiteLLM model it adds `cache_control` injection points. Providers other
  than Anthropic cache a common prefix on their own, so `context/cache_markers.py` gives the two markers to Claude
  models only, through LiteLlm's public constructor arguments: no private name is involved either way.
- Agent Skills: adopted for loading. `skills/spec.py` reads each skill with `google.adk.skills.load_skill_from_dir`
  (front matter validated as ADK's `Frontmatter`, our `templates` kept as its extra field). ADK's `SkillToolset`
  is not used to offer them: its `list_skills` takes no query (ours ranks skills by relevance to the stage), its
  `load_skill` does not show our code templates and their parameters, and it records activated skills in session
  state, which would change every recorded request the cassettes replay.

Stages in parallel (`workflow/orchestrator.py`) do not use ADK's `ParallelAgent` (nor the `Workflow` graph), though
they were tried first: `ParallelAgent` runs a fixed list of distinct sub-agents, all started at once, each on the
branch `<parallel>.<sub-agent name>`, with one shared state. The orchestrator runs the one implementation loop for
every stage (the agent table names each agent once: progress, events, the offline model and the recorded cassettes
key on those names and on the branch `stage_orchestrator.<stage id>`), starts a stage only when the stages it needs
and the check after them are done and a place is free (`--parallel-stages`), and needs each stage's loop keys kept
apart; N copies of the loop under a `ParallelAgent` would rename agents and branches, start stages before their
needs, and still collide in state. A `Workflow` cannot be a sub-agent of the run's `SequentialAgent` tree (§2 of
the research notes). So `workflow/merging.py` merges the stages' events as `parallel_agent._merge_agent_run` does
(a task per producer, each waiting until its event is stored), with producers added while others run; it imports
nothing private. Behaviour relied on there, not promised: an agent reads state only through `ctx.session.state`, so
a stage's context is a copy whose session shows state through a mapping and holds its own history
(`workflow/stage_scope.py`), and the Runner stores every event in its own invocation's session (what appends an
event itself, the compaction guard, appends it to that session: `stage_scope.root_session`).

Not a private name, but behaviour the public API does not promise: ADK's identity line (`You are an agent. Your
internal name is "NAME".`, `flows.llm_flows.prompt._identity`) is appended to the system text after the agent's
instruction (SingleFlow runs its `instructions` request processor before `identity`), once. So every agent's system
text starts with its template's static block, which leads with the run's shared context (task, data profile, asks:
the same bytes in every agent's), and the line that differs per agent comes last, where it costs no shared prefix;
nothing here moves it. `testing/chat_request.py` finds the agent by that line wherever it is (an OpenAI chat request
carries no labels); the offline model reads ADK's label (`agent_of`). `tests/test_prompt_caching.py` checks it on
the requests a scripted run sends (it fails if an upgrade puts the line first or twice).

Also behaviour the public API does not promise: `agentic-ds serve` is ADK's own FastAPI app
(`google.adk.cli.fast_api.get_fast_api_app`, `server/adk_app.py`) with some of its routes removed by method and
path: the ones that would run an agent inside the server (`/run`, `/run_sse`, `/run_live`: a run here is its own
process with its own session.db) or change a session, artifact or memory (a run's record is written by its process
only). `tests/test_server_adk_app.py` lists every route ADK registers, so a route an upgrade adds is decided on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from functools import cached_property
from typing import Any

from google.adk.agents.invocation_context import InvocationContext
from google.adk.apps import compaction as _compaction
from google.adk.events import Event
from google.adk.flows.llm_flows.context import _contents, _fencing
from google.adk.flows.llm_flows.core import _model_call
from google.adk.flows.llm_flows.prompt import _instructions
from google.adk.models import LlmRequest
from google.adk.sessions import Session
from google.adk.sessions.sqlite_session_service import CREATE_SCHEMA_SQL, PRAGMA_FOREIGN_KEYS, SqliteSessionService
from google.adk.telemetry import TelemetryConfig
from google.adk.tools import FunctionTool
from google.genai import types

from agentic_ds.runs.sqlite_inline import InlineConnection

# (owner, attribute) for each private name used here; the contract test checks every one exists.
PRIVATE_NAMES: tuple[tuple[object, str], ...] = (
    (_contents, "request_processor"),
    (_contents, "_is_event_belongs_to_branch"),
    (_instructions, "_label_dynamic_instruction"),
    (_instructions, "_INSTRUCTION_PREAMBLE"),
    (_fencing, "OTHER_AGENT_CONTEXT_PREAMBLE"),
    (_model_call, "ADK_AGENT_NAME_LABEL_KEY"),
    (_compaction, "_events_to_compact_for_token_threshold"),
    (_compaction, "_is_range_worth_compacting"),
    (FunctionTool, "_get_declaration"),
    (SqliteSessionService, "_get_db_connection"),
)
SQLITE_SERVICE_ATTRIBUTES = ("_db_path", "_db_connect_path", "_db_connect_uri", "_schema_ready")
TELEMETRY_ANSWERS = (
    "resolved_content_capturing_mode",
    "should_add_content_to_logs",
    "should_add_content_to_experimental_spans",
    "should_add_content_to_legacy_spans",
    "should_use_experimental_genai_semconv",
    "should_emit_experimental_telemetry",
)


# -- history and compaction ---------------------------------------------------------------------
async def content_history(ctx: InvocationContext) -> list[types.Content]:
    """The contents ADK builds from the session for `ctx.agent` now (its contents request processor)."""
    scratch = LlmRequest()
    async for _ in _contents.request_processor.run_async(ctx, scratch):
        pass
    return scratch.contents


AGENT_NAME_LABEL: str = _model_call.ADK_AGENT_NAME_LABEL_KEY


def agent_of(request: LlmRequest) -> str:
    """The name of the agent that sends `request`, as ADK labels it ("" for a request no agent sent)."""
    labels = request.config.labels if request.config else None
    return str((labels or {}).get(AGENT_NAME_LABEL) or "")


INSTRUCTION_PREAMBLE: str = _instructions._INSTRUCTION_PREAMBLE
# How ADK relays another agent's words into an agent's contents ("For context: below is a transcript ...").
OTHER_AGENT_PREAMBLE: str = _fencing.OTHER_AGENT_CONTEXT_PREAMBLE


def label_dynamic_instruction(text: str) -> str:
    """`text` fenced as an instruction, exactly as ADK puts a dynamic instruction into a request's contents."""
    return _instructions._label_dynamic_instruction(text)


def in_branch(branch: str | None, event: Event) -> bool:
    """Whether ADK shows `event` to an agent running on `branch`."""
    return _contents._is_event_belongs_to_branch(branch, event)


def events_to_compact(history: list[Event], retention: int) -> list[Event]:
    """What ADK would compact of `history` keeping `retention` events verbatim (calls stay with their
    responses); empty when the range is not worth a summary."""
    chosen = _compaction._events_to_compact_for_token_threshold(events=history, event_retention_size=retention)
    if not chosen or not _compaction._is_range_worth_compacting(events=history, events_to_compact=chosen):
        return []
    return chosen


def replace_session_events(session: Session, events: Iterable[Event]) -> None:
    """Keep only `events` in the in-memory session ADK is running (`session.db` keeps every event).

    In place: the runner, the invocation contexts and ADK's request processors share this one list."""
    session.events[:] = list(events)


# -- a tool declared once -----------------------------------------------------------------------
class DeclaredTool(FunctionTool):
    """A function tool whose declaration is built once. ADK hands out a deep copy per request because a
    toolset prefix may rename it; our tools are never prefixed and nothing edits a declaration."""

    _declaration: types.FunctionDeclaration | None = None

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        if self._declaration is None:
            self._declaration = super()._get_declaration()
        return self._declaration


# -- one SQLite connection per run ----------------------------------------------------------------
class RunSessionService(SqliteSessionService):
    """ADK's SQLite session service on one persistent connection; call `close()` when the run ends.

    The connection is in WAL mode and runs its statements inline (`runs/sqlite_inline.py`) instead of through
    aiosqlite's worker thread. The file format and schema are ADK's own, so a stock `SqliteSessionService`
    reopens `session.db` unchanged. `synchronous=NORMAL` in WAL mode keeps every committed event across a crash
    of the process (only an OS crash or power loss can drop the last commits).
    """

    def __init__(self, db_path: str) -> None:
        super().__init__(db_path)
        self._conn: InlineConnection | None = None
        self._conn_lock = asyncio.Lock()

    @asynccontextmanager
    async def _get_db_connection(self) -> AsyncIterator[InlineConnection]:  # type: ignore[override]
        if self._db_path in ("", ":memory:"):
            async with super()._get_db_connection() as db:
                yield db  # type: ignore[misc]
            return
        async with self._conn_lock:
            if self._conn is None:
                conn = InlineConnection(self._db_connect_path, uri=self._db_connect_uri)
                await conn.execute("PRAGMA journal_mode=WAL")
                await conn.execute("PRAGMA synchronous=NORMAL")
                await conn.execute(PRAGMA_FOREIGN_KEYS)
                await conn.executescript(CREATE_SCHEMA_SQL)
                self._schema_ready = True
                self._conn = conn
            try:
                yield self._conn
            except BaseException:
                await self._conn.rollback()
                raise

    async def close(self) -> None:
        async with self._conn_lock:
            if self._conn is not None:
                # Fold the WAL back into the main file so session.db alone holds everything.
                await self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                await self._conn.close()
                self._conn = None
        await super().close()


# -- telemetry answers computed once -------------------------------------------------------------
class ResolvedTelemetry(TelemetryConfig):
    """A `TelemetryConfig` (same fields, same answers) whose answers are computed once per run.

    ADK asks its config what to record several times per model call, and once more for every message of the
    request; each answer walks two or three properties and pydantic's private-attribute lookup (about 4 µs),
    so on a long prompt the questions cost more than the records. The config is frozen and reads the
    environment once, at construction, so its answers cannot change. Equality and hashing stay those of the
    configured fields.
    """

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TelemetryConfig):
            return NotImplemented
        return _fields(self) == _fields(other)

    def __hash__(self) -> int:
        return hash((TelemetryConfig, _fields(self)))


def _fields(config: TelemetryConfig) -> tuple[object, ...]:
    return tuple(getattr(config, name) for name in TelemetryConfig.model_fields)


for _answer in TELEMETRY_ANSWERS:  # each answer property's getter, cached per instance
    _cached: cached_property[Any] = cached_property(vars(TelemetryConfig)[_answer].fget)
    _cached.__set_name__(ResolvedTelemetry, _answer)
    setattr(ResolvedTelemetry, _answer, _cached)
