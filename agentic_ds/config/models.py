"""Model routing by role: model strings -> validated choices -> ADK `BaseLlm` objects.

Model strings:
  `provider/model`      through LiteLLM (ADK's `LiteLlm`), e.g. `openai/gpt-4.1`, `ollama_chat/llama3`
  `gemini-*`            through ADK's native `Gemini`
  `claude-code[:MODEL]` the Claude Agent SDK coder (coder role only; the workflow builds it)
  `offline`             the built-in deterministic offline model

A role left empty uses `models.default`; with `default` empty too, the model is chosen from the
credentials found (process environment, then `./.env`), and `offline` when there are none.
Nothing here imports litellm, google-genai or the Claude SDK at module level.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlparse

from agentic_ds.config.providers import (
    AUTO_DEFAULTS,
    CLAUDE_CODE_CREDENTIALS,
    CREDENTIAL_ENV_VARS,
    GEMINI_NATIVE_CREDENTIALS,
    LITELLM_PROVIDERS,
    PROVIDER_CREDENTIALS,
)
from agentic_ds.config.settings import FOLLOWS, ROLES, Settings
from agentic_ds.errors import ConfigError, UsageError

if TYPE_CHECKING:
    from google.adk.models import BaseLlm

ModelKind = Literal["litellm", "gemini", "claude-code", "offline"]

MODEL_FORMS = "provider/model (e.g. openai/gpt-4.1), gemini-*, claude-code[:MODEL] or offline"
NO_KEY_REASON = (
    "no API key found: set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or OPENROUTER_API_KEY, or pass --model"
)
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0", "host.docker.internal"}


@dataclass(frozen=True)
class ModelChoice:
    """The model one role runs on. `automatic` is true when no setting named it."""

    role: str
    spec: str
    kind: ModelKind
    automatic: bool = False


@dataclass(frozen=True)
class RoleModels:
    """A model choice for every role, and why these models were chosen."""

    choices: dict[str, ModelChoice]
    reason: str

    def spec(self, role: str) -> str:
        return self.choices[role].spec

    def describe(self) -> str:
        """`offline for every role (no API key found: ...)`: the CLI's first output line, after `models: `."""
        by_spec: dict[str, list[str]] = {}
        for role in ROLES:
            by_spec.setdefault(self.choices[role].spec, []).append(role)
        if len(by_spec) == 1:
            assignments = f"{next(iter(by_spec))} for every role"
        else:
            assignments = "; ".join(f"{spec} for {', '.join(roles)}" for spec, roles in by_spec.items())
        return f"{assignments} ({self.reason})"


def model_kind(spec: str) -> ModelKind:
    """Classify a model string, or raise `ConfigError` saying which forms are understood."""
    value = spec.strip()
    if value == "offline":
        return "offline"
    if value == "claude-code" or (value.startswith("claude-code:") and len(value) > len("claude-code:")):
        return "claude-code"
    if value.startswith("gemini-") and "/" not in value:
        return "gemini"
    provider, slash, model = value.partition("/")
    if slash and model.strip():
        if provider in LITELLM_PROVIDERS:
            return "litellm"
        raise ConfigError(
            f"unknown model provider '{provider}' in '{spec}'",
            hint=f"use a LiteLLM provider prefix such as openai/, anthropic/, ollama_chat/; model strings are "
                 f"{MODEL_FORMS}",
        )
    raise ConfigError(f"unknown model string '{spec}'", hint=f"model strings are {MODEL_FORMS}")


def parse_model_flags(values: list[str] | tuple[str, ...]) -> dict[str, str]:
    """`["openai/gpt-4.1", "coder=claude-code"]` -> `{"default": "openai/gpt-4.1", "coder": "claude-code"}`."""
    parsed: dict[str, str] = {}
    for raw in values:
        value = raw.strip()
        role, eq, spec = value.partition("=")
        if eq and "/" not in role and ":" not in role:
            role = role.strip().lower()
            if role != "default" and role not in ROLES:
                raise UsageError(
                    f"unknown role '{role}' in --model {raw}",
                    hint=f"roles are {', '.join(ROLES)} (or give a model alone for every role)",
                )
        else:
            role, spec = "default", value
        spec = spec.strip()
        if not spec:
            raise UsageError(f"--model {raw!r} names no model", hint=f"model strings are {MODEL_FORMS}")
        model_kind(spec)
        parsed[role] = spec
    return parsed


def model_overrides(flags: Mapping[str, str]) -> dict[str, str]:
    """Settings overrides for `--model` flags: a model given alone sets every role, beating role settings
    from the config file; `ROLE=MODEL` then sets that role."""
    overrides = dict(flags)
    if "default" in flags:
        for role in ROLES:
            overrides.setdefault(role, flags["default"])
    return overrides


def credential_env(env: Mapping[str, str] | None = None, dotenv_path: Path = Path(".env")) -> dict[str, str]:
    """The environment the credential check sees: `env` (the process environment by default) over the
    provider credentials found in `./.env`. Empty values count as unset."""
    merged = _dotenv_credentials(dotenv_path)
    merged.update({k: v for k, v in (os.environ if env is None else env).items() if v})
    return merged


def export_dotenv_credentials(dotenv_path: Path = Path(".env")) -> list[str]:
    """Copy provider credentials found only in `./.env` into the process environment, so the model
    clients see them too (ADK sets LITELLM_MODE=PRODUCTION, which stops litellm reading `.env` itself).
    Never overrides a variable already set. Returns the names exported."""
    exported = []
    for name, value in _dotenv_credentials(dotenv_path).items():
        if not os.environ.get(name):
            os.environ[name] = value
            exported.append(name)
    return exported


