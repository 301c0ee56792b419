"""`python -m agentic_ds` is the `agentic-ds` command."""

from agentic_ds.cli.main import main

if __name__ == "__main__":
    main()
