"""Checks that decide a run's status from evidence, whatever its models claimed (see ARCHITECTURE.md)."""
