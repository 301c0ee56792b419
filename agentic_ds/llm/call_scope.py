"""Which part of a run a model call belongs to, told to local servers in two request headers.

A run's agents are called many times: the coder once per stage attempt, each stage on its own ADK branch
(`stage_orchestrator.<stage id>`). A local OpenAI-compatible server that stands in for a model in tests (the relay
that records a capable model's replies, the replay server that plays them back, `agentic_ds.testing`) keys each
request by agent and branch, so that requests of parallel or repeated stages never get mixed up. The call scope
plugin notes the calling agent's branch before every model call; `scope_headers` turns it into headers for a
server on a local or unknown host. Hosted providers get none.
"""

from __future__ import annotations

import contextvars
from typing import Any
from urllib.parse import quote

from agentic_ds.llm.capabilities import is_hosted

AGENT_HEADER = "X-Agentic-DS-Agent"
BRANCH_HEADER = "X-Agentic-DS-Branch"

current_branch: contextvars.ContextVar[str | None] = contextvars.ContextVar("agentic_ds_current_branch", default=None)


def call_scope_plugin() -> Any:
    """The ADK plugin noting the branch of the agent whose model call follows (the request is left as it is).
    Built on demand: this module is imported by the test servers, which need no ADK."""
    from google.adk.plugins.base_plugin import BasePlugin

    class CallScope(BasePlugin):
        def __init__(self) -> None:
            super().__init__(name="call_scope")

        async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
            current_branch.set(callback_context.branch or "")
            return None

    return CallScope()


def scope_headers(spec: str, api_base: str | None, agent: str | None) -> dict[str, str]:
    """The headers telling a local server which agent and branch a request comes from ({} for hosted APIs)."""
    if not api_base or is_hosted(spec, api_base):
        return {}
    # Stage ids come from a model's plan: percent-encoded, so any text makes a valid header value.
    headers = {BRANCH_HEADER: quote(current_branch.get() or "", safe="._-:/")}
    if agent:
        headers[AGENT_HEADER] = quote(agent, safe="._-:/")
    return headers
