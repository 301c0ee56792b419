"""The values each prompt was rendered from, shared with a test's model server in another process (tests only).

The offline model reads the typed values of its prompt (`context.per_call.latest_context`), which only the run's
own process has. A test that runs `agentic-ds` as a child process (to signal or kill it) against a fault server
answering with the offline model shares them through a folder: the child loads this module from a generated
`sitecustomize.py` and writes each agent's latest values there; the server's brain reads them back. Nothing of
this is imported by the product.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ENV = "AGENTIC_DS_TEST_SHARED_CONTEXT"
# The child imports this file from its own folder (tests/ is not a package the child could import it from).
_SITE = (
    "import os, sys\nsys.path.append({folder!r})\nimport shared_context\nshared_context.install(os.environ[{env!r}])\n"
)
_folder: Path | None = None


def child_environment(env: dict[str, str]) -> dict[str, str]:
    """`env` for a child `agentic-ds` whose prompt values this process's brain should read. Values of earlier
    runs, shared or from this process, are forgotten: the child's are the ones to read from now on."""
    from agentic_ds.context import per_call

    folder = _shared_folder()
    for stale in folder.glob("*.pkl"):
        stale.unlink(missing_ok=True)
    per_call.forget_latest()
    paths = [str(folder / "site"), env.get("PYTHONPATH", "")]
    return {**env, ENV: str(folder), "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def read(agent: str) -> Mapping[str, Any] | None:
    """The latest values a child shared for `agent` (None when no child shared any)."""
    if _folder is None:
        return None
    try:
        with open(_folder / f"{agent}.pkl", "rb") as handle:
            values = pickle.load(handle)   # written by our own child, in a folder this process created
    except (OSError, pickle.UnpicklingError, EOFError):
        return None
    return values if isinstance(values, Mapping) else None


def install(folder: str) -> None:
    """In the child: after the per-call plugin sets an agent's values, write them for the parent's brain."""
    from agentic_ds.context import per_call

    original = per_call.PerCallInstructions.before_model_callback

    async def sharing(self: Any, *, callback_context: Any, llm_request: Any) -> Any:
        result = await original(self, callback_context=callback_context, llm_request=llm_request)
        given = per_call.PROMPT_CONTEXT.get()
        if given is not None:
            agent, values = given
            target = Path(folder) / f"{agent}.pkl"
            temporary = target.with_suffix(f".{os.getpid()}.tmp")
            with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError):
                temporary.write_bytes(pickle.dumps(dict(values)))
                os.replace(temporary, target)
        return result

    per_call.PerCallInstructions.before_model_callback = sharing  # type: ignore[method-assign]


def _shared_folder() -> Path:
    global _folder
    if _folder is None:
        _folder = Path(tempfile.mkdtemp(prefix="agentic-ds-shared-context-"))
        atexit.register(shutil.rmtree, _folder, True)   # one per test process, gone with it
        (_folder / "site").mkdir()
        site = _SITE.format(folder=str(Path(__file__).resolve().parent), env=ENV)
        (_folder / "site" / "sitecustomize.py").write_text(site, encoding="utf-8")
    return _folder
