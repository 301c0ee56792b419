"""Reading run records tolerantly: `read_model` keeps every field that holds what the writer would have
written and leaves the others at their defaults, naming each in `problems`, so a partial or hand-broken
run.json, plan.json or result.json still shows what it can. The records themselves are in `schema.py`.
"""

from __future__ import annotations

import json
import types
from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError

M = TypeVar("M", bound=BaseModel)


def read_model(model: type[M], data: Any, problems: list[str] | None = None, where: str = "") -> M | None:
    """`data` as `model`, field by field: a value the writer could have written is kept (records inside
    lists and mappings one by one), anything else is left at its default and named in `problems`. None when
    `data` is not an object or lacks a required field."""
    notes = problems if problems is not None else []
    if not isinstance(data, Mapping):
        return None
    kept: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if name not in data:
            continue
        value = _read_value(field.annotation, data[name], notes, f"{where}{name}")
        if value is not _INVALID:
            kept[name] = value
    try:
        return model.model_validate(kept)
    except ValidationError as exc:
        missing = sorted({str(error["loc"][0]) for error in exc.errors() if error["loc"]})
        notes.append(f"{where.rstrip('.') or model.__name__} lacks {', '.join(missing)}: ignored")
        return None


def read_records(model: type[M], values: Any, problems: list[str] | None = None, where: str = "") -> list[M]:
    """Each item of the list `values` that reads as `model` (see `read_model`); the others are skipped."""
    items = values if isinstance(values, list) else []
    read = (read_model(model, item, problems, f"{where}[{i}].") for i, item in enumerate(items))
    return [record for record in read if record is not None]


_INVALID = object()


def _read_value(annotation: Any, value: Any, problems: list[str], where: str) -> Any:
    record = _record_type(annotation)
    origin = get_origin(annotation)
    if record is not None and isinstance(value, Mapping):
        read = read_model(record, value, problems, f"{where}.")
        return _INVALID if read is None else read
    if origin is list and _record_type(get_args(annotation)[0]) is not None and isinstance(value, list):
        item_type = get_args(annotation)[0]
        items = [_read_value(item_type, item, problems, f"{where}[{i}]") for i, item in enumerate(value)]
        return [item for item in items if item is not _INVALID]
    if origin is dict and _record_type(get_args(annotation)[1]) is not None and isinstance(value, Mapping):
        item_type = get_args(annotation)[1]
        entries = {str(k): _read_value(item_type, v, problems, f"{where}.{k}") for k, v in value.items()}
        return {k: v for k, v in entries.items() if v is not _INVALID}
    try:
        # Strict JSON-mode validation: what json.loads gives for a value the writer wrote, nothing coerced
        # ("yes" is no bool, "2" no int), while enums still read from their values.
        return _adapter(annotation).validate_json(json.dumps(value), strict=True)
    except (ValidationError, TypeError, ValueError):
        problems.append(f"{where} is not valid: ignored")
        return _INVALID


def _record_type(annotation: Any) -> type[BaseModel] | None:
    """The record type of `annotation` (a model, or an optional model), else None."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) in (Union, types.UnionType):
        records = [arg for arg in get_args(annotation) if isinstance(arg, type) and issubclass(arg, BaseModel)]
        return records[0] if len(records) == 1 else None
    return None


@cache
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)
