"""Imports every probe5 question module, so that `QUESTIONS` (the registry's) holds the whole set."""

from tests.probe5 import ask_bio, ask_econ, ask_shop, ask_time  # noqa: F401
from tests.probe5.registry import QUESTIONS

__all__ = ["QUESTIONS"]
