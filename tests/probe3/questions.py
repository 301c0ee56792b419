"""Imports every probe3 question module, so that `QUESTIONS` (the registry's) holds the whole set."""

from tests.probe3 import ask_body, ask_civic, ask_earth, ask_money  # noqa: F401
from tests.probe3.registry import QUESTIONS

__all__ = ["QUESTIONS"]
