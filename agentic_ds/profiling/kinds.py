"""The analyst's kind of a column, decided from its DuckDB type and its statistics.

Rules, in order (the offline model plans from them, so they are part of the contract):

1. `BOOLEAN`, or an integer column whose only values are 0 and 1 → **boolean**.
2. `DATE` / `TIMESTAMP*` / `TIME*`, or a text column whose non-null values (in the first rows read)
   all parse as dates → **datetime**.
3. Integer or text column that is unique per row (distinct ≥ 99% of non-null values, or ≥ 90% when
   the distinct count is approximate; text needs at least 20 values to count as unique):
   - integer whose name looks like a key (`id`, `*_id`, `*Id`, `key`, `code`, `*_no`, `*_number`) → **id**;
   - text whose values are single tokens (no spaces) up to 64 characters → **id**;
   - other unique text → **text**; other unique integers → **numeric**.
4. Integer column, or text of single tokens, whose name looks like a key but is not unique (a
   foreign key such as `store_id` or `customer_code`) → **categorical**. Other integers (counts,
   scores, years) stay **numeric**, even with few distinct values; their `top_values` still show
   the levels when there are at most 20.
5. Floating point and decimal → **numeric**.
6. Text with at most 50 distinct values, or at most half as many distinct values as non-null values,
   → **categorical**; other text → **text**.
7. Anything else (lists, structs, blobs, intervals) → **text**.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentic_ds.profiling.model import Kind

INTEGER_TYPES = frozenset(
    {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
)
FLOAT_TYPES = frozenset({"FLOAT", "DOUBLE", "REAL"})
TEXT_TYPES = frozenset({"VARCHAR"})
UNIQUE_SHARE_EXACT = 0.99
UNIQUE_SHARE_APPROX = 0.90
CATEGORICAL_MAX_DISTINCT = 50
ID_TOKEN_MAX_LENGTH = 64
TEXT_ID_MIN_VALUES = 20
_KEY_NAME = re.compile(
    r"(^|[_\s.-])(id|key|code|no|nr|num|number|uuid)$"  # customer_id, store code, order_no
    r"|(?-i:[a-z0-9](Id|ID|Key|Code|No))$"  # customerId, but not "paid" or "casino"
    r"|^(id|key|uuid)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ColumnFacts:
    """What the kind rules look at; gathered by the profiler from its scans."""

    name: str
    dtype: str
    non_null: int
    distinct: int | None
    distinct_approx: bool
    min: object = None
    max: object = None
    date_like: bool = False
    """Text whose sampled non-null values all parse as dates."""
    single_tokens: bool = False
    """Text whose sampled non-null values have no whitespace and are at most 64 characters."""


def is_integer(dtype: str) -> bool:
    return dtype in INTEGER_TYPES


def is_numeric(dtype: str) -> bool:
    return dtype in INTEGER_TYPES or dtype in FLOAT_TYPES or dtype.startswith("DECIMAL")


def is_temporal(dtype: str) -> bool:
    return dtype.startswith(("DATE", "TIMESTAMP", "TIME"))


def is_scalar(dtype: str) -> bool:
    """Types min/max/distinct make sense for (not lists, structs, maps, blobs)."""
    return is_numeric(dtype) or is_temporal(dtype) or dtype in TEXT_TYPES or dtype == "BOOLEAN" or dtype == "UUID"


def looks_like_key(name: str) -> bool:
    return bool(_KEY_NAME.search(name.strip()))


def classify(facts: ColumnFacts) -> Kind:
    """Apply the module's rules to one column."""
    dtype = facts.dtype
    if dtype == "BOOLEAN" or (is_integer(dtype) and facts.min == 0 and facts.max == 1):
        return "boolean"
    if is_temporal(dtype) or (dtype in TEXT_TYPES and facts.date_like):
        return "datetime"
    unique = _unique_per_row(facts)
    if is_integer(dtype):
        if looks_like_key(facts.name):
            return "id" if unique else "categorical"
        return "numeric"
    if dtype == "UUID":
        return "id"
    if is_numeric(dtype):
        return "numeric"
    if dtype in TEXT_TYPES:
        if unique and facts.non_null >= TEXT_ID_MIN_VALUES:
            return "id" if facts.single_tokens else "text"
        if facts.single_tokens and looks_like_key(facts.name):
            return "categorical"
        distinct = facts.distinct or 0
        if distinct <= CATEGORICAL_MAX_DISTINCT or distinct * 2 <= facts.non_null:
            return "categorical"
        return "text"
    return "text"


def _unique_per_row(facts: ColumnFacts) -> bool:
    if facts.distinct is None or facts.non_null < 2:
        return False
    share = UNIQUE_SHARE_APPROX if facts.distinct_approx else UNIQUE_SHARE_EXACT
    return facts.distinct >= share * facts.non_null
