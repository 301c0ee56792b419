"""Reports and run review, all read from a run directory.

- `writer.write_reports(workspace)`: report.md (agent text + appendix) and report.html, atomically.
- `view.load_run_view(root)`: the `RunView` both reports and `agentic-ds show` render.
- `listing.list_runs(root)`, `listing.find_run(ref, root)`: the runs under a work directory.
"""
