"""Model calls: one retry policy for every provider, per-model capabilities, the text tool protocol."""
