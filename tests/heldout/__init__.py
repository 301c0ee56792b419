"""A held-out evaluation set for agentic-ds: closed-form questions on public tables (see README.md)."""
