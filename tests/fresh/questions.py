"""Imports every fresh question module, so that `QUESTIONS` (the registry's) holds the whole set."""

from tests.fresh import ask_bio, ask_econ, ask_people, ask_series  # noqa: F401
from tests.fresh.registry import QUESTIONS

__all__ = ["QUESTIONS"]
