"""The web page's files over real HTTP from `agentic-ds serve`: served at `/` and `/ui/*` without the token (they
hold no run data) under a strict Content-Security-Policy, everything else still behind the token; the status words
and colours the page gets are the report's; the new-analysis form's choices (offline by default with no key, the
files under the data roots). The page itself in a browser: tests/test_browser_page.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentic_ds.report.html import status_tone
from agentic_ds.schema import RunStatus, StageStatus
from tests.server_support import CSV, start_server

pytestmark = pytest.mark.slow

STATIC = Path(__file__).resolve().parents[1] / "agentic_ds" / "server" / "static"
REPORT_TEMPLATE = Path(__file__).resolve().parents[1] / "agentic_ds" / "report" / "templates" / "report.html.j2"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("page")
    data = base / "data"
    (data / "shop").mkdir(parents=True)
    (data / "shop" / "sales.csv").write_text(CSV, encoding="utf-8")
    (data / ".hidden.csv").write_text(CSV, encoding="utf-8")
    (data / "link.csv").symlink_to(data / "shop" / "sales.csv")
    started = start_server(base / "workdirs", "--data-root", str(data))
    yield started
    started.stop()


def test_the_page_and_its_files_are_served_without_the_token_under_a_strict_policy(server):
    page = server.get("/", token=False)

    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert b'<script type="module" src="/ui/main.js">' in page.body and b"<main" in page.body
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy and "unsafe-inline" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    for name in ("main.js", "api.js", "run.js", "app.css"):
        asset = server.get(f"/ui/{name}", token=False)
        assert asset.status == 200, name
        assert asset.headers["content-type"].startswith("text/css" if name.endswith(".css") else "text/javascript")
    # Nothing in the page comes from another host: no URL with a scheme but the data: favicon.
    for path in STATIC.iterdir():
        assert not re.search(r"https?://", path.read_text(encoding="utf-8")), path.name


def test_only_the_pages_own_files_pass_without_the_token(server):
    assert server.get("/ui/nothing.js", token=False).status == 404
    assert server.get("/ui/../runs", token=False).status in (401, 404)
    assert server.get("/ui/%2e%2e/server", token=False).status in (401, 404)
    for path in ("/runs", "/server", "/choices", "/docs", "/ui"):
        assert server.get(path, token=False).status == 401, path
    assert server.request("POST", "/", token=False).status in (401, 405)
    assert server.request("POST", "/", token=False).status != 200


def test_the_status_words_and_colours_are_the_reports(server):
    info = server.get("/server").json()

    for status in RunStatus:
        assert info["statuses"][status.value]["label"] == status.label
        assert info["statuses"][status.value]["tone"] == status_tone(status)
    assert info["statuses"]["completed"]["tone"] == "good" and info["statuses"]["failed"]["tone"] == "bad"
    assert "passed its checks" in info["statuses"]["completed"]["meaning"]
    for stage_status in StageStatus:
        assert info["stage_statuses"][stage_status.value] == {"label": stage_status.label,
                                                              "tone": status_tone(stage_status),
                                                              "meaning": ""}
    # The page's colours for each tone are the report's, variable by variable.
    colours = re.compile(r"--(good|warn|bad|neutral)(-bg)?:\s*(#[0-9a-f]{6})")
    assert dict(((n, b), c) for n, b, c in colours.findall(REPORT_TEMPLATE.read_text())) == \
        dict(((n, b), c) for n, b, c in colours.findall((STATIC / "app.css").read_text()))


def test_the_form_is_offered_the_offline_model_with_no_key_and_the_data_root_files(server):
    choices = server.get("/choices").json()

    assert choices["roles"] == ["planner", "reviewer", "judge", "coder", "summarizer", "compactor"]
    assert set(choices["models"].values()) == {"offline"} and "no API key found" in choices["models_reason"]
    assert choices["suggested_models"][0] == "offline" and "openai/gpt-4.1" in choices["suggested_models"]
    assert choices["modes"] == ["orchestrated", "simple"] and choices["sandbox"] == ["auto", "require", "off"]
    # Paths as POST /runs takes them; hidden files and links are not offered.
    assert [(f["path"], f["size"]) for f in choices["data_files"]] == [("shop/sales.csv", len(CSV))]
    assert choices["data_truncated"] is False
    paths = server.get("/openapi.json").json()["paths"]
    assert "/choices" in paths and "/" not in paths and not [p for p in paths if p.startswith("/ui")]
