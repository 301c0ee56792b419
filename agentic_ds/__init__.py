"""agentic-ds: an agentic data scientist built on Google ADK."""

__version__ = "0.1.0"
