"""`agentic-ds config show`: the effective configuration as YAML, secrets masked, models resolved."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from agentic_ds.config.secrets import MASK, mask_secrets, secret_values

__all__ = ["MASK", "config_document", "mask_secrets", "render_yaml", "secret_values"]


def config_document(
    config: str | None, model_flags: tuple[str, ...], workdir: str | None = None
) -> tuple[dict[str, Any], str | None]:
    """The document `config show` prints, and the model error (if the models cannot run)."""
    from agentic_ds.config.models import credential_env, model_overrides, parse_model_flags, resolve_models
    from agentic_ds.config.settings import DEFAULT_CONFIG_FILE, load_settings
    from agentic_ds.errors import ConfigError

    config_path = Path(config) if config else None
    settings = load_settings(
        config_path, {"models": model_overrides(parse_model_flags(model_flags)), "workdir": workdir}
    )
    used = config_path or (Path(DEFAULT_CONFIG_FILE) if Path(DEFAULT_CONFIG_FILE).is_file() else None)
    env = credential_env()
    dotenv_only = {name for name in env if not os.environ.get(name)}
    from agentic_ds.config.providers import CREDENTIAL_ENV_VARS

    document: dict[str, Any] = {
        "config_file": str(used) if used else None,
        "settings": settings.model_dump(mode="json"),
    }
    error: str | None = None
    try:
        models = resolve_models(settings)
        document["models"] = {
            role: {
                "model": choice.spec,
                "via": choice.kind,
                "chosen": "automatically" if choice.automatic else "configured",
            }
            for role, choice in models.choices.items()
        }
        document["models_reason"] = models.reason
    except ConfigError as exc:
        error = exc.message + (f" ({exc.hint})" if exc.hint else "")
        document["models"] = f"error: {error}"
    document = mask_secrets(document, secret_values({**env, **os.environ}))
    document["credentials"] = {
        name: f"{MASK} (from {'.env' if name in dotenv_only else 'environment'})"
        for name in CREDENTIAL_ENV_VARS
        if env.get(name)
    } or "none found"
    return document, error


def render_yaml(document: dict[str, Any]) -> str:
    import yaml

    header = "# effective configuration: defaults < agentic-ds.yaml (or --config) < environment and ./.env < flags\n"
    return header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
