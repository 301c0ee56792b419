"""Suite-wide rules: no real model can be reached, no credential leaks in from the machine.

The suite runs in parallel (`make test`: pytest-xdist, `--dist loadfile`: each test file runs whole on one
worker process, so module-scoped fixtures are built once). A test must therefore:
- listen on a port the OS chose (bind port 0, or the `free_port` fixture), never a fixed one;
- write only under `tmp_path` / `tmp_path_factory` (never the working directory, $HOME or a fixed /tmp path), at
  collection time too;
- share expensive setup (a wheel, a venv, an end-to-end run) through a module-scoped fixture in its own file, or a
  session-scoped one here (built once per worker); keep tests that need the machine to themselves out of the suite
  (they would be timed against the other worker).
"""

from __future__ import annotations

import os
from collections import Counter

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # litellm must not fetch its cost map
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")

import pytest

from agentic_ds.testing.guard import block_real_models
from tests.support.fault_server import unused_port

CREDENTIAL_VARS = (
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "OPENROUTER_API_KEY",
    "ANTHROPIC_BASE_URL",
    "OPENAI_BASE_URL",
)


@pytest.fixture(scope="session", autouse=True)
def _no_real_models():
    undo = block_real_models()
    yield
    undo()


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch):
    for name in CREDENTIAL_VARS:
        monkeypatch.delenv(name, raising=False)
    for name in list(os.environ):
        if name.startswith("AGENTIC_DS_"):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture
def free_port() -> int:
    """A port on 127.0.0.1 that nothing listened on a moment ago (for a server a test starts, or "connection refused").
    Prefer binding port 0 yourself when you start the server in this process: no other process can take it then."""
    return unused_port()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The order xdist hands files out in (`make test` passes `--no-loadscope-reorder`): files marked `early`
    first, then the others by their number of tests, most first (xdist's own order). A file of one long test
    (the kill points, the large inputs) would otherwise start last and run alone at the end. The unprivileged
    attack run is not marked: beside the other early files, its `nobody` kernels share RLIMIT_NPROC with theirs
    (SECURITY.md) and one of its cells could not fork."""
    counts = Counter(item.path for item in items)
    early = {item.path for item in items if item.get_closest_marker("early")}
    items.sort(key=lambda item: (item.path not in early, -counts[item.path]))
