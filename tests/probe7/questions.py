"""Imports every probe7 question module, so that `QUESTIONS` (the registry's) holds the whole set."""

from tests.probe7 import ask_health, ask_macro, ask_time, ask_venue  # noqa: F401
from tests.probe7.registry import QUESTIONS

__all__ = ["QUESTIONS"]
