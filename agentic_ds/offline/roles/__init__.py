"""The offline model's answer for each agent role, from the typed values of its prompt and its own tool history."""
