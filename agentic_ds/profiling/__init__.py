"""DuckDB file profiling (larger-than-memory safe) and its compact rendering for prompts."""

from agentic_ds.profiling.errors import UnreadableFile
from agentic_ds.profiling.inputs import profile_inputs
from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile
from agentic_ds.profiling.profiler import ProfilerSettings, profile_file
from agentic_ds.profiling.render import render_profile
from agentic_ds.profiling.sniff import Sniffed, sniff_file

__all__ = [
    "ColumnProfile",
    "DataProfile",
    "FileProfile",
    "ProfilerSettings",
    "Sniffed",
    "UnreadableFile",
    "profile_file",
    "profile_inputs",
    "render_profile",
    "sniff_file",
]
