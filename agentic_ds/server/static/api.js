// The API of `agentic-ds serve`, as the page calls it: the token on every call, errors as {error, hint}.
const KEY = "agentic-ds-token";

export class ApiError extends Error {
  constructor(status, error, hint) {
    super(error);
    this.status = status;
    this.hint = hint || "";
  }
}

export function token() {
  return sessionStorage.getItem(KEY) || "";
}

export function setToken(value) {
  if (value) sessionStorage.setItem(KEY, value);
  else sessionStorage.removeItem(KEY);
}

// A token given in the page's address (?token=...) is kept for this tab and taken out of the address bar.
export function takeTokenFromAddress() {
  const url = new URL(location.href);
  const given = url.searchParams.get("token");
  if (given) {
    setToken(given);
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
}

// A URL the browser fetches itself (an iframe, an image, EventSource, a download): the token goes in the query.
export function withToken(url) {
  const t = token();
  if (!t) return url;
  return url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(t);
}

async function call(method, url, body, asText = false) {
  const headers = {};
  const t = token();
  if (t) headers.Authorization = "Bearer " + t;
  let payload = body;
  if (body !== undefined && !(body instanceof FormData)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let reply;
  try {
    reply = await fetch(url, { method, headers, body: payload, cache: "no-store" });
  } catch (err) {
    throw new ApiError(0, "the server cannot be reached", "is `agentic-ds serve` still running?");
  }
  const text = await reply.text();
  if (asText && reply.ok) return text;
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!reply.ok) {
    const error = data && data.error ? data.error : `HTTP ${reply.status}`;
    throw new ApiError(reply.status, error, data && data.hint);
  }
  return data;
}

export const get = (url) => call("GET", url);
export const getText = (url) => call("GET", url, undefined, true);
export const post = (url, body) => call("POST", url, body);
