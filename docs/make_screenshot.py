"""Screenshot a run's report.html for the README, in headless chromium.

    .venv/bin/python docs/make_screenshot.py workdirs/20261122-013000-which-region
    .venv/bin/python docs/make_screenshot.py RUN_DIR --out docs/report-screenshot.png --height 1600 --full-page

The run directory is not modified: when it has no report.html yet, one is rendered to a temporary file.
Needs playwright (a dev dependency) and chromium (`/usr/bin/chromium`, or --chromium PATH).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def screenshot(run_dir: Path, out: Path, *, width: int, height: int, full_page: bool, chromium: Path) -> Path:
    from playwright.sync_api import sync_playwright

    from agentic_ds.report.html import render_html
    from agentic_ds.report.view import load_run_view

    with tempfile.TemporaryDirectory(prefix="agentic-ds-shot-") as scratch:
        html = run_dir / "report.html"
        if not html.is_file():
            html = Path(scratch) / "report.html"
            html.write_text(render_html(load_run_view(run_dir)), encoding="utf-8")
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                str(Path(scratch) / "profile"), executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS,
                viewport={"width": width, "height": height}, device_scale_factor=1,
            )
            try:
                page = context.new_page()
                page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                           else route.abort())
                page.goto(html.resolve().as_uri(), wait_until="load")
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), full_page=full_page)
            finally:
                context.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path, help="a run directory (holding run.json)")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("report-screenshot.png"))
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1600,
                        help="viewport height; the shot's height unless --full-page")
    parser.add_argument("--full-page", action="store_true", help="capture the whole report, not just the first screen")
    parser.add_argument("--chromium", type=Path, default=Path("/usr/bin/chromium"))
    args = parser.parse_args(argv)
    if not args.run_dir.is_dir():
        parser.error(f"{args.run_dir} is not a directory")
    if not args.chromium.exists():
        parser.error(f"chromium not found at {args.chromium}; install it or pass --chromium PATH")
    out = screenshot(args.run_dir, args.out, width=args.width, height=args.height,
                     full_page=args.full_page, chromium=args.chromium)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
