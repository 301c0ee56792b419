"""Follow-up questions on a finished run: their folders and records, memory, and how each is answered."""
