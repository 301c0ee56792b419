// The runs list: every run of the work directory, newest first, filtered by status; refreshed while shown.
import { get } from "/ui/api.js";
import { badge, duration, errorBox, h, modelsText, replace, usd, when } from "/ui/dom.js";

const FILTERS = ["queued", "running", "awaiting_approval", "completed", "completed_with_warnings", "incomplete",
  "failed", "interrupted"];
const REFRESH_MS = 3000;

export async function runsView(main) {
  const select = h("select", { id: "status-filter" },
    h("option", { value: "" }, "every status"),
    FILTERS.map((status) => h("option", { value: status }, status.replaceAll("_", " "))));
  select.value = sessionStorage.getItem("agentic-ds-filter") || "";
  const body = h("div", { id: "runs", "aria-live": "polite" });
  replace(main,
    h("h1", {}, "Runs"),
    h("div", { class: "toolbar" },
      h("label", { for: "status-filter" }, "Status"), select,
      h("a", { class: "button", href: "#/new" }, "New analysis")),
    body);

  let shown = null;   // what the table shows: redrawn only when it changes, so focus stays where it is
  async function load() {
    const status = select.value;
    const url = status ? `/runs?status=${encodeURIComponent(status)}` : "/runs";
    try {
      const { runs } = await get(url);
      const key = status + JSON.stringify(runs);
      if (key === shown) return;
      shown = key;
      replace(body, runs.length ? table(runs) : h("p", {}, status
        ? `No run is ${status.replaceAll("_", " ")}.` : "No runs yet. Start one with New analysis."));
    } catch (err) {
      replace(body, errorBox(err));
    }
  }
  select.addEventListener("change", () => { sessionStorage.setItem("agentic-ds-filter", select.value); load(); });
  await load();
  const timer = setInterval(load, REFRESH_MS);
  return () => clearInterval(timer);
}

function table(runs) {
  const head = ["Title", "Status", "Mode", "Models", "Started", "Wall time", "Cost"];
  return h("table", { class: "runs" },
    h("caption", { class: "small" }, `${runs.length} run${runs.length === 1 ? "" : "s"}, newest first`),
    h("thead", {}, h("tr", {}, head.map((name, i) => h("th", { scope: "col", class: i >= 5 ? "num" : null }, name)))),
    h("tbody", {}, runs.map((run) => h("tr", { "data-run": run.id },
      h("td", { "data-label": "Title" }, h("a", { href: `#/runs/${run.id}` }, run.title || run.task || run.id)),
      h("td", { "data-label": "Status" }, badge(run.status)),
      h("td", { "data-label": "Mode" }, run.mode || "-"),
      h("td", { "data-label": "Models" }, modelsText(run.models)),
      h("td", { "data-label": "Started" }, when(run.started_at)),
      h("td", { "data-label": "Wall time", class: "num" }, duration(run.wall_s)),
      h("td", { "data-label": "Cost", class: "num" }, usd(run.cost_usd))))));
}
