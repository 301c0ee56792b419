"""`ResolvedTelemetry`: ADK's telemetry configuration with its answers computed once per run.

ADK asks its `TelemetryConfig` what to record several times per model call, and once more for every
message of the request (whether to put the message's content on a log record). Each answer walks two or
three properties and pydantic's private-attribute lookup, about 4 µs, so on a long prompt the questions
cost more than the records. The configuration is frozen and reads the environment once, at construction,
so its answers cannot change: they are cached on first use. Equality and hashing stay those of the
configured fields.
"""

from __future__ import annotations

from functools import cached_property

from google.adk.telemetry import TelemetryConfig


class ResolvedTelemetry(TelemetryConfig):
    """A `TelemetryConfig` (same fields, same answers) whose answers are computed once."""

    resolved_content_capturing_mode = cached_property(TelemetryConfig.resolved_content_capturing_mode.fget)
    should_add_content_to_logs = cached_property(TelemetryConfig.should_add_content_to_logs.fget)
    should_add_content_to_experimental_spans = cached_property(
        TelemetryConfig.should_add_content_to_experimental_spans.fget
    )
    should_add_content_to_legacy_spans = cached_property(TelemetryConfig.should_add_content_to_legacy_spans.fget)
    should_use_experimental_genai_semconv = cached_property(
        TelemetryConfig.should_use_experimental_genai_semconv.fget
    )
    should_emit_experimental_telemetry = cached_property(TelemetryConfig.should_emit_experimental_telemetry.fget)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TelemetryConfig):
            return NotImplemented
        return _fields(self) == _fields(other)

    def __hash__(self) -> int:
        return hash((TelemetryConfig, _fields(self)))


def _fields(config: TelemetryConfig) -> tuple:
    return tuple(getattr(config, name) for name in TelemetryConfig.model_fields)
