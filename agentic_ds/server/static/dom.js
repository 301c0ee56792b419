// Small helpers to build the page from data: text is always set as text, never parsed as HTML.
let words = { statuses: {}, stage_statuses: {} };

export function setStatusWords(server) {
  words = { statuses: server.statuses || {}, stage_statuses: server.stage_statuses || {} };
}

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// A status as the report shows it: its words as text (readable with no colour) in the report's colour.
export function badge(status, kind = "run") {
  const table = kind === "stage" ? words.stage_statuses : words.statuses;
  const known = table[status] || (kind === "stage" ? words.statuses[status] : null);
  const label = known ? known.label : String(status || "unknown").replaceAll("_", " ");
  const tone = known ? known.tone : "neutral";   // e.g. a stage "under review": the page's own word
  return h("span", { class: `badge tone-${tone}`, "data-status": status, title: known ? known.meaning : null }, label);
}

export function meaning(status) {
  const known = words.statuses[status];
  return known ? known.meaning : "";
}

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "-";
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const total = Math.round(seconds);
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes} min ${String(total % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

export function usd(amount) {
  if (amount === null || amount === undefined) return "-";
  if (amount === 0) return "$0.00";
  return amount < 0.01 ? `$${amount.toFixed(4)}` : `$${amount.toFixed(2)}`;
}

export function count(n) {
  return n === null || n === undefined ? "-" : Number(n).toLocaleString("en-US");
}

// ISO time as `2026-11-27 09:59 UTC`.
export function when(iso) {
  if (!iso) return "-";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

export function modelsText(models) {
  const specs = [...new Set(Object.values(models || {}))];
  return specs.length ? specs.join(", ") : "-";
}

export function errorBox(err) {
  return h("div", { class: "alert", role: "alert" },
    h("strong", {}, "Error: "), err.message || String(err),
    err.hint ? h("div", {}, h("strong", {}, "What to do: "), err.hint) : null);
}

export const SETTLED = new Set(["completed", "completed_with_warnings", "incomplete", "failed", "interrupted", "unknown"]);
export const RESUMABLE = new Set(["incomplete", "failed", "interrupted"]);
