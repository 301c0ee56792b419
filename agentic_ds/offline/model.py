"""`OfflineLlm`: a deterministic `BaseLlm` that answers every agent role from the request it gets.

ADK labels each request with the name of the agent that sends it; the model dispatches on that agent's role in
the table of agents. Each role reads the values its prompt was rendered from (the task,
asks, profile, plan, stage, criteria, execution: `context.PROMPT_CONTEXT`, as data) and its own tool history, and
answers with tool calls or text (JSON for structured roles); it never reads the prompt's text. A request from an
unknown agent (e.g. the event compactor) gets an extractive summary. Same request -> same response.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Callable
from functools import cache
from pathlib import Path

from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.models.base_llm import LlmCapabilities
from google.genai import types

from agentic_ds.agent_table import role_of
from agentic_ds.context.per_call import PROMPT_CONTEXT
from agentic_ds.offline.request import ParsedRequest, Reply, parse_request
from agentic_ds.offline.roles.coder import coding_turn
from agentic_ds.offline.roles.criteria import code_reviewer_turn, criteria_turn, reflector_turn
from agentic_ds.offline.roles.planning import confirmation_turn, plan_maker_turn, plan_parser_turn, plan_reviewer_turn
from agentic_ds.offline.roles.summarizer import compact_turn, summary_turn
from agentic_ds.offline.roles.validator import judge_turn, task_reader_turn, validator_turn
from agentic_ds.skills import SkillLibrary, default_skills_dir

log = logging.getLogger(__name__)
CHARS_PER_TOKEN = 4


@cache
def _library(root: str) -> SkillLibrary:
    return SkillLibrary.load(Path(root))


class OfflineLlm(BaseLlm):
    """The built-in offline model. `skills_dir` defaults to the bundled skills."""

    model: str = "offline"
    skills_dir: str = ""

    @property
    def capabilities(self) -> LlmCapabilities:
        return LlmCapabilities(output_schema_and_tools=True)

    def library(self) -> SkillLibrary:
        return _library(self.skills_dir or str(default_skills_dir()))

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        req = parse_request(llm_request)
        given = PROMPT_CONTEXT.get()
        if given is not None and given[0] == req.agent:
            req.context = given[1]
        try:
            reply = self.answer(req)
        except Exception as exc:  # noqa: BLE001 - a bug here must end the agent's turn, not the run
            log.exception("offline model failed for agent %r", req.agent)
            reply = Reply.say(f"The offline model could not answer this request ({type(exc).__name__}: {exc}).")
        yield _response(reply, req)

    def answer(self, req: ParsedRequest) -> Reply:
        """The reply for one parsed request (public for tests)."""
        return self.handlers().get(role_of(req.agent) or "", lambda r: Reply.say(compact_turn(r)))(req)

    def handlers(self) -> dict[str, Callable[[ParsedRequest], Reply]]:
        """The answer for each role of the table of agents (an agent's role comes from its name)."""
        library = self.library
        return {
            "plan_maker": lambda r: plan_maker_turn(r, library()),
            "plan_reviewer": plan_reviewer_turn,
            "confirmation": confirmation_turn,
            "plan_parser": plan_parser_turn,
            "coder": lambda r: coding_turn(r, library()),
            "code_reviewer": code_reviewer_turn,
            "criteria_checker": criteria_turn,
            "stage_reflector": reflector_turn,
            "summarizer": summary_turn,
            "answer_validator": validator_turn,
            "task_reader": task_reader_turn,
            "judge": judge_turn,
        }


def _response(reply: Reply, req: ParsedRequest) -> LlmResponse:
    parts = [types.Part(function_call=types.FunctionCall(name=name, args=args)) for name, args in reply.calls] or [
        types.Part(text=reply.text)]
    completion = len(reply.text) + sum(len(str(args)) + len(name) for name, args in reply.calls)
    prompt_tokens = max(1, len(req.text()) // CHARS_PER_TOKEN)
    completion_tokens = max(1, completion // CHARS_PER_TOKEN)
    usage = types.GenerateContentResponseUsageMetadata(prompt_token_count=prompt_tokens, candidates_token_count=(
        completion_tokens), total_token_count=prompt_tokens + completion_tokens)
    return LlmResponse(content=types.Content(role="model", parts=parts), usage_metadata=usage)
