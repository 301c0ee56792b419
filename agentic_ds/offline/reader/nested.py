"""A statistic of group statistics: "each firm's mean invest ... then the median of those firm means".

Two asks are read first: the per-group one ("the mean of invest per firm") and the outer one ("the median"). When
the outer statistic is said of the inner one's results ("of those firm means", "of these per-group medians"),
they are one ask: the outer statistic over the groups' values, `params["of"]` the inner statistic and
`params["over"]` the groups. An arg-max said that way ("which department has the highest of these means") is the
arg-max already read, so its words are only consumed; so is a plural that names a per-group ask's own statistic
("salary means by level"). Results named with no per-group ask to give them ("the mean of the department means")
are returned, and a plural statistic left unread is a doubt word: the question is not read with confidence.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_ds.offline.reader.asks import Ask
from agentic_ds.offline.reader.mentions import Token
from agentic_ds.offline.reader.vocabulary import GROUP_RESULTS

POINTERS = frozenset({"those", "these", "the"})
POINTER_REACH = 3        # words from the pointer to the plural statistic: "those per - group means"
OUTER_REACH = 5          # tokens from the outer statistic's word to its "of": "spread ( sample standard deviation ) of"


def of_group_statistics(asks: list[Ask], tokens: Sequence[Token], used: set[int]) -> tuple[list[Ask], list[str]]:
    """`asks` with each outer statistic said of a per-group ask's results merged with it (the inner ask dropped),
    and the words of such results no per-group ask gives."""
    unread: list[str] = []
    for end, token in enumerate(tokens):
        inner_stat = GROUP_RESULTS.get(token.low)
        if inner_stat is None:
            continue
        pointer = next((k for k in range(end - 1, max(0, end - 1 - POINTER_REACH), -1) if tokens[k].low in POINTERS),
                       None)
        if pointer is None or pointer < 1 or tokens[pointer - 1].low != "of":
            if any(a.group and a.stat == inner_stat for a in asks):     # "salary means by level": that statistic
                used.add(end)
            continue
        of = pointer - 1
        outer = max((a for a in asks if 0 < of - a.position <= OUTER_REACH and a.stat not in ("count", "percent_rows")
                     and not a.second and "of" not in a.params), key=lambda a: a.position, default=None)  # nearest
        inner = next((a for a in asks if a.group and a.stat == inner_stat and a is not outer and not a.extreme
                      and not a.second), None)
        if outer is None or inner is None or not inner.column:
            unread.append(" ".join(t.text for t in tokens[of:end + 1]))
            continue
        used.update(range(of, end + 1))
        if outer.extreme and outer.group == inner.group:       # "which department has the highest of these means"
            continue
        outer.column, outer.group, outer.extreme = inner.column, "", ""
        outer.params.update({"of": inner.stat, "over": inner.group})
        outer.params.pop("levels", None)
        asks = [a for a in asks if a is not inner]
    return asks, unread
