"""Imports every probe question module, so that `QUESTIONS` (the registry's) holds the whole set."""

from tests.probe import ask_econ, ask_nature, ask_people, ask_series  # noqa: F401
from tests.probe.registry import QUESTIONS

__all__ = ["QUESTIONS"]
