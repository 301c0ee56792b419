"""Suite-wide rules: no real model can be reached, no credential leaks in from the machine."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # litellm must not fetch its cost map
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")

import pytest

from agentic_ds.testing.guard import block_real_models

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
