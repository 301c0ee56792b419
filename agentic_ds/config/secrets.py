"""Secrets kept out of what is shown or recorded: `config show`'s document and the settings a run records.

A value under a secret-looking key (`api_key`, `password`, `auth_token`...) is masked, and so is any
occurrence of a secret-looking environment variable's value anywhere (a key pasted into `extra`).
`restore` takes a recorded document back: each masked value comes from the current configuration.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

MASK = "********"
# `token` only as a whole word part (auth_token), never `max_tokens`: counts are not secrets.
_SECRET_KEY = re.compile(r"(api_?key|secret|password|passwd|credential|authorization|(^|_)token$)", re.IGNORECASE)
_SECRET_ENV = re.compile(r"(_KEY$|TOKEN|SECRET|PASSWORD)", re.IGNORECASE)


def secret_values(env: Mapping[str, str]) -> list[str]:
    """Values of environment variables that look like secrets (`*_KEY`, `*TOKEN*`...), longest first."""
    values = {value for name, value in env.items() if _SECRET_ENV.search(name) and len(value) >= 4}
    return sorted(values, key=len, reverse=True)


def mask_secrets(data: Any, secrets: list[str]) -> Any:
    """Mask values under secret-looking keys (not `*_env`, which only names a variable) and any
    occurrence of a known secret value anywhere."""
    if isinstance(data, dict):
        masked = {}
        for key, value in data.items():
            secret_key = _SECRET_KEY.search(str(key)) and not str(key).endswith("_env")
            masked[key] = MASK if secret_key and value not in (None, "", {}, []) else mask_secrets(value, secrets)
        return masked
    if isinstance(data, list):
        return [mask_secrets(item, secrets) for item in data]
    if isinstance(data, str):
        for secret in secrets:
            data = data.replace(secret, MASK)
        return data
    return data


def settings_record(settings: Any) -> dict[str, Any]:
    """The effective settings as run.json records them: JSON, every secret masked."""
    from agentic_ds.config.models import credential_env

    return mask_secrets(settings.model_dump(mode="json"), secret_values({**credential_env(), **os.environ}))


def restore(recorded: Any, current: Any) -> Any:
    """`recorded` with each value that holds a mask taken from `current` (the same place in today's settings)."""
    if isinstance(recorded, dict):
        here = current if isinstance(current, dict) else {}
        return {key: restore(value, here.get(key)) for key, value in recorded.items()}
    if isinstance(recorded, str) and MASK in recorded:
        return current
    return recorded
