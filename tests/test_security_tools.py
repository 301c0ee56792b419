"""Attacks through the tools: path tricks on the file tools, writes and escapes through sql_query."""

from __future__ import annotations

import os

import pytest

from agentic_ds.tools.files import make_file_tools
from agentic_ds.tools.sql import InputDatabase, make_sql_tool
from agentic_ds.workspace import Workspace

pytestmark = pytest.mark.security


@pytest.fixture
def ws(tmp_path) -> Workspace:
    root = tmp_path / "run"
    (root / "inputs").mkdir(parents=True)
    (root / "inputs" / "sales.csv").write_text("region,price\nnorth,10\n")
    (tmp_path / "secret.txt").write_text("region,price\nTOPSECRET,1\n")
    os.symlink(tmp_path / "secret.txt", root / "inputs" / "evil.csv")   # planted: points out of the run
    os.symlink(tmp_path, root / "escape_dir")
    return Workspace(root)


@pytest.fixture
def tools(ws):
    return make_file_tools(ws, output_cap=1000)


@pytest.mark.parametrize(
    "path, expected",
    [
        ("/etc/passwd", "absolute paths are not allowed"),
        ("~/.ssh/id_rsa", "absolute paths are not allowed"),
        ("../secret.txt", "'..' is not allowed"),
        ("outputs/../../secret.txt", "'..' is not allowed"),
        ("inputs/evil.csv", "resolves outside the run directory"),
        ("escape_dir/secret.txt", "resolves outside the run directory"),
        ("inputs/sales.csv\x00.txt", "invalid path"),
    ],
)
def test_security_tools_read_file_refuses_path_tricks(tools, path, expected):
    read_file, _, _ = tools
    result = read_file(path)
    assert expected in result["error"] and "TOPSECRET" not in str(result)


@pytest.mark.parametrize(
    "path, expected",
    [
        ("/tmp/pwned.txt", "absolute paths are not allowed"),
        ("../pwned.txt", "'..' is not allowed"),
        ("escape_dir/pwned.txt", "resolves outside the run directory"),
        ("inputs/sales.csv", "read-only for agents"),
        ("inputs/new.csv", "read-only for agents"),
        (".sandbox/kernel.json", "read-only for agents"),
        ("~/pwned.txt", "absolute paths are not allowed"),
    ],
)
def test_security_tools_write_file_refuses_path_tricks(tools, ws, path, expected):
    _, write_file, _ = tools
    result = write_file(path, "pwned")
    assert expected in result["error"] and result.get("hint")
    assert not (ws.root.parent / "pwned.txt").exists() and not os.path.exists("/tmp/pwned.txt")
    assert (ws.root / "inputs" / "sales.csv").read_text().startswith("region")


def test_security_tools_write_file_does_not_follow_a_planted_symlink(tools, ws, tmp_path):
    _, write_file, _ = tools
    (ws.root / "outputs").mkdir()
    os.symlink(tmp_path / "target.txt", ws.root / "outputs" / "link.txt")   # dangling, points out
    result = write_file("outputs/link.txt", "pwned")
    assert "error" in result and not (tmp_path / "target.txt").exists()


def test_security_tools_list_files_stays_inside(tools):
    _, _, list_files = tools
    assert "'..' is not allowed" in list_files("..")["error"]
    assert "absolute" in list_files("/")["error"]
    assert "outside" in list_files("escape_dir")["error"]


@pytest.fixture
def sql(ws):
    return make_sql_tool(InputDatabase(ws), output_cap=2000, timeout_s=10)


@pytest.mark.parametrize(
    "query",
    [
        "COPY sales TO 'outputs/stolen.csv'",
        "COPY (SELECT 1) TO '/tmp/pwned.csv'",
        "ATTACH '/tmp/pwned.db' AS p",
        "INSTALL httpfs",
        "LOAD httpfs",
        "PRAGMA version",
        "SET enable_external_access = true",
        "CREATE TABLE t AS SELECT 1",
        "INSERT INTO sales VALUES ('x', 1)",
        "UPDATE sales SET price = 0",
        "DELETE FROM sales",
        "EXPORT DATABASE '/tmp/pwned_export'",
        "SELECT 1; COPY sales TO '/tmp/pwned.csv'",
        "CALL pragma_version()",
    ],
)
async def test_security_tools_sql_refuses_anything_but_one_select(sql, query):
    result = await sql(query)
    assert "error" in result and ("only SELECT" in result["error"] or "exactly one statement" in result["error"])
    assert not os.path.exists("/tmp/pwned.csv") and not os.path.exists("/tmp/pwned.db")


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT * FROM read_csv_auto('inputs/evil.csv')",
        "SELECT * FROM read_csv_auto('inputs/../../secret.txt')",
        "SELECT * FROM read_csv_auto('/proc/self/environ')",
        "SELECT * FROM glob('/root/*')",
        "SELECT getenv('ANTHROPIC_API_KEY')",
        "SELECT * FROM evil",
    ],
)
async def test_security_tools_sql_cannot_read_outside_the_inputs(sql, query, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake-sql-0000")
    result = await sql(query)
    assert "error" in result
    assert "TOPSECRET" not in str(result) and "root:" not in str(result) and "sk-ant-fake" not in str(result)


async def test_security_tools_sql_configuration_is_locked(sql, ws):
    assert "north" in (await sql("SELECT * FROM sales"))["table"]
    db_settings = await sql(
        "SELECT name, value FROM duckdb_settings() WHERE name IN "
        "('enable_external_access', 'lock_configuration', 'autoinstall_known_extensions') ORDER BY name"
    )
    assert db_settings["table"].splitlines()[2:] == [
        "| autoinstall_known_extensions | false |",
        "| enable_external_access | false |",
        "| lock_configuration | true |",
    ]
