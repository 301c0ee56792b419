"""The offline model's reader: a task read once, against the data profile, into what to compute.

`read_question(task, profile)` is the one entry: a `Reading` that is direct (a `QuestionSpec` of asks, filters,
derived columns, joins, rounding and answer slots, read with confidence), open (analysis goals), or unread (with
what could not be read). Every word list it uses is in `vocabulary.py`.
"""

from agentic_ds.offline.reader.reading import ReadAsk, Reading, read_question
from agentic_ds.offline.reader.spec import QuestionSpec, describe_ask

__all__ = ["QuestionSpec", "ReadAsk", "Reading", "describe_ask", "read_question"]
