"""The offline planner: the plan of a task from its reading and the data profile, each stage bound to a skill
template (`plan.py`, with the stages of open tasks and of "what drives X"; templates and their params `methods.py`,
markdown plans `markdown.py`)."""
