"""Test-only helpers the wheel does not ship: the fault-injecting chat server, the adversarial parser inputs, and
the prompt values a child `agentic-ds` shares with a test's offline brain. Tests and bench scripts import them as
`tests.support.X` (the repository root is on the path of both)."""
