// The page: one view at a time, chosen by the address's #fragment (#/, #/new, #/runs/ID).
import { ApiError, get, setToken, takeTokenFromAddress } from "/ui/api.js";
import { errorBox, h, replace, setStatusWords } from "/ui/dom.js";
import { newRunView } from "/ui/new.js";
import { runView } from "/ui/run.js";
import { runsView } from "/ui/runs.js";

const main = document.getElementById("main");
let leave = null;

function route() {
  const hash = location.hash || "#/";
  const run = hash.match(/^#\/runs\/([A-Za-z0-9][A-Za-z0-9._-]*)$/);
  if (run) return { name: "run", view: (el) => runView(el, run[1]) };
  if (hash === "#/new") return { name: "new", view: newRunView };
  return { name: "runs", view: runsView };
}

async function show() {
  if (leave) leave();
  leave = null;
  const { name, view } = route();
  document.getElementById("nav-runs").toggleAttribute("aria-current", name === "runs");
  document.getElementById("nav-new").toggleAttribute("aria-current", name === "new");
  if (name === "runs") document.getElementById("nav-runs").setAttribute("aria-current", "page");
  if (name === "new") document.getElementById("nav-new").setAttribute("aria-current", "page");
  replace(main, h("p", { class: "small" }, "Loading…"));
  try {
    leave = await view(main) || null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) askForToken(err);
    else replace(main, errorBox(err));
  }
}

function askForToken(err) {
  const input = h("input", { id: "token", type: "password", autocomplete: "current-password", required: true });
  const form = h("form", { class: "panel", "aria-labelledby": "token-title" },
    h("h1", { id: "token-title" }, "This server needs its token"),
    h("p", {}, err.message, ". ", err.hint || ""),
    h("div", { class: "field" }, h("label", { for: "token" }, "Token"), " ", input),
    h("button", { type: "submit" }, "Continue"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    setToken(input.value.trim());
    start();
  });
  replace(main, form);
  input.focus();
}

async function start() {
  try {
    const server = await get("/server");
    setStatusWords(server);
    const roots = server.data_roots.length ? `data roots: ${server.data_roots.join(", ")}` : "no data roots";
    replace(document.getElementById("server-info"),
      `${server.workdir} · ${server.running} running, ${server.queued} queued (at most ${server.max_runs}) · ${roots}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) { askForToken(err); return; }
    replace(main, errorBox(err));
    return;
  }
  show();
}

takeTokenFromAddress();
window.addEventListener("hashchange", () => { show(); main.focus(); });
start();
