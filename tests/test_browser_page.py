"""The web page of `agentic-ds serve` in a real browser (Debian's chromium driven by Playwright), against a real
server started on a free port with the offline model: the runs list (a run started from the CLI included), a run
started from the page and watched to its end, its report, a follow-up, a plan approved and a run cancelled from the
page, a reload mid-run that loses no event, the token asked for, keyboard reach, 390 px and 1280 px widths.

With SCREENSHOT_DIR=DIR set, the main views are also saved there as PNG (docs/ holds the README's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.server_support import CSV, RUN_S, TOKEN, Server, environment, log_lines, start_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
TASK = "Mean price by region"
RUN_MS = RUN_S * 1000

pytestmark = [
    pytest.mark.browser, pytest.mark.slow, pytest.mark.sandbox,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


@dataclass
class Site:
    server: Server
    cli_run: str      # a run started with `agentic-ds run`, finished before the page is opened
    data: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    base = tmp_path_factory.mktemp("page")
    data = base / "data"
    (data / "shop").mkdir(parents=True)
    (data / "shop" / "sales.csv").write_text(CSV, encoding="utf-8")
    workdir = base / "workdirs"
    cli = subprocess.Popen([sys.executable, "-m", "agentic_ds", "run", "--mode", "simple", TASK, "--files",
                            str(data / "shop" / "sales.csv"), "--model", "offline", "--workdir", str(workdir),
                            "--json"], cwd=base, env=environment(), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    server = start_server(workdir, "--data-root", str(data), "--max-runs", "3")
    stdout, stderr = cli.communicate(timeout=RUN_S)
    assert cli.returncode == 0, stderr
    finished = json.loads(stdout.splitlines()[-1])
    yield Site(server, Path(finished["run_dir"]).name, data)
    server.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM), headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(30_000)
        yield context
        context.close()


class Watch:
    """Errors the page logs or throws, and every host it reaches."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        self.hosts: set[str] = set()
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("request", lambda request: self.hosts.add(request.url.split("/")[2]))

    def _console(self, msg) -> None:
        if msg.type == "error":
            self.errors.append(msg.text)

    def clean(self, server: Server) -> None:
        assert self.errors == []
        assert self.hosts <= {f"127.0.0.1:{server.port}"}


def _open(browser, server: Server, where: str = "#/", *, token: bool = True, width: int = 1280):
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    watch = Watch(page)
    query = f"?token={TOKEN}" if token else ""
    page.goto(f"http://127.0.0.1:{server.port}/{query}{where}")
    return page, watch


def _shoot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        page.screenshot(path=str(Path(folder) / f"page-{name}.png"))


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_runs_list_shows_a_run_started_from_the_cli_with_its_facts(site, browser):
    record = json.loads((site.server.workdir / site.cli_run / "run.json").read_text())
    page, watch = _open(browser, site.server)

    row = page.locator(f"tr[data-run='{site.cli_run}']")
    row.wait_for()
    cells = row.locator("td").all_inner_texts()
    assert cells[0] == record["title"] and cells[1] == "completed" and cells[2] == "simple"
    assert cells[3] == "offline" and cells[4].endswith(" UTC") and cells[4][:10] == record["started_at"][:10]
    assert cells[5].endswith(" s") and cells[6] == "$0.00"
    # The status is words, in the report's colour.
    status = row.locator(".badge")
    assert status.get_attribute("class") == "badge tone-good" and status.inner_text() == "completed"
    _shoot(page, "runs")

    page.select_option("#status-filter", "failed")
    page.locator("#runs", has_text="No run is failed.").wait_for()
    page.select_option("#status-filter", "completed")
    row.wait_for()
    page.select_option("#status-filter", "")
    row.wait_for()

    page.set_viewport_size({"width": 390, "height": 800})
    assert _fits(page) and row.locator("td").first.is_visible()
    watch.clean(site.server)
    page.close()


