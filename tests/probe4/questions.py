"""Imports every probe4 question module, so that `QUESTIONS` (the registry's) holds the whole set."""

from tests.probe4 import ask_lab, ask_money, ask_society, ask_time  # noqa: F401
from tests.probe4.registry import QUESTIONS

__all__ = ["QUESTIONS"]
