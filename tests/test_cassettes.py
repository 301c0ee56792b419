"""Every cassette under tests/cassettes replays to the status and exit code it recorded: one test per cassette,
`test_cassette_<name>` (`pytest -k cassette` selects them all).

A cassette is a run recorded through the relay (docs/capable-models.md): the model's side of it, the command, the
config and the inputs. Its replay runs the same command through the product's real LiteLLM path against a server
answering from the cassette, so a change to the product that alters how such a run ends fails here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from agentic_ds.testing.cassette import cassette_folders, read_meta
from agentic_ds.testing.relay_cli import NOTE_TODO
from agentic_ds.testing.replay import assert_replays

CASSETTES = cassette_folders(Path(__file__).resolve().parent / "cassettes")

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


def replays(cassette: Path) -> Callable[[Path], None]:
    def test(tmp_path: Path) -> None:
        meta = read_meta(cassette)
        assert meta.get("note") and meta["note"] != NOTE_TODO, f"{cassette}/meta.json: write what a reviewer concludes"
        assert_replays(cassette, tmp_path)

    test.__doc__ = f"{cassette.name} replays to the status and exit code in its meta.json."
    return test


for _folder in CASSETTES:
    globals()[f"test_cassette_{re.sub(r'[^0-9a-zA-Z]+', '_', _folder.name)}"] = replays(_folder)