def test_a_finished_run_shows_its_answer_first_then_report_files_and_record(site, browser):
    record = json.loads((site.server.workdir / site.cli_run / "run.json").read_text())
    page, watch = _open(browser, site.server, f"#/runs/{site.cli_run}")

    page.locator("#answer-text").wait_for()
    assert page.locator("#answer-text").inner_text() == record["final_answer"]["answer"]
    assert page.locator("#answer-confidence").inner_text().startswith(
        f"Confidence: {record['final_answer']['confidence']}")
    # The answer comes before the report, the files and the record.
    tops = page.evaluate("['answer', 'report', 'files', 'record'].map(id => "
                         "document.getElementById(id).getBoundingClientRect().top)")
    assert tops == sorted(tops)
    asks = page.locator("#asks tbody tr")
    assert asks.count() == len(record["final_answer"]["asks"]) >= 1
    assert record["final_answer"]["asks"][0]["judge"] in asks.first.inner_text()
    report = page.frame_locator("#report")
    assert report.locator("h1").first.inner_text() == record["title"]
    assert report.locator("img").count() >= 1   # the report's figures
    notebook = page.locator("#files a[download='analysis.ipynb']")
    assert notebook.count() == 1
    download = site.server.get(notebook.get_attribute("href").split("?")[0] + "?download=true")
    assert download.status == 200 and json.loads(download.body)["cells"]
    assert page.locator("#files a", has_text="figures/").count() >= 1
    assert page.locator("#record-reason").inner_text() == record["reason"]
    agents = page.locator("#cost-agents tbody tr").all_inner_texts()
    assert {row.split("\t")[0] for row in agents} == {row["agent"] for row in record["ledger"]}
    assert page.locator("#cost-models tbody tr").first.inner_text().startswith("offline")
    assert page.locator("#cancel").count() == 0 and _fits(page)
    _shoot(page, "finished-run")
    page.set_viewport_size({"width": 390, "height": 800})
    assert _fits(page) and page.locator("#answer-text").is_visible()
    watch.clean(site.server)
    page.close()


