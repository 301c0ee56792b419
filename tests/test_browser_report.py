"""report.html in a real headless chromium: it renders, figures load, nothing errors, nothing is fetched."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from agentic_ds.report.writer import write_reports
from agentic_ds.workspace import Workspace
from tests.report_fixtures import make_run

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),  # a fresh user data dir
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
        )
        yield context
        context.close()


class PageWatch:
    """Console errors, uncaught exceptions and every request a page makes."""

    def __init__(self, page) -> None:
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))
        page.on("request", lambda request: self.requests.append(request.url))

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)


def _open(context, html: Path):
    page = context.new_page()
    # Anything that is not the report itself is refused, so a leak fails the test instead of the network.
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    watch = PageWatch(page)
    page.goto(html.resolve().as_uri(), wait_until="load")
    return page, watch


def _assert_clean(watch: PageWatch) -> None:
    assert watch.console_errors == []
    assert watch.page_errors == []
    assert [u for u in watch.requests if not u.startswith(("data:", "file:"))] == []


def test_report_renders_with_figures_and_no_errors_or_network(browser_context, tmp_path):
    run = make_run(tmp_path)
    _, html = write_reports(Workspace(run))

    page, watch = _open(browser_context, html)

    assert page.title().startswith("Which region has the highest average sales")
    assert page.locator("#answer").is_visible()
    assert "412.50" in page.locator("#answer").inner_text()
    images = page.eval_on_selector_all("img", "els => els.map(e => [e.complete, e.naturalWidth, e.naturalHeight])")
    assert len(images) == 3
    assert all(complete and width > 0 and height > 0 for complete, width, height in images), images
    # Code is collapsed until asked for, then readable.
    code = page.locator("#stage-2 details", has_text="Code:")
    assert not code.locator("pre").is_visible()
    code.locator("summary").click()
    assert "groupby('region')" in code.locator("pre").inner_text()
    # The report fits a laptop screen: no sideways scrolling of the page.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _assert_clean(watch)
    page.close()


def test_print_layout_hides_navigation_and_names_the_code(browser_context, tmp_path):
    run = make_run(tmp_path)
    _, html = write_reports(Workspace(run))
    page, watch = _open(browser_context, html)

    page.emulate_media(media="print")

    assert not page.locator("nav.toc").is_visible()
    assert not page.locator("#stage-2 details summary", has_text="Code:").is_visible()
    assert page.locator(".print-only", has_text="stages/02-compare-regions/code.py").is_visible()
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    _assert_clean(watch)
    page.close()


def test_failed_run_report_renders_honestly(browser_context, tmp_path):
    run = make_run(tmp_path, status="failed", reason="The coder could not read the input.")
    (run / "report.md").unlink()
    shutil.rmtree(run / "figures")
    _, html = write_reports(Workspace(run))

    page, watch = _open(browser_context, html)

    answer = page.locator("#answer").inner_text()
    assert "No answer." in answer and "The coder could not read the input." in answer
    assert page.locator("img").count() == 0
    assert page.locator(".missing", has_text="Figure missing: figures/02-compare-regions-001.png").is_visible()
    _assert_clean(watch)
    page.close()