def _dotenv_credentials(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    from dotenv import dotenv_values

    values = dotenv_values(path)
    return {k: v for k, v in values.items() if v and (k in CREDENTIAL_ENV_VARS or k.endswith("_API_KEY"))}


def resolve_models(settings: Settings, env: Mapping[str, str] | None = None) -> RoleModels:
    """Choose, validate and credential-check the model of every role.

    `env` defaults to the process environment merged over the provider keys in `./.env`.
    Raises `ConfigError` for an unknown model string, `claude-code` outside the coder role, or a
    model chosen explicitly whose provider credential is not set.
    """
    env = credential_env() if env is None else {k: v for k, v in env.items() if v}
    auto = _automatic_default(env)
    choices: dict[str, ModelChoice] = {}
    for role in ROLES:
        configured = getattr(settings.models, role) or getattr(settings.models, FOLLOWS.get(role, role)) \
            or settings.models.default
        if configured:
            spec = configured.strip()
            choices[role] = ModelChoice(role, spec, model_kind(spec))
        else:
            spec = auto[0] if role != "compactor" else auto[1]
            choices[role] = ModelChoice(role, spec, model_kind(spec), automatic=True)
    for choice in choices.values():
        if choice.kind == "claude-code" and choice.role != "coder":
            raise ConfigError(
                f"claude-code can only be the coder, not the {choice.role}",
                hint="use --model coder=claude-code, and a chat model (or offline) for the other roles",
            )
        if not choice.automatic:
            _check_credentials(choice, settings, env)
    return RoleModels(choices=choices, reason=_reason(choices, auto[2]))


def _automatic_default(env: Mapping[str, str]) -> tuple[str, str, str]:
    """(main model, cheap model, why) from the first provider key present; offline without one."""
    for default in AUTO_DEFAULTS:
        found = [name for name in default.env_vars if env.get(name)]
        if found:
            return default.main, default.cheap, f"chosen automatically because {found[0]} is set"
    return "offline", "offline", NO_KEY_REASON


def _reason(choices: dict[str, ModelChoice], auto_reason: str) -> str:
    configured = [role for role in ROLES if not choices[role].automatic]
    if len(configured) == len(ROLES):
        return "as configured"
    if not configured:
        return auto_reason
    return f"{', '.join(configured)} as configured; other roles {auto_reason}"


def _check_credentials(choice: ModelChoice, settings: Settings, env: Mapping[str, str]) -> None:
    options = settings.model_options.get(choice.spec)
    needed: tuple[str, ...]
    if options and options.api_key_env:
        if not env.get(options.api_key_env):
            raise _missing(choice, (options.api_key_env,), "model_options.api_key_env names it")
        return
    if options and options.api_base and _is_local(options.api_base):
        return
    if choice.kind == "gemini":
        if env.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in {"1", "true", "yes"}:
            return
        needed = GEMINI_NATIVE_CREDENTIALS
    elif choice.kind == "claude-code":
        # A Claude Code login is stored under ~/.claude (or the macOS keychain); accept it when present.
        if (Path(env.get("HOME") or Path.home()) / ".claude").exists():
            return
        needed = CLAUDE_CODE_CREDENTIALS[:2]
    elif choice.kind == "litellm":
        needed = PROVIDER_CREDENTIALS.get(choice.spec.split("/", 1)[0], ())
    else:
        return
    if needed and not any(env.get(name) for name in needed):
        raise _missing(choice, needed, None)


def _missing(choice: ModelChoice, names: tuple[str, ...], why: str | None) -> ConfigError:
    wanted = " or ".join(names)
    return ConfigError(
        f"{choice.spec} (for the {choice.role}) needs {wanted}, which is not set" + (f" ({why})" if why else ""),
        hint=f"export {names[0]}=... or put it in ./.env, or choose another model with --model (e.g. --model offline)",
    )


def _is_local(api_base: str) -> bool:
    host = urlparse(api_base if "://" in api_base else f"http://{api_base}").hostname or ""
    return host in _LOCAL_HOSTS or host.endswith(".local")


def litellm_kwargs(spec: str, settings: Settings, env: Mapping[str, str] | None = None) -> dict[str, object]:
    """Keyword arguments for `LiteLlm(model=spec, ...)`: prompt-cache markers for Claude models
    (`context.cache_markers`), then `settings.model_options[spec]` (whose `extra` may replace them)."""
    from agentic_ds.context.cache_markers import cache_marker_kwargs

    env = os.environ if env is None else env
    kwargs: dict[str, object] = cache_marker_kwargs(spec)
    options = settings.model_options.get(spec)
    if options is None:
        return kwargs
    kwargs.update(options.extra)
    if options.api_base:
        kwargs["api_base"] = options.api_base
    if options.api_key_env and env.get(options.api_key_env):
        kwargs["api_key"] = env[options.api_key_env]
    elif options.api_base and _is_local(options.api_base):
        provider_vars = PROVIDER_CREDENTIALS.get(spec.split("/", 1)[0], ())
        if not any(env.get(name) for name in provider_vars):
            # OpenAI-compatible local servers ignore the key, but litellm refuses to send a request without one.
            kwargs["api_key"] = "not-needed"
    return kwargs


def build_llm(choice: ModelChoice, settings: Settings) -> BaseLlm:
    """The ADK model object for a chat-model role. Imports the provider library only now."""
    if choice.kind == "offline":
        from agentic_ds.offline import OfflineLlm

        return OfflineLlm()
    if choice.kind == "gemini":
        from google.adk.models.google_llm import Gemini

        return Gemini(model=choice.spec)
    if choice.kind == "litellm":
        from google.adk.models.lite_llm import LiteLlm

        return LiteLlm(model=choice.spec, **litellm_kwargs(choice.spec, settings))
    raise ValueError(f"{choice.spec} is an agent, not a chat model: the workflow builds the Claude coder itself")