def test_the_token_is_asked_for_and_the_form_is_reached_by_keyboard(site, browser):
    page, watch = _open(browser, site.server, "#/new", token=False)

    page.get_by_label("Token", exact=True).fill(TOKEN)
    page.keyboard.press("Enter")
    page.locator("#new-run").wait_for()
    assert page.evaluate("document.activeElement.id") == "task"
    for _ in range(60):   # every field is reachable, up to the button that starts the run
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "start":
            break
    else:
        raise AssertionError("the start button is not reachable with Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"   # focus is visible
    for label in ("Task", "Approve the plan before running", "planner", "Max cost (USD)", "Sandbox"):
        assert page.get_by_label(label, exact=True).count() == 1, label
    assert page.locator("main#main").count() == 1 and page.locator("nav[aria-label='Main']").count() == 1
    _shoot(page, "new-analysis")
    # A run the server refuses says why and what to do, and nothing is created.
    page.get_by_label("Task", exact=True).fill(TASK)
    before = sorted(p.name for p in site.server.workdir.iterdir())
    page.keyboard.press("End")
    page.get_by_role("button", name="Start the analysis").press("Enter")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "no input files given" in alert.inner_text() and "What to do: upload files" in alert.inner_text()
    assert sorted(p.name for p in site.server.workdir.iterdir()) == before and "#/new" in page.url
    # The first call, made without the token, and the refused run: the browser logs both responses.
    watch.errors = [e for e in watch.errors if "401" not in e and "400" not in e]
    watch.clean(site.server)
    page.close()


DROP = """([name, text]) => {
  const files = new DataTransfer();
  files.items.add(new File([text], name, {type: "text/csv"}));
  document.getElementById("dropzone").dispatchEvent(
    new DragEvent("drop", {dataTransfer: files, bubbles: true, cancelable: true}));
}"""


def _run_id(page) -> str:
    page.wait_for_url("**/#/runs/*")
    return page.url.split("#/runs/")[1]


def _events_shown(page) -> tuple[int, int, list[int]]:
    counter = page.locator("#event-count")
    ids = [int(i) for i in page.eval_on_selector_all("#events li", "els => els.map(e => e.dataset.id)")]
    return int(counter.get_attribute("data-count") or 0), int(counter.get_attribute("data-missing") or 0), ids


def test_a_run_started_from_the_page_is_watched_live_to_its_end(site, browser):
    page, watch = _open(browser, site.server, "#/new")
    page.get_by_label("Task", exact=True).fill(TASK)
    page.get_by_label("simple").check()
    page.evaluate(DROP, ["prices.csv", CSV])   # a file dropped on the form
    assert page.locator("#picked li").inner_text().startswith("prices.csv")
    assert page.get_by_label("coder", exact=True).get_attribute("placeholder") == "offline"   # no key: offline

    page.get_by_role("button", name="Start the analysis").click()

    run_id = _run_id(page)
    run_dir = site.server.workdir / run_id
    assert (run_dir / "inputs" / "prices.csv").read_text() == CSV
    # While it runs: the agent at work and its latest tool call, as events arrive.
    page.locator("#live-call").wait_for(timeout=RUN_MS)
    assert page.locator("#live-agent").inner_text() and page.locator("#cancel").is_visible()
    assert _events_shown(page)[0] >= 1
    page.locator("#run-status .badge[data-status='completed']").wait_for(timeout=RUN_MS)
    page.locator("#answer-text").wait_for()
    assert page.locator("#live").inner_text() == "" and page.locator("#cancel").count() == 0
    shown, missing, ids = _events_shown(page)
    assert shown == len(log_lines(run_dir)) and missing == 0 and ids == list(range(1, shown + 1))
    assert page.frame_locator("#report").locator("h1").first.inner_text()
    watch.clean(site.server)
    page.close()


def test_a_reload_mid_run_loses_no_event(site, browser):
    made = site.server.create([("task", TASK), ("mode", "simple"), ("model", "offline"), ("path", "shop/sales.csv")])
    run_id = made.json()["id"]
    page, watch = _open(browser, site.server, f"#/runs/{run_id}")
    page.locator("#event-count[data-count]").wait_for(timeout=RUN_MS)   # events came: reload mid-run
    assert site.server.get(f"/runs/{run_id}").json()["status"] == "running"

    page.reload()

    page.locator("#run-status .badge[data-status='completed']").wait_for(timeout=RUN_MS)
    lines = len(log_lines(site.server.workdir / run_id))
    page.locator(f"#event-count[data-count='{lines}']").wait_for()
    shown, missing, ids = _events_shown(page)
    assert missing == 0 and ids == list(range(1, shown + 1))
    watch.clean(site.server)
    page.close()


def test_a_follow_up_is_asked_under_the_report_and_survives_a_reload(site, browser):
    page, watch = _open(browser, site.server, f"#/runs/{site.cli_run}")
    page.get_by_label("Ask a follow-up question").fill("What is the median price per region?")
    page.get_by_role("button", name="Ask", exact=True).click()

    item = page.locator("#followups li[data-followup]")
    item.wait_for()
    assert item.count() == 1 and item.get_attribute("data-status") in ("queued", "running", "completed")
    page.locator("#followups li[data-status='completed']").wait_for(timeout=RUN_MS)
    (folder,) = (site.server.workdir / site.cli_run / "followups").iterdir()
    record = json.loads((folder / "followup.json").read_text())
    assert record["status"] == "completed" and record["answer"]
    assert item.locator(".followup-answer").inner_text() == record["answer"]
    assert item.locator(".badge").inner_text() == "completed"
    if record["code"]:   # its code, shown when opened
        item.locator("summary", has_text="Code:").first.click()
        item.locator("pre.followup-code").first.wait_for()
        page.wait_for_timeout(100)
        assert item.locator("pre.followup-code").first.inner_text() != "Loading…"
    _shoot(page, "follow-up")

    page.reload()

    again = page.locator("#followups li[data-followup]")
    again.first.wait_for()
    assert again.count() == 1 and again.first.get_attribute("data-followup") == record["id"]
    assert again.locator(".followup-answer").inner_text() == record["answer"]
    # Under the report, above the files.
    tops = page.evaluate("['report', 'followups', 'files'].map(id => "
                         "document.getElementById(id).getBoundingClientRect().top)")
    assert tops == sorted(tops)
    watch.clean(site.server)
    page.close()


def test_a_plan_is_edited_and_approved_from_the_page_then_the_run_is_cancelled(site, browser):
    page, watch = _open(browser, site.server, "#/new")
    page.get_by_label("Task", exact=True).fill(TASK)
    page.get_by_label("Approve the plan before running").check()
    page.get_by_label("shop/sales.csv").check()   # a file under the server's data root
    page.get_by_role("button", name="Start the analysis").click()
    run_id = _run_id(page)

    panel = page.locator("#approval section")
    panel.wait_for(timeout=RUN_MS)
    assert page.locator("#run-status .badge").inner_text() == "awaiting approval"
    assert "Stage" in page.locator("#plan-text").inner_text() or page.locator("#plan-text").inner_text().strip()
    for name in ("Approve the plan", "Send notes to the planner", "Stop the run"):
        assert page.get_by_role("button", name=name).is_visible(), name
    _shoot(page, "approval")
    page.set_viewport_size({"width": 390, "height": 800})
    assert _fits(page) and page.get_by_role("button", name="Approve the plan").is_visible()
    page.set_viewport_size({"width": 1280, "height": 900})
    # Notes to the planner: it makes the plan again, which waits again.
    page.get_by_label("Notes for the planner (edit)").fill("Compare medians too.")
    page.get_by_role("button", name="Send notes to the planner").click()
    page.locator("#approval p", has_text="Decisions so far: edit").wait_for(timeout=RUN_MS)
    assert "Compare medians too." in page.locator("#plan-text").inner_text()

    page.get_by_role("button", name="Approve the plan").click()

    panel.wait_for(state="detached")
    page.locator("#run-status .badge[data-status='running']").wait_for(timeout=RUN_MS)
    page.locator("#stages li[data-stage-state='running']").wait_for(timeout=RUN_MS)   # the approved plan runs
    page.locator("#live-call").wait_for(timeout=RUN_MS)
    _shoot(page, "live-run")

    page.get_by_role("button", name="Cancel run").click()

    page.locator("#run-status .badge[data-status='incomplete']").wait_for(timeout=RUN_MS)
    assert "interrupted by SIGTERM" in page.locator("#run-reason").inner_text()
    assert page.get_by_role("button", name="Resume run").is_visible()
    record = json.loads((site.server.workdir / run_id / "run.json").read_text())
    assert record["status"] == "incomplete" and record["approval"]["state"] == "approved"
    watch.clean(site.server)
    page.close()


def test_the_event_stream_reconnects_where_it_broke_and_loses_no_event(site, browser):
    lines = len(log_lines(site.server.workdir / site.cli_run))
    cut = lines // 2
    asked_after: list[str | None] = []

    def broken_once(route):
        if asked_after or route.request.resource_type != "eventsource":
            reply = route.fetch()
            ids = [block.split("\n")[0] for block in reply.text().split("\n\n") if block.startswith("id: ")]
            asked_after.append(ids[0] if ids else "")
            route.fulfill(response=reply)
            return
        asked_after.append("first")
        blocks = route.fetch().text().split("\n\n")   # the whole replay of the finished run...
        upto = next(i for i, block in enumerate(blocks) if block.startswith(f"id: {cut}\n"))
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"},   # ...cut after event `cut`
                      body="\n\n".join(blocks[:upto + 1]) + "\n\n")

    page = browser.new_page()
    watch = Watch(page)
    page.route("**/runs/*/events*", broken_once)
    page.goto(f"http://127.0.0.1:{site.server.port}/?token={TOKEN}#/runs/{site.cli_run}")

    page.locator(f"#event-count[data-count='{lines}']").wait_for()
    # The page came back by itself, saying where it broke; the server sent the rest, once.
    assert asked_after == ["first", f"id: {cut + 1}"]
    shown, missing, ids = _events_shown(page)
    assert shown == lines and missing == 0 and ids == list(range(1, lines + 1))
    watch.clean(site.server)
    page.close()
