"""The static provider facts the CLI uses (to avoid importing litellm at startup) match the installed litellm."""

from __future__ import annotations

from types import ModuleType

import pytest

from agentic_ds.config.models import model_kind
from agentic_ds.config.providers import AUTO_DEFAULTS, LITELLM_PROVIDERS, PROVIDER_CREDENTIALS


@pytest.fixture(scope="module")
def litellm() -> ModuleType:
    """Imported by these tests, not at collection: litellm takes two CPU-seconds to import in every test worker."""
    import litellm

    return litellm


def test_provider_set_matches_installed_litellm(litellm):
    installed = {str(getattr(p, "value", p)) for p in litellm.provider_list}
    assert LITELLM_PROVIDERS == installed, (
        "litellm's provider list changed: update agentic_ds/config/providers.py "
        f"(missing: {sorted(installed - LITELLM_PROVIDERS)}, gone: {sorted(LITELLM_PROVIDERS - installed)})"
    )


@pytest.mark.parametrize("provider", sorted(PROVIDER_CREDENTIALS))
def test_credential_names_match_what_litellm_asks_for(provider, monkeypatch, litellm):
    for names in PROVIDER_CREDENTIALS.values():
        for name in names:
            monkeypatch.delenv(name, raising=False)
    missing = litellm.validate_environment(model=f"{provider}/some-model")["missing_keys"]
    assert set(missing) == set(PROVIDER_CREDENTIALS[provider])


@pytest.mark.parametrize("default", AUTO_DEFAULTS, ids=lambda d: d.env_vars[0])
def test_automatic_defaults_are_models_litellm_knows(default, litellm):
    for spec in (default.main, default.cheap):
        model_kind(spec)  # a valid model string
        name = spec.split("/", 1)[1] if spec.startswith(("anthropic/", "openai/")) else spec
        if spec.startswith("openrouter/"):
            continue  # openrouter's catalogue is not in litellm's cost map under these names
        assert litellm.get_model_info(name)["max_input_tokens"] > 30_000
