"""The one error the profiler raises for a file it cannot read."""


class UnreadableFile(Exception):
    """The file cannot be profiled; the message says why and what the user can do."""
