"""Which input files answer a question: the file holding what is measured, plus the files joined onto it.

In a folder of many files the question names columns ("list_price", "segment") and nouns ("orders",
"customers"); the file whose columns and name match best is the primary one. A column the question needs
from another file is brought in by a join on a key both files share (a column that identifies the other
file's rows, such as `customer_id`). The answer says which files were used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from agentic_ds.offline.profile import find_column, is_unique_key, text_encoding
from agentic_ds.offline.reader.mentions import words
from agentic_ds.profiling.model import FileProfile

NAMED_FILE = 100         # a file the task names by its name is the one it is about
_KEY_NAME = re.compile(r"(^|_)(id|key|code|no|number)$|^id_|id$", re.I)


@dataclass(frozen=True)
class Join:
    path: str
    key: str
    encoding: str = ""      # the joined file's codec for pandas ("" for UTF-8)

    def as_param(self) -> dict[str, str]:
        param = {"path": self.path, "on": self.key}
        return param | {"encoding": self.encoding} if self.encoding else param


def file_nouns(data: FileProfile) -> set[str]:
    """The words of a file's name, singular: `inputs/shop/orders.csv` -> {"order"}."""
    return set(words(PurePosixPath(data.path).stem))


def file_name(path: str) -> str:
    """How a question writes a file's name: `inputs/parts/part_0003.csv` -> "part_0003.csv"."""
    return PurePosixPath(path).name.lower()


def choose_sources(files: Sequence[FileProfile], targets: Sequence[str], others: Sequence[str],
                   task_words: Iterable[str], counted_noun: str = "", named: frozenset[str] = frozenset()
                   ) -> tuple[FileProfile, list[Join], str]:
    """(primary, joins, problem): the primary file (the one the task names, then most of `targets`, then of
    `others`, then its nouns in the task) and the joins it needs. `named`: the file names the task writes,
    lower-cased ("orders.csv")."""
    said = set(task_words)
    targets = [t for t in dict.fromkeys(targets) if any(find_column(f, t) for f in files)]
    others = [o for o in dict.fromkeys(others) if any(find_column(f, o) for f in files) and o not in targets]

    def score(data: FileProfile) -> tuple[float, int, str]:
        names = {c.name for c in data.columns}
        value = 3 * sum(t in names for t in targets) + sum(o in names for o in others)
        value += 2 * len(file_nouns(data) & said) + (5 if counted_noun and counted_noun in file_nouns(data) else 0)
        value += NAMED_FILE * (file_name(data.path) in named)
        return (-value, -(data.rows or 0), data.path)

    primary = min(files, key=score)
    joins: list[Join] = []
    have = {c.name for c in primary.columns}
    for needed in [*targets, *others]:
        if needed in have:
            continue
        join = _join_for(primary, needed, files, joins)
        if join is None:
            holders = ", ".join(f.path for f in files if find_column(f, needed))
            return primary, joins, f"`{needed}` is in {holders}, which shares no key column with {primary.path}"
        joins.append(join)
        have |= {c.name for f in files if f.path == join.path for c in f.columns}
    return primary, joins, ""


def _join_for(primary: FileProfile, needed: str, files: Sequence[FileProfile], joins: list[Join]) -> Join | None:
    """A file holding `needed` and a key shared with the primary file that identifies that file's rows."""
    for other in sorted((f for f in files if f is not primary and find_column(f, needed)), key=lambda f: f.path):
        key = "" if any(j.path == other.path for j in joins) else join_key(primary, other)
        if key:
            return Join(other.path, key, text_encoding(other))
    return None


def join_key(left: FileProfile, right: FileProfile) -> str:
    """A column both files have that is unique in `right` (an id-like name preferred); "" when none."""
    names = {c.name for c in left.columns}
    shared = sorted((c for c in right.columns if c.name in names), key=lambda c: (not _KEY_NAME.search(c.name), c.name))
    return next((c.name for c in shared if is_unique_key(right, c) or c.kind == "id" and _KEY_NAME.search(c.name)), "")
