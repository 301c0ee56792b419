"""Answer a summarisation request (ADK's event compactor) with an extractive summary.

Keeps the lines that carry facts a later turn needs: file paths, numbers, errors, decisions, and the
names of the tools called. Nothing is paraphrased, so nothing can be invented.
"""

from __future__ import annotations

import re

from agentic_ds.offline.request import ParsedRequest

MAX_LINES = 60
MAX_LINE_CHARS = 300
_KEEP = re.compile(
    r"(outputs/|figures/|inputs/|stages/|\.json|\.csv|\.png|\d|error|exception|traceback|failed|approved|"
    r"changes requested|decid|exit|criteri)",
    re.I,
)
_TOOL = re.compile(r"\b(run_python|read_file|write_file|list_files|sql_query|profile_data|list_skills|load_skill)\b")


def compact_turn(req: ParsedRequest) -> str:
    text = "\n".join([*req.user_texts, req.instruction])
    tools = sorted(set(_TOOL.findall(text)) | {ex.name for ex in req.exchanges})
    kept: dict[str, None] = {}          # ordered and O(1) membership: a long transcript stays linear
    for line in text.splitlines():
        line = line.strip()[:MAX_LINE_CHARS]
        if line and _KEEP.search(line):
            kept.setdefault(line, None)
    lines = ["Conversation Language: English", f"Tools used: {', '.join(tools) or 'none'}", "Key facts kept verbatim:"]
    lines += [f"- {line}" for line in list(kept)[-MAX_LINES:]]
    return "\n".join(lines)
