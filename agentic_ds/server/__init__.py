"""`agentic-ds serve`: the runs of a work directory over HTTP.

The server is a view and a dispatcher, never a runner: each run executes in its own `agentic-ds` child process
(`supervisor.py`), so a crash or a kill touches one run only, and the run directories it serves are the ones the
CLI writes (a run started from either shows up in the other). Waiting runs are kept in a queue on disk
(`queue.py`), so they survive a restart. The app is ADK's own FastAPI app (`adk_app.py`) with the run routes
added (`routes.py`, `files.py`, `events.py`), behind a token when it is reachable from other machines (`guard.py`).
"""
