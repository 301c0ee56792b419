"""report.html: self-contained, answer first, every stage with its figures, tables and code, safe."""

from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser

from agentic_ds.report.html import render_html
from agentic_ds.report.view import load_run_view
from tests.report_fixtures import make_run, png_bytes


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.section_ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "section":
            self.section_ids.append(attributes.get("id") or "")


def _parse(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    return collector


def test_report_is_self_contained(tmp_path):
    html = render_html(load_run_view(make_run(tmp_path)))
    page = _parse(html)

    assert not [t for t, _ in page.tags if t in ("script", "link", "iframe", "object", "embed")]
    for tag, attrs in page.tags:
        for name in ("src", "srcset", "poster", "data"):
            assert not attrs.get(name) or attrs[name].startswith("data:"), (tag, name)
        href = attrs.get("href")
        assert not href or href.startswith(("#", "https://", "http://")), href
    assert "@import" not in html and "@font-face" not in html
    assert not re.search(r"url\((?!\s*['\"]?data:)", html)


def test_figures_are_embedded_as_the_real_png_bytes(tmp_path):
    html = render_html(load_run_view(make_run(tmp_path)))
    sources = [a["src"] for t, a in _parse(html).tags if t == "img"]

    # Two stage figures and the agent's reference to one of them.
    assert len(sources) == 3
    payloads = {base64.b64decode(src.split(",", 1)[1]) for src in sources}
    assert payloads == {png_bytes("bar"), png_bytes("hist")}
    assert all(src.startswith("data:image/png;base64,") for src in sources)


def test_answer_comes_first_then_methods_stages_caveats_status_cost(tmp_path):
    html = render_html(load_run_view(make_run(tmp_path)))

    assert _parse(html).section_ids == ["answer", "methods", "stages", "caveats", "status", "cost"]
    answer = html.split('<section id="answer">', 1)[1].split("</section>", 1)[0]
    assert "the West has the highest average sale, 412.50" in answer
    # The agent's "# title" nests under the page's own h1.
    assert "<h2>Which region sells most?</h2>" in answer and "<h3>Key findings</h3>" in answer


def test_agent_headings_are_nested_under_the_page_title_whatever_their_level(tmp_path):
    run = make_run(tmp_path)
    (run / "report.md").write_text("## Answer\nWest: 412.50\n\n### Detail\nx\n")

    html = render_html(load_run_view(run))

    assert "<h2>Answer</h2>" in html and "<h3>Detail</h3>" in html


def test_stages_show_status_attempts_tables_and_collapsible_code(tmp_path):
    html = render_html(load_run_view(make_run(tmp_path)))
    stages = html.split('<section id="stages">', 1)[1].split("</section>", 1)[0]

    assert stages.count('<article class="stage"') == 3
    assert 'tone-bad">failed</span>' in stages and "3 attempts" in stages
    assert "<details><summary>Code: <code>stages/02-compare-regions/code.py</code></summary>" in stages
    assert "means = df.groupby(&#39;region&#39;)[&#39;amount&#39;].mean()" in stages
    assert '<td class="num">412.5</td>' in stages and "outputs/region_means.csv · 4 rows" in stages
    assert "KeyError: &#39;dat&#39;" in stages  # last cell output


def test_caveats_status_and_cost_are_reported(tmp_path):
    html = render_html(load_run_view(make_run(tmp_path)))

    caveats = html.split('<section id="caveats">', 1)[1].split("</section>", 1)[0]
    assert "Success criterion not met: Monthly trend of sales shown" in caveats
    assert caveats.count("Monthly trend") == 2  # the warning, the criterion; no duplicate for the failed stage
    cost = html.split('<section id="cost">', 1)[1].split("</section>", 1)[0]
    assert "<code>openai/gpt-4.1-mini</code>" in cost and "$0.0123" in cost and "27,800" in cost
    assert "Wall time: <strong>1 min 12 s</strong>" in cost
    assert "coding_agent" in cost
    assert "@media print" in html


def test_agent_markdown_cannot_inject_html_or_load_anything(tmp_path):
    run = make_run(tmp_path)
    (tmp_path / "outside.png").write_bytes(png_bytes("bar"))
    (run / "report.md").write_text(
        "# Result <script>alert(1)</script>\n\n"
        "<img src=x onerror=alert(2)>\n\n"
        "[click](javascript:alert(3)) [docs](https://example.org/x)\n\n"
        "![remote](https://tracker.example/pixel.png) ![escape](../outside.png) ![abs](/etc/hosts)\n"
    )

    html = render_html(load_run_view(run))
    page = _parse(html)

    assert not [t for t, _ in page.tags if t == "script"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html
    assert not any("javascript:" in (a.get("href") or "") for _, a in page.tags)
    assert '<a href="https://example.org/x" rel="noopener noreferrer">docs</a>' in html
    assert "[image not embedded: remote]" in html and "[image not embedded: escape]" in html
    assert "[image not embedded: abs]" in html
    assert all(a["src"].startswith("data:") for t, a in page.tags if t == "img")


def test_failed_run_without_a_report_says_so(tmp_path):
    run = make_run(tmp_path, status="failed", reason="Every stage failed.")
    (run / "report.md").unlink()
    (run / "figures" / "01-load-and-audit-001.png").unlink()

    html = render_html(load_run_view(run))

    answer = html.split('<section id="answer">', 1)[1].split("</section>", 1)[0]
    assert "No answer." in answer and "Every stage failed." in answer
    assert "Figure missing: figures/01-load-and-audit-001.png" in html
    assert "the summary step did not write report.md" in html


def test_a_figure_that_is_not_an_image_is_named_not_embedded(tmp_path):
    run = make_run(tmp_path)
    result_path = run / "stages" / "02-compare-regions" / "result.json"
    result = json.loads(result_path.read_text())
    result["figures"].append("outputs/region_means.csv")
    result_path.write_text(json.dumps(result))

    html = render_html(load_run_view(run))

    assert "Figure not embeddable: outputs/region_means.csv" in html


def test_agent_images_with_spaces_in_their_names_are_embedded(tmp_path):
    run = make_run(tmp_path)
    (run / "figures" / "by region.png").write_bytes(png_bytes("bar"))
    (run / "report.md").write_text("# R\n\n![by region](<figures/by region.png>)\n")

    report = render_html(load_run_view(run)).split('<section id="methods">', 1)[0]

    assert "image not embedded" not in report and 'alt="by region"' in report


def test_structured_answer_of_simple_mode_leads_the_report(tmp_path):
    run = make_run(tmp_path, mode="simple", final_answer={
        "valid": True, "answer": "Mean amount: 356.10", "confidence": "high", "caveats": ["3.2% of rows dropped"],
        "reasoning_trace": ["loaded 2,391 rows", "computed the mean"], "output_type": "number"})

    html = render_html(load_run_view(run))

    answer = html.split('<section id="answer">', 1)[1].split("</section>", 1)[0]
    assert answer.index("Mean amount: 356.10") < answer.index("Which region sells most?")
    assert "Confidence: <strong>high</strong>" in answer and "<li>computed the mean</li>" in answer
    assert "3.2% of rows dropped" in html.split('<section id="caveats">', 1)[1]


def test_task_text_is_escaped(tmp_path):
    html = render_html(load_run_view(make_run(tmp_path, task="<b>bold</b> & \"quoted\"")))

    assert "<b>bold</b>" not in html
    assert "<h1>&lt;b&gt;bold&lt;/b&gt; &amp; &#34;quoted&#34;</h1>" in html


def test_large_tables_are_capped(tmp_path):
    run = make_run(tmp_path)
    header = ",".join(f"col{i}" for i in range(15))
    rows = "\n".join(",".join(str(r * 100 + c) for c in range(15)) for r in range(50))
    (run / "outputs" / "wide.csv").write_text(header + "\n" + rows + "\n")

    html = render_html(load_run_view(run))

    assert "outputs/wide.csv · 50 rows · first 20 shown · 3 more columns not shown" in html
    assert "<th class=\"num\">col11</th>" in html and "col12" not in html
    assert ">1900<" in html and ">2000<" not in html


def test_a_model_with_no_known_price_makes_the_cost_unknown_never_zero(tmp_path):
    run = make_run(tmp_path, title="Revenue drivers by region",
                   cost={"total_usd": 0.0, "unpriced": ["openai/relay"],
                         "by_model": {"openai/relay": {"calls": 46, "input_tokens": 144000, "output_tokens": 15000}}})
    view = load_run_view(run)
    header = render_html(view).split("</header>", 1)[0]
    assert "cost unknown" in header and "$0.00" not in header
    assert "<h1>Revenue drivers by region</h1>" in header
    assert view.cost_text == "cost unknown"


def test_an_answer_written_as_a_list_is_shown_as_one_and_its_html_is_escaped(tmp_path):
    """The validator's answer to a "what drives" question is a markdown list: it reads as a list, not as one line
    of "- " runs, and markup in it stays text."""
    answer = "- West leads: 412.50 per sale\n- East <b>trails</b>: 300.10 per sale"
    run = make_run(tmp_path, final_answer={"valid": True, "answer": answer, "confidence": "high"})
    html = render_html(load_run_view(run))
    box = html.split('<div class="answer-box', 1)[1].split("</div>\n", 2)[0]
    assert "<li>West leads: 412.50 per sale</li>" in box and "<li>East &lt;b&gt;trails&lt;/b&gt;: 300.10" in box
    assert "<b>" not in box and "- West" not in box
