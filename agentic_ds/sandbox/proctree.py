"""The descendants of a process, from one pass over /proc: the parent of every process, from its `stat`.

Cheap enough to call every few milliseconds (about 0.5 ms for a hundred processes, where
`psutil.Process.children(recursive=True)` takes 8 ms): the quota guard must stop every process of
the sandbox before they write much more. A process that already ended, or ends while /proc is read,
is left out.
"""

from __future__ import annotations

import os


def descendants(root: int) -> set[int]:
    """Every process below `root` (not `root` itself), by parent process id."""
    children: dict[int, list[int]] = {}
    for pid, parent in _parents():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    pending = [root]
    while pending:
        for child in children.get(pending.pop(), ()):
            if child not in found:
                found.add(child)
                pending.append(child)
    return found


def _parents() -> list[tuple[int, int]]:
    pairs = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                data = stat.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
        fields = data[data.rfind(b")") + 2:].split(b" ", 2)
        if len(fields) >= 2 and fields[1].isdigit():
            pairs.append((int(name), int(fields[1])))
    return pairs
