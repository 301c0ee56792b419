"""The offline planner: the plan of a task from its reading and the data profile, each stage bound to a skill
template (`plan.py`; open tasks `open.py`, "what drives X" `drivers.py`, templates `methods.py` + `binding.py`,
markdown plans `markdown.py`)."""
