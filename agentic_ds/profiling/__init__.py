"""DuckDB file profiling (larger-than-memory safe) and its compact rendering for prompts."""

from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile
from agentic_ds.profiling.profiler import ProfilerSettings, profile_file, profile_inputs
from agentic_ds.profiling.render import render_profile

__all__ = [
    "ColumnProfile",
    "DataProfile",
    "FileProfile",
    "ProfilerSettings",
    "profile_file",
    "profile_inputs",
    "render_profile",
]
