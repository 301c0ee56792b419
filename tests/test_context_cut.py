"""Texts cut for a compacted request: the cut says so, and the one who wrote the text still recognises it."""

from __future__ import annotations

from agentic_ds.context.cut import cut_from, shorter


def test_a_cut_text_says_how_long_it_was_and_is_recognised_only_as_a_cut_of_its_own_original():
    code = "import pandas as pd\n" + "x = 1\n" * 5000
    cut = shorter(code, 100)
    assert cut.startswith(code[:100]) and cut.endswith(f"[cut: {len(code):,} characters in all]")
    assert len(cut) < 200
    assert cut_from(cut, code) and cut_from(code, code)
    assert not cut_from(cut, code + "y = 2\n")              # as long as another text: not the same
    assert not cut_from(cut, "import numpy\n" + code[13:])  # another start
    assert not cut_from(code[:100], code)                    # a prefix that does not say it was cut


def test_only_long_strings_are_cut_anywhere_in_a_tool_result():
    result = {"ok": True, "output": "o" * 50, "files": ["outputs/a.json", "f" * 50], "rows": 12}
    assert shorter(result, 10) == {"ok": True, "output": "o" * 10 + "... [cut: 50 characters in all]",
                                   "files": ["outputs/a.json"[:10] + "... [cut: 14 characters in all]",
                                             "f" * 10 + "... [cut: 50 characters in all]"], "rows": 12}
    assert shorter(result, 100) == result
