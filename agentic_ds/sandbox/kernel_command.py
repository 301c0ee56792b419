"""The command line that starts a sandboxed kernel, and how to recognise that process among bubblewrap's.

It does what `python -m ipykernel_launcher` does (the working directory off `sys.path` while ipykernel loads, then
`IPKernelApp.instance()`, `initialize()`, `start()`), with one difference: `debugpy` is kept out while the kernel
starts. ipykernel imports its debugger whenever debugpy is installed, and that import is a quarter of a kernel's
start (0.23 -> 0.17 CPU-s, and a run starts at least one kernel). Nothing here sends a kernel a debug request, so
the kernel says it has no debugger; `debugpy` is importable again before any cell runs.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from agentic_ds.sandbox.bwrap import kernel_python

KERNEL_ARGS = ("--HistoryManager.enabled=False",)
KERNEL_BOOT = "\n".join((
    "import sys",
    "if sys.path[0] == '':",
    "    del sys.path[0]",
    "sys.modules['debugpy'] = None",
    "from ipykernel.kernelapp import IPKernelApp",
    "app = IPKernelApp.instance()",
    "app.initialize()",
    "del sys.modules['debugpy']",
    "app.start()",
))


def kernel_command(connection_file: str) -> list[str]:
    return [kernel_python(), "-c", KERNEL_BOOT, "-f", os.path.realpath(connection_file), *KERNEL_ARGS]


def is_kernel_command(cmdline: Sequence[str]) -> bool:
    return list(cmdline[:3]) == [kernel_python(), "-c", KERNEL_BOOT]
