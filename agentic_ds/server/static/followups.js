// Follow-up questions under a finished run: asked here, answered by their own process in turn, each shown with
// its answer, status, code and figures, in order. They are read from the server, so they survive a reload.
import { get, getText, post, withToken } from "/ui/api.js";
import { badge, errorBox, h, replace } from "/ui/dom.js";

const POLL_MS = 2000;
const BUSY = new Set(["queued", "running"]);

export function followupsSection(runId) {
  const list = h("ol", { class: "followups", id: "followups" });
  const errors = h("div");
  const question = h("textarea", { id: "followup-question", rows: 2, required: true,
    placeholder: "e.g. What is the median price per region?" });
  const ask = h("button", { type: "submit", id: "ask" }, "Ask");
  const form = h("form", { id: "followup-form" },
    h("div", { class: "field" }, h("label", { for: "followup-question" }, "Ask a follow-up question"), question),
    errors, ask);
  let timer = null;
  let stopped = false;

  const load = async () => {
    timer = null;
    try {
      const { followups } = await get(`/runs/${runId}/followups`);
      if (stopped) return;
      replace(list, followups.map(item));
      if (followups.some((f) => BUSY.has(f.status))) timer = setTimeout(load, POLL_MS);
    } catch (err) {
      replace(errors, errorBox(err));
    }
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    replace(errors);
    ask.disabled = true;
    try {
      await post(`/runs/${runId}/followups`, { question: question.value });
      question.value = "";
      if (timer !== null) clearTimeout(timer);
      await load();
    } catch (err) {
      replace(errors, errorBox(err));
    } finally {
      ask.disabled = false;
    }
  });
  load();
  const el = h("section", { "aria-labelledby": "followups-title" },
    h("h2", { id: "followups-title" }, "Follow-up questions"), list, form);
  return { el, stop: () => { stopped = true; if (timer !== null) clearTimeout(timer); } };
}

function item(followup) {
  const file = (rel) => withToken(`/runs/${followup.run_id}/files/${rel}`);
  const figures = followup.outputs.filter((rel) => /\.(png|jpe?g|gif|webp)$/i.test(rel));
  const others = followup.outputs.filter((rel) => !figures.includes(rel));
  const busy = BUSY.has(followup.status);
  return h("li", { "data-followup": followup.id, "data-status": followup.status },
    h("p", {}, h("strong", {}, followup.question), " ", badge(followup.status)),
    busy ? h("p", { class: "small" }, followup.status === "queued" ? "Waiting for a slot…" : "Being answered…") : [
      h("p", { class: "followup-answer" }, followup.answer || "No answer."),
      followup.confidence ? h("p", { class: "small" }, `Confidence: ${followup.confidence}`) : null,
      followup.reason ? h("p", { class: "small" }, followup.reason) : null,
      figures.map((rel) => h("figure", {}, h("img", { class: "followup-figure", src: file(rel), alt: `Figure ${rel}` }),
        h("figcaption", { class: "small" }, rel))),
      followup.code.map((rel) => codeBlock(followup.run_id, rel)),
      others.length ? h("details", {}, h("summary", {}, "Files it wrote"),
        h("ul", {}, others.map((rel) => h("li", {},
          h("a", { href: file(rel), target: "_blank", rel: "noopener" }, rel))))) : null,
      h("p", { class: "small" }, h("a", { href: withToken(followup.report), target: "_blank", rel: "noopener" },
        "Its report")),
    ]);
}

// The follow-up's code, fetched when its block is opened.
function codeBlock(runId, rel) {
  const pre = h("pre", { class: "followup-code" }, "Loading…");
  const block = h("details", {}, h("summary", {}, `Code: ${rel}`), pre);
  block.addEventListener("toggle", () => {
    if (!block.open || pre.dataset.loaded) return;
    pre.dataset.loaded = "1";
    getText(`/runs/${runId}/files/${rel}`).then((text) => replace(pre, text), (err) => replace(pre, err.message));
  });
  return block;
}
