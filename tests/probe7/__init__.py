"""A ninth closed-form question set for agentic-ds, written blind to the tool's question reader (see README.md)."""
