"""Imports every fresh question module so that registry.QUESTIONS holds the whole set."""

from tests.fresh import ask_bio, ask_econ, ask_people, ask_series  # noqa: F401
