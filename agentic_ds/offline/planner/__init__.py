"""The offline planner: the plan of a task from its reading and the data profile, each stage bound to a skill
template (`plan.py`; open tasks and "what drives X" `open.py`, templates and their params `methods.py`,
markdown plans `markdown.py`)."""
