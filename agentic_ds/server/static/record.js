// A finished run: the answer and its confidence first, the asks with the judge's verdicts, the report itself,
// the files (code, outputs, figures, the notebook to download) and the run record (status, reason, criteria,
// cost per agent and model).
import { get, withToken } from "/ui/api.js";
import { badge, count, duration, errorBox, h, meaning, replace, usd, when } from "/ui/dom.js";

// The answer and the report first, then (after the follow-ups) the files and the record.
export function finishedSections(run) {
  return { top: [answerSection(run), reportSection(run)], bottom: [filesSection(run), recordSection(run)] };
}

function answerSection(run) {
  const answer = run.final_answer;
  const asks = (answer && answer.asks) || [];
  const answered = run.status === "completed" || run.status === "completed_with_warnings";
  const tone = answered ? (run.status === "completed" ? "good" : "warn") : "bad";
  return h("section", { "aria-labelledby": "answer-title", id: "answer" },
    h("h2", { id: "answer-title" }, "Answer"),
    h("div", { class: `answer tone-${tone}` },
      answer && answer.answer ? h("p", { id: "answer-text" }, answer.answer) : h("p", { id: "answer-text" }, "No answer."),
      answer && answer.confidence ? h("p", { id: "answer-confidence" }, h("strong", {}, "Confidence: "),
        answer.confidence, answer.confidence_basis ? ` (${answer.confidence_basis})` : "") : null,
      h("p", {}, "Status: ", badge(run.status), " ", run.reason || meaning(run.status))),
    asks.length ? h("div", { class: "scroll" }, h("table", { id: "asks" },
      h("caption", { class: "small" }, "Each ask of the task, its answer, and the judge's verdict"),
      h("thead", {}, h("tr", {}, ["Ask", "Answered", "Answer", "Judge", "Why"].map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, asks.map((ask) => h("tr", {},
        h("td", {}, ask.ask), h("td", {}, ask.answered ? `yes (${ask.basis || "answered"})` : h("strong", {}, "no")),
        h("td", {}, ask.answer || "-"), h("td", {}, ask.judge || "-"), h("td", {}, ask.why || "-")))))) : null);
}

function reportSection(run) {
  if (!run.has_report) return h("section", {}, h("h2", {}, "Report"), h("p", {}, "This run has no report yet."));
  const url = withToken(`/runs/${run.id}/report`);
  return h("section", { "aria-labelledby": "report-title" },
    h("h2", { id: "report-title" }, "Report"),
    h("p", { class: "small" }, "The run's report.html: figures, tables, each stage's code and output. ",
      h("a", { href: url, target: "_blank", rel: "noopener" }, "Open it in a new tab"), "."),
    h("iframe", { class: "report", id: "report", src: url, title: `Report of ${run.title || run.id}` }));
}

const GROUPS = [
  ["notebook", "Notebook"], ["code", "Code"], ["output", "Outputs"], ["figure", "Figures"], ["report", "Report files"],
  ["plan", "Plan"], ["input", "Inputs"],
];

function filesSection(run) {
  const body = h("div", { id: "files" }, h("p", { class: "small" }, "Loading the files…"));
  get(`/runs/${run.id}/files`).then(({ files, truncated }) => {
    const groups = GROUPS.map(([kind, title]) => {
      const found = files.filter((file) => file.kind === kind);
      if (!found.length) return null;
      return [h("h3", {}, title), h("ul", { class: "files" }, found.map((file) => h("li", {},
        h("a", { href: withToken(file.url), target: "_blank", rel: "noopener" }, file.path),
        h("span", { class: "small" }, ` ${(file.size / 1024).toFixed(1)} KB `),
        h("a", { href: withToken(`${file.url}?download=true`), download: file.path.split("/").pop(),
          "aria-label": `Download ${file.path}` }, "download"))))];
    });
    replace(body, groups, truncated ? h("p", { class: "small" }, "Only part of the files are listed.") : null);
  }, (err) => replace(body, errorBox(err)));
  return h("section", { "aria-labelledby": "files-title" }, h("h2", { id: "files-title" }, "Files"), body);
}

function recordSection(run) {
  const record = run.record || {};
  const criteria = run.criteria || [];
  const ledger = record.ledger || [];
  const byModel = (record.cost && record.cost.by_model) || {};
  const attempts = record.attempts || [];
  const met = (value) => value === true ? "met" : value === false ? "not met" : "not checked";
  return h("section", { "aria-labelledby": "record-title", id: "record" },
    h("h2", { id: "record-title" }, "Run record"),
    h("dl", { class: "meta" },
      h("dt", {}, "Status"), h("dd", {}, badge(run.status), " ", meaning(run.status)),
      h("dt", {}, "Reason"), h("dd", { id: "record-reason" }, run.reason || "-"),
      h("dt", {}, "Started"), h("dd", {}, when(run.started_at)),
      h("dt", {}, "Ended"), h("dd", {}, when(run.ended_at)),
      h("dt", {}, "Wall time"), h("dd", {}, duration(run.wall_s)),
      h("dt", {}, "Attempts"), h("dd", {}, attempts.length
        ? attempts.map((a) => `${a.status.replaceAll("_", " ")} (${duration(a.wall_s)})`).join(", ") : "-"),
      h("dt", {}, "Cost"), h("dd", {}, usd(run.cost_usd))),
    criteria.length ? [h("h3", {}, "Success criteria"), h("div", { class: "scroll" }, h("table", { id: "criteria" },
      h("thead", {}, h("tr", {}, ["Criterion", "Met", "Evidence"].map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, criteria.map((c) => h("tr", {}, h("td", {}, c.text),
        h("td", {}, h("span", { class: `badge tone-${c.met === true ? "good" : c.met === false ? "bad" : "neutral"}` },
          met(c.met))), h("td", {}, c.evidence || "-"))))))] : null,
    h("h3", {}, "Cost per agent and model"),
    ledger.length ? h("div", { class: "scroll" }, h("table", { id: "cost-agents" },
      h("thead", {}, h("tr", {}, ["Agent", "Model", "Calls", "Input tokens", "Output tokens", "Cost"].map((name, i) =>
        h("th", { scope: "col", class: i >= 2 ? "num" : null }, name)))),
      h("tbody", {}, ledger.map((row) => h("tr", {}, h("td", {}, row.agent), h("td", {}, row.model),
        h("td", { class: "num" }, count(row.calls)), h("td", { class: "num" }, count(row.input_tokens)),
        h("td", { class: "num" }, count(row.output_tokens)), h("td", { class: "num" }, usd(row.usd))))))) :
      h("p", {}, "No model call was recorded."),
    Object.keys(byModel).length ? h("div", { class: "scroll" }, h("table", { id: "cost-models" },
      h("thead", {}, h("tr", {}, ["Model", "Calls", "Input tokens", "Output tokens", "Cost"].map((name, i) =>
        h("th", { scope: "col", class: i >= 1 ? "num" : null }, name)))),
      h("tbody", {}, Object.entries(byModel).map(([model, row]) => h("tr", {}, h("td", {}, model),
        h("td", { class: "num" }, count(row.calls)), h("td", { class: "num" }, count(row.input_tokens)),
        h("td", { class: "num" }, count(row.output_tokens)), h("td", { class: "num" }, usd(row.usd))))))) : null);
}
