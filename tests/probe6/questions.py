"""Imports every probe6 question module, so that `QUESTIONS` (the registry's) holds the whole set."""

from tests.probe6 import ask_clinic, ask_dining, ask_econ, ask_series  # noqa: F401
from tests.probe6.registry import QUESTIONS

__all__ = ["QUESTIONS"]
