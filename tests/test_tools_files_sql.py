"""The file, SQL and profile tools: what the model gets back for ordinary requests."""

from __future__ import annotations

import pytest

from agentic_ds.tools.files import make_file_tools
from agentic_ds.tools.profile import make_profile_tool
from agentic_ds.tools.sql import InputDatabase, make_sql_tool, view_name
from agentic_ds.workspace import Workspace

CSV = "region,price\nnorth,10\nsouth,30\nnorth,20\n"


@pytest.fixture
def ws(tmp_path) -> Workspace:
    root = tmp_path / "run"
    (root / "inputs" / "2024").mkdir(parents=True)
    (root / "inputs" / "sales.csv").write_text(CSV)
    (root / "inputs" / "2024" / "Q1 sales.csv").write_text("a\n1\n")
    (root / ".sandbox").mkdir()
    (root / ".sandbox" / "kernel.json").write_text("{}")
    return Workspace(root)


def test_tools_write_then_read_then_list(ws):
    read_file, write_file, list_files = make_file_tools(ws, output_cap=1000)
    written = write_file("outputs/notes/summary.md", "# Findings\n")
    assert {k: written[k] for k in ("path", "bytes")} == {"path": "outputs/notes/summary.md", "bytes": 11}
    assert "not evidence" in written["note"]
    assert read_file("outputs/notes/summary.md")["content"] == "# Findings\n"
    listing = list_files()
    assert listing["files"] == [
        "inputs/2024/Q1 sales.csv (4 B)", "inputs/sales.csv (40 B)", "outputs/notes/summary.md (11 B)",
    ]   # .sandbox stays hidden
    assert list_files("inputs")["files"][1] == "inputs/sales.csv (40 B)"


def test_tools_read_file_cuts_long_files_and_refuses_binary(ws):
    read_file, write_file, _ = make_file_tools(ws, output_cap=100)
    write_file("outputs/long.txt", "y" * 5000)
    long = read_file("outputs/long.txt")
    assert len(long["content"]) == 100 and long["truncated"] and long["size_bytes"] == 5000
    (ws.root / "outputs" / "blob.bin").write_bytes(b"\x00\x01" * 10)
    assert "binary" in read_file("outputs/blob.bin")["error"]
    assert "no such file" in read_file("outputs/missing.txt")["error"]
    assert "directory" in read_file("inputs")["error"]


def test_tools_read_file_pages_through_a_long_file_with_next_offset(ws):
    read_file, write_file, _ = make_file_tools(ws, output_cap=100)
    text = "".join(f"{i:04d}é\n" for i in range(60))          # 360 characters, some of them two bytes long
    write_file("outputs/pages.txt", text)
    pieces, offset = [], 0
    while True:
        page = read_file("outputs/pages.txt", offset=offset)
        pieces.append(page["content"])
        if not page["truncated"]:
            assert "next_offset" not in page
            break
        offset = page["next_offset"]
    assert "".join(pieces) == text and len(pieces) == 4
    assert read_file("outputs/pages.txt", offset=10_000)["content"] == ""


def test_tools_view_names_follow_the_documented_rule():
    taken: set[str] = set()
    assert view_name("sales.csv", taken) == "sales"
    assert view_name("2024/Q1 sales.csv", taken) == "t2024_q1_sales"
    assert view_name("sales.parquet", taken) == "sales_2"


async def test_tools_sql_query_reads_views_and_direct_paths(ws):
    sql_query = make_sql_tool(InputDatabase(ws), output_cap=2000, timeout_s=10)
    result = await sql_query("SELECT region, sum(price) AS total FROM sales GROUP BY region ORDER BY region")
    assert result["columns"] == ["region", "total"] and result["rows_shown"] == 2 and not result["more_rows"]
    assert result["table"].splitlines()[2:] == ["| north | 30 |", "| south | 30 |"]
    direct = await sql_query("WITH s AS (SELECT * FROM read_csv_auto('inputs/sales.csv')) SELECT count(*) FROM s")
    assert direct["table"].splitlines()[-1] == "| 3 |"
    assert (await sql_query("SELECT * FROM t2024_q1_sales"))["table"].endswith("| 1 |")


async def test_tools_sql_query_caps_rows_and_explains_errors(ws):
    sql_query = make_sql_tool(InputDatabase(ws), output_cap=100_000, timeout_s=10)
    many = await sql_query("SELECT * FROM range(1000)")
    assert many["rows_shown"] == 200 and many["more_rows"]
    wrong = await sql_query("SELECT prize FROM sales")
    assert "prize" in wrong["error"] and "sales (inputs/sales.csv)" in wrong["hint"]


async def test_tools_sql_query_timeout_stops_the_query_so_the_next_one_runs(ws):
    # the slow query runs for hours unless stopped; 2 s leaves the quick one room on a loaded machine
    sql_query = make_sql_tool(InputDatabase(ws), output_cap=2000, timeout_s=2)
    slow = await sql_query("SELECT sum(hash(range)) FROM range(100000000000)")
    assert "longer than 2 s" in slow["error"]
    after = await sql_query("SELECT count(*) AS n FROM sales")
    assert after.get("table", "").splitlines()[-1:] == ["| 3 |"], after   # not left holding the database


async def test_tools_profile_data_profiles_an_input(ws):
    profile_data = make_profile_tool(ws, output_cap=3000)
    result = await profile_data("inputs/sales.csv")
    assert result["rows"] == 3 and result["columns"] == 2
    assert "inputs/sales.csv" in result["profile"] and "region" in result["profile"]
    assert "no such file" in (await profile_data("inputs/nope.csv"))["error"]


async def test_tools_sql_query_uses_the_profiled_column_names_and_encodings(tmp_path):
    """What the profile says (pandas' names, the file's encoding) is what SQL sees, so every tool agrees."""
    import json

    from agentic_ds.profiling import profile_inputs

    root = tmp_path / "run"
    (root / "inputs").mkdir(parents=True)
    (root / "inputs" / "blank.csv").write_text(",city,,amount,amount\n0,Leeds,x,10,1\n1,York,y,12,2\n")
    (root / "inputs" / "latin.csv").write_bytes("city,n\nMünchen,1\nKöln,2\n".encode("latin-1"))
    (root / "inputs" / "windows.csv").write_bytes("city,n\nMünchen “1”,1\nKöln €,2\n".encode("cp1252"))
    workspace = Workspace(root)
    profile = profile_inputs(workspace.input_files(), base=root)
    workspace.file("data_profile.json").write_text(json.dumps(profile.to_json()))
    database = InputDatabase(workspace)
    sql_query = make_sql_tool(database, output_cap=2000, timeout_s=10)

    named = await sql_query('SELECT "Unnamed: 0", "Unnamed: 2", "amount.1" FROM blank ORDER BY 1')
    assert named["columns"] == ["Unnamed: 0", "Unnamed: 2", "amount.1"]
    assert named["table"].splitlines()[-1] == "| 1 | y | 2 |"
    latin = await sql_query("SELECT city FROM latin ORDER BY n")
    assert latin["table"].splitlines()[2:] == ["| München |", "| Köln |"]
    assert database.skipped == {
        "inputs/windows.csv": "encoded in cp1252, which DuckDB cannot read: use run_python with "
        "pandas.read_csv(path, encoding='cp1252')"
    }
