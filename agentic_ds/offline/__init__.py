"""The deterministic offline model: a `BaseLlm` that answers every agent role with no API key.

`OfflineLlm` is imported lazily so the pure modules (intent, columns, plans) load without ADK.
"""

from typing import Any

__all__ = ["OfflineLlm"]


def __getattr__(name: str) -> Any:
    if name == "OfflineLlm":
        from agentic_ds.offline.model import OfflineLlm

        return OfflineLlm
    raise AttributeError(name)
