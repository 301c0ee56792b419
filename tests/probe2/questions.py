"""Imports every probe2 question module, so that `QUESTIONS` (the registry's) holds the whole set."""

from tests.probe2 import ask_econ, ask_nature, ask_people, ask_series  # noqa: F401
from tests.probe2.registry import QUESTIONS

__all__ = ["QUESTIONS"]
