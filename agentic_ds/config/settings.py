"""Settings, layered: defaults < YAML file < environment (incl. `.env` in the cwd) < CLI flags.

Environment variables use the prefix `AGENTIC_DS_` and `__` for nesting, e.g.
`AGENTIC_DS_MODELS__CODER=openai/gpt-4.1` or `AGENTIC_DS_SANDBOX__CELL_TIMEOUT_S=60`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from agentic_ds.errors import ConfigError

ROLES = ("planner", "reviewer", "judge", "coder", "summarizer", "compactor")
FOLLOWS = {"judge": "reviewer"}   # a role left unset uses this role's model
DEFAULT_CONFIG_FILE = "agentic-ds.yaml"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelsConfig(_Section):
    """Model string per role; a role left empty uses `default`; `default` empty means automatic."""

    default: str | None = None
    planner: str | None = None
    reviewer: str | None = None
    judge: str | None = None           # whether an answer addresses the task: the reviewer's model unless set
    coder: str | None = None
    summarizer: str | None = None
    compactor: str | None = None


class PricePerMtok(_Section):
    """USD per million tokens, for a model LiteLLM has no price for: `[input, output]` or `{input, output, cached}`.

    `cached` (prompt tokens read from the provider's cache) left out: they cost as much as other input tokens."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached: float | None = Field(None, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _pair(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            if len(value) != 2:
                raise ValueError("price_per_mtok is [input, output] (USD per million tokens)")
            return {"input": value[0], "output": value[1]}
        return value


class ModelOptions(_Section):
    """Per-model connection options and capabilities, for local OpenAI-compatible servers (Ollama, vLLM, llama.cpp).

    The capability fields left at `auto` are decided per model (agentic_ds.llm.capabilities): native features for
    known hosted providers, the most compatible ones for an `api_base` on a local or unknown host.
    """

    api_base: str | None = None
    api_key_env: str | None = Field(None, description="name of the environment variable holding the key")
    context_window: int | None = None
    structured_output: Literal["auto", "json_schema", "json_object", "text"] = Field(
        "auto", description="how structured answers are asked for: response_format json_schema, json_object + "
        "the schema in the prompt, or plain text + the schema in the prompt (always validated and re-asked)"
    )
    tool_calling: Literal["auto", "native", "text"] = Field(
        "auto", description="native tool calls, or the documented <tool_call> text protocol"
    )
    tool_choice: Literal["auto", "none", "required", "omit"] = Field(
        "omit", description="tool_choice sent with native tools (omit: not sent; some servers need auto)"
    )
    message_content: Literal["auto", "parts", "string"] = Field(
        "auto", description="message content as a list of parts, or one plain string"
    )
    max_output_tokens: int | None = Field(None, ge=16, description="max_tokens sent with every request")
    price_per_mtok: PricePerMtok | None = Field(
        None, description="USD per million tokens [input, output], for a model LiteLLM has no price for"
    )
    extra: dict[str, Any] = Field(default_factory=dict, description="passed to litellm as keyword arguments")


class LoopSettings(_Section):
    plan_iterations: int = Field(3, ge=1, le=20)
    impl_iterations: int = Field(3, ge=1, le=20)
    structured_retries: int = Field(2, ge=0, le=10, description="re-asks of a structured agent after invalid output")
    max_stages: int = Field(12, ge=1, le=100, description="bound on the plan's stages, including added ones")
    max_added_stages: int = Field(4, ge=0, le=50, description="stages the reflector may append in a run")
    parallel_stages: int = Field(
        2, ge=1, le=16, description="stages whose needs are met that run at once (1: one after another)"
    )
    simple_attempts: int = Field(3, ge=1, le=20)
    coder_tool_calls: int = Field(
        24, ge=1, le=500, description="tool calls one coder turn may make before it must answer"
    )


class SandboxSettings(_Section):
    mode: Literal["auto", "require", "off"] = Field(
        "auto", description="auto: bubblewrap when available; require: refuse to run without it; off: rlimits only"
    )
    cell_timeout_s: float = Field(120, gt=0)
    memory_mb: int = Field(4096, ge=256)
    max_processes: int = Field(256, ge=16)
    max_file_mb: int = Field(1024, ge=1)
    cell_cpu_s: float | None = Field(
        None,
        gt=0,
        description="CPU seconds all the sandbox's processes may use per cell (default: twice cell_timeout_s)",
    )
    disk_quota_mb: int = Field(
        4096, ge=1, description="what the code may write in a run (outputs/, figures/, its home)"
    )
    output_cap_chars: int = Field(6000, ge=500, description="what one cell's output may send back to the model")

    @field_validator("mode", mode="before")
    @classmethod
    def _yaml_off(cls, value: Any) -> Any:
        # YAML 1.1 reads a bare `off` as false (and `on` as true): take the word the user wrote.
        return {False: "off", True: "auto"}.get(value, value) if isinstance(value, bool) else value


class ContextSettings(_Section):
    compaction: bool = True
    budget_tokens: int | None = Field(None, ge=1000, description="prompt budget per call; overrides budget_fraction")
    budget_fraction: float = Field(0.5, gt=0, le=1, description="share of the model's context window")
    keep_recent_events: int = Field(6, ge=1)
    loop_repeats: int = Field(3, ge=2, description="repetitions that count as a loop")


class CallSettings(_Section):
    """One policy for every model call, whatever the provider: a timeout, and retries with backoff."""

    timeout_s: float = Field(120, gt=0, le=3600, description="one model call's time limit, per attempt")
    retries: int = Field(5, ge=0, le=20, description="retries of a call after 429, 5xx, timeouts, connection errors")
    backoff_s: float = Field(2.0, ge=0, le=60, description="first backoff; doubles per retry, with jitter")
    max_backoff_s: float = Field(60, ge=0, le=600, description="longest backoff (and longest Retry-After honoured)")
    reply_cap_share: float = Field(
        0.125, gt=0, le=1, description="share of the prompt budget one model reply may fill; longer replies are cut"
    )


class BudgetSettings(_Section):
    max_llm_calls: int = Field(1000, ge=1)
    max_tokens: int | None = Field(None, ge=1)
    max_cost_usd: float | None = Field(None, gt=0)


class Settings(BaseSettings):
    """The effective configuration of one invocation."""

    model_config = SettingsConfigDict(
        env_prefix="AGENTIC_DS_",
        env_nested_delimiter="__",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )

    workdir: Path = Path("workdirs")
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    model_options: dict[str, ModelOptions] = Field(default_factory=dict)
    loops: LoopSettings = Field(default_factory=LoopSettings)
    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)
    context: ContextSettings = Field(default_factory=ContextSettings)
    budgets: BudgetSettings = Field(default_factory=BudgetSettings)
    calls: CallSettings = Field(default_factory=CallSettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # First wins: CLI flags (init) > process env > .env > YAML > defaults.
        return (init_settings, env_settings, dotenv_settings, _YamlSource(settings_cls))


_yaml_data: dict[str, Any] = {}


class _YamlSource(PydanticBaseSettingsSource):
    """Feeds the YAML file already read by `load_settings` into the source chain."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return _yaml_data.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(_yaml_data)


def read_yaml_config(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            f"cannot read config file {path}: {exc.strerror}", hint="check the path given to --config"
        ) from exc
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 1})" if where else ""
        raise ConfigError(
            f"config file {path} is not valid YAML{line}", hint="fix the syntax, or run without it"
        ) from exc
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path} must hold a mapping of settings, not {type(data).__name__}")
    return data


def load_settings(config_file: Path | None = None, overrides: dict[str, Any] | None = None) -> Settings:
    """Build the effective settings. `config_file=None` reads `./agentic-ds.yaml` if it exists."""
    global _yaml_data
    path = config_file
    if path is None and Path(DEFAULT_CONFIG_FILE).is_file():
        path = Path(DEFAULT_CONFIG_FILE)
    if config_file is not None and not config_file.is_file():
        raise ConfigError(f"config file not found: {config_file}", hint="check the path given to --config")
    _yaml_data = read_yaml_config(path) if path else {}
    try:
        return Settings(**_deep_clean(overrides or {}))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        source = f" in {path}" if path else ""
        raise ConfigError(
            f"invalid setting '{where}'{source}: {first['msg']}", hint="see `agentic-ds config show`"
        ) from exc
    finally:
        _yaml_data = {}


def _deep_clean(values: dict[str, Any]) -> dict[str, Any]:
    """Drop None values so an unset CLI flag never overrides a lower layer."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, dict):
            value = _deep_clean(value)
            if not value:
                continue
        if value is not None:
            out[key] = value
    return out
