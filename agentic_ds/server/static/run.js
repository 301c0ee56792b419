// One run: live while it goes (its events over SSE, replayed from the start on a reload, resumed after a broken
// stream from the last event shown: ?last_event_id=N), the plan decision when it waits for one, and once it has ended its
// answer, report, files, record and follow-ups.
import { get, post, withToken } from "/ui/api.js";
import { badge, count, duration, errorBox, h, meaning, modelsText, replace, RESUMABLE, SETTLED, usd, when }
  from "/ui/dom.js";
import { followupsSection } from "/ui/followups.js";
import { finishedSections } from "/ui/record.js";

const REVIEWERS = new Set(["code_reviewer", "impl_confirmation"]);
const PLAN_REVIEWERS = new Set(["plan_reviewer", "plan_confirmation"]);
const SHOWN_EVENTS = 200;
const REFRESH_MS = 1000;
const RETRY_MS = 1000;
const RETRY_MAX_MS = 10000;

export async function runView(main, id) {
  let detail = await get(`/runs/${id}`);
  const parts = {
    header: h("div", { id: "run-header" }),
    note: h("p", { id: "status-note", role: "status", class: "small" }),
    actions: h("div", { class: "toolbar", id: "run-actions" }),
    approval: h("div", { id: "approval" }),
    live: h("div", { id: "live" }),
    finished: h("div", { id: "finished" }),
    plan: h("div", { id: "plan" }),
  };
  const log = eventLog();
  replace(main, Object.values(parts), log.el);
  let finishedKey = null;
  let approvalKey = null;
  let headerKey = null;
  let actionsKey = null;
  let planKey = null;
  let followups = null;
  let source = null;
  let timer = null;
  let reconnect = null;
  let retries = 0;

  const refresh = async () => {
    timer = null;
    try {
      detail = await get(`/runs/${id}`);
      render();
    } catch (err) {
      replace(parts.note, errorBox(err));
    }
  };
  const soon = () => { if (timer === null) timer = setTimeout(refresh, REFRESH_MS); };

  const connect = () => {
    if (reconnect !== null) { clearTimeout(reconnect); reconnect = null; }
    if (source) source.close();
    const after = log.lastId ? `?last_event_id=${log.lastId}` : "";
    source = new EventSource(withToken(`/runs/${id}/events${after}`));
    source.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.kind === "stream_end") {
        source.close();
        source = null;
        refresh();
      } else if (data.kind === "run_status") {
        refresh();
      } else {
        log.add(Number(message.lastEventId), data);
        soon();
      }
    };
    source.onopen = () => { retries = 0; };
    // The stream broke before its end (the network, a restarted server): connect again, asking for what came
    // after the last event shown, so nothing is lost and nothing shown twice.
    source.onerror = () => {
      if (!source) return;
      source.close();
      source = null;
      retries += 1;
      replace(parts.note, "The event stream broke: reconnecting…");
      reconnect = setTimeout(() => { reconnect = null; connect(); replace(parts.note); },
        Math.min(RETRY_MAX_MS, RETRY_MS * retries));
    };
  };

  const act = async (button, url, body, doing) => {
    button.disabled = true;
    replace(parts.note, doing);
    try {
      detail = await post(url, body);
      replace(parts.note);
      await refresh();
      if (!source) connect();
    } catch (err) {
      replace(parts.note, errorBox(err));
      button.disabled = false;
    }
  };

  function render() {
    const run = detail;
    document.title = `${run.title || run.task || run.id} · agentic-ds`;
    const settled = SETTLED.has(run.status);
    const heads = JSON.stringify([run.title, run.task, run.status, run.reason, run.mode, run.models, run.started_at,
      run.wall_s, run.tokens, run.cost_usd, run.queue]);
    if (heads !== headerKey) {   // redrawn only when it changes, so focus and selection stay
      headerKey = heads;
      renderHeader(run);
    }
    const acts = `${run.status}|${run.has_report}`;
    if (acts !== actionsKey) {
      actionsKey = acts;
      renderActions(run);
    }
    renderApproval(run);
    replace(parts.live, settled || run.status === "awaiting_approval" ? null : liveSection(run));
    const plans = JSON.stringify([run.plan_markdown, (run.stages || []).map((stage, i) =>
      [stage.title, stage.attempts, stageState(stage, i, run)]), PLAN_REVIEWERS.has((run.live || {}).agent), settled]);
    if (plans !== planKey) {
      planKey = plans;
      replace(parts.plan, planSection(run));
    }
    const key = settled ? `${run.status}|${run.ended_at}|${run.has_report}` : null;
    if (key !== finishedKey) {
      finishedKey = key;
      if (followups) followups.stop();
      followups = null;
      if (settled) {
        followups = followupsSection(id);
        const sections = finishedSections(run);
        replace(parts.finished, sections.top, followups.el, sections.bottom);
      } else {
        replace(parts.finished);
      }
    }
  }

  function renderHeader(run) {
    replace(parts.header,
      h("p", { class: "small" }, h("a", { href: "#/" }, "Runs"), " / ", run.id),
      h("h1", {}, run.title || run.task || run.id),
      h("p", { id: "run-status" }, "Status: ", badge(run.status), " ",
        h("span", { id: "run-reason" }, run.reason || meaning(run.status))),
      h("dl", { class: "meta" },
        h("dt", {}, "Task"), h("dd", {}, run.task),
        h("dt", {}, "Mode"), h("dd", {}, run.mode),
        h("dt", {}, "Models"), h("dd", {}, modelsText(run.models)),
        h("dt", {}, "Started"), h("dd", {}, when(run.started_at)),
        h("dt", {}, "Wall time"), h("dd", {}, duration(run.wall_s)),
        h("dt", {}, "Tokens"), h("dd", { id: "run-tokens" },
          `${count(run.tokens.input)} in, ${count(run.tokens.output)} out, ${count(run.tokens.llm_calls)} LLM calls`),
        h("dt", {}, "Cost"), h("dd", { id: "run-cost" }, usd(run.cost_usd)),
        run.queue ? [h("dt", {}, "Queue"), h("dd", {}, `position ${run.queue.position} (${run.queue.action})`)] : null));
  }

  function renderActions(run) {
    const buttons = [];
    if (run.status === "queued" || run.status === "running") {
      const cancel = h("button", { type: "button", class: "danger", id: "cancel" }, "Cancel run");
      cancel.addEventListener("click", () => act(cancel, `/runs/${id}/cancel`, undefined, "Cancelling…"));
      buttons.push(cancel);
    }
    if (RESUMABLE.has(run.status)) {
      const resume = h("button", { type: "button", class: "secondary", id: "resume" }, "Resume run");
      resume.addEventListener("click", () => act(resume, `/runs/${id}/resume`, {}, "Resuming…"));
      buttons.push(resume);
    }
    if (run.has_report) {
      buttons.push(h("a", { class: "button secondary", href: withToken(`/runs/${id}/report`), target: "_blank",
        rel: "noopener" }, "Open the report"));
    }
    replace(parts.actions, buttons);
  }

  function renderApproval(run) {
    const waiting = run.status === "awaiting_approval";
    const key = waiting ? `${(run.approval && run.approval.decisions || []).length}|${run.plan_markdown}` : null;
    if (key === approvalKey) return;
    approvalKey = key;
    if (!waiting) { replace(parts.approval); return; }
    const notes = h("textarea", { id: "edit-notes", rows: 3 });
    const approve = h("button", { type: "button", id: "approve" }, "Approve the plan");
    const edit = h("button", { type: "button", class: "secondary", id: "edit" }, "Send notes to the planner");
    const stop = h("button", { type: "button", class: "danger", id: "stop" }, "Stop the run");
    approve.addEventListener("click", () => act(approve, `/runs/${id}/approval`, { decision: "approve" }, "Approving…"));
    stop.addEventListener("click", () => act(stop, `/runs/${id}/approval`, { decision: "stop" }, "Stopping…"));
    edit.addEventListener("click", () => act(edit, `/runs/${id}/approval`, { decision: "edit", notes: notes.value },
      "Sending the notes…"));
    const decisions = (run.approval && run.approval.decisions) || [];
    replace(parts.approval, h("section", { class: "panel", "aria-labelledby": "approval-title" },
      h("h2", { id: "approval-title" }, "The plan waits for your decision"),
      h("p", {}, "No stage has run yet. Approve the plan, send the planner notes to change it, or stop the run."),
      decisions.length ? h("p", { class: "small" }, `Decisions so far: ${decisions.map((d) => d.decision).join(", ")}`)
        : null,
      h("pre", { id: "plan-text" }, run.plan_markdown || "(no plan.md)"),
      h("div", { class: "toolbar" }, approve, stop),
      h("div", { class: "field" }, h("label", { for: "edit-notes" }, "Notes for the planner (edit)"), notes), edit));
  }

  render();
  connect();
  return () => {
    if (source) source.close();
    source = null;
    if (timer !== null) clearTimeout(timer);
    if (reconnect !== null) clearTimeout(reconnect);
    if (followups) followups.stop();
  };
}

function liveSection(run) {
  const live = run.live || {};
  const call = live.last_tool_call;
  const result = live.last_tool_result;
  const stage = live.stage ? `stage ${live.stage.index} of ${live.stage.count}: ${live.stage.title}` : null;
  return h("section", { class: "panel", "aria-labelledby": "live-title" },
    h("h2", { id: "live-title" }, "Now"),
    h("dl", { class: "meta" },
      h("dt", {}, "Agent working"), h("dd", { id: "live-agent" }, live.agent || (run.status === "queued"
        ? "none yet: the run waits for a slot" : "starting")),
      stage ? [h("dt", {}, "Stage"), h("dd", { id: "live-stage" }, stage,
        live.iteration ? ` (round ${live.iteration})` : "")] : null,
      call ? [h("dt", {}, "Latest tool call"), h("dd", { id: "live-call" },
        h("code", {}, call.tool), ` by ${call.author}`, h("pre", {}, clip(call.args, 1500)))] : null,
      result ? [h("dt", {}, "Its output"), h("dd", { id: "live-output" }, h("pre", {}, clip(result.text, 2000)))] : null,
      live.last_text ? [h("dt", {}, "Latest words"), h("dd", {}, `${live.last_text.author}: `,
        clip(live.last_text.text, 600))] : null,
      h("dt", {}, "So far"), h("dd", {}, `${count(run.tokens.input + run.tokens.output)} tokens, `,
        `${count(run.tokens.llm_calls)} LLM calls, ${usd(run.cost_usd)}`)));
}

function planSection(run) {
  const stages = run.stages || [];
  const live = run.live || {};
  if (!stages.length && !run.plan_markdown) return null;
  const reviewing = PLAN_REVIEWERS.has(live.agent) && !SETTLED.has(run.status);
  return h("section", { "aria-labelledby": "plan-title" },
    h("h2", { id: "plan-title" }, "Plan and stages"),
    !stages.length && run.plan_markdown ? [
      h("p", {}, reviewing ? "The plan is under review." : "The plan as it is made:"),
      h("pre", {}, run.plan_markdown)] : null,
    stages.length ? h("ol", { class: "stages", id: "stages" }, stages.map((stage, i) => {
      const state = stageState(stage, i, run);
      return h("li", { "data-stage-state": state }, stage.title, " ", badge(state, "stage"),
        stage.attempts ? h("span", { class: "small" }, ` ${stage.attempts} attempt${stage.attempts === 1 ? "" : "s"}`)
          : null);
    })) : null,
    stages.length && run.plan_markdown && !SETTLED.has(run.status)
      ? h("details", {}, h("summary", {}, "The plan"), h("pre", {}, run.plan_markdown)) : null);
}

function stageState(stage, index, run) {
  const live = run.live || {};
  const here = live.stage && live.stage.index === index + 1;
  if (stage.status === "running" && here && REVIEWERS.has(live.agent) && !SETTLED.has(run.status)) {
    return "under_review";
  }
  return stage.status || "pending";
}

function clip(text, limit) {
  const value = String(text || "");
  return value.length > limit ? value.slice(0, limit) + ` … (${value.length - limit} more characters)` : value;
}

// Every event of the run, in order, once: lines of events.jsonl by their ids. A gap would be said.
function eventLog() {
  const list = h("ol", { class: "events", id: "events" });
  const counter = h("p", { id: "event-count", class: "small" }, "No events yet.");
  const el = h("section", { "aria-labelledby": "events-title" },
    h("h2", { id: "events-title" }, "Events"), counter,
    h("details", {}, h("summary", {}, "Show the events"), list));
  const state = { el, lastId: 0, seen: 0, missing: 0 };
  state.add = (eventId, data) => {
    if (!eventId || eventId <= state.lastId) return;   // already shown (a replay after a reconnect)
    state.missing += eventId - state.lastId - 1;
    state.lastId = eventId;
    state.seen += 1;
    list.append(h("li", { "data-id": eventId }, `#${eventId} `, describe(data)));
    while (list.childElementCount > SHOWN_EVENTS) list.firstElementChild.remove();
    replace(counter, `${state.seen} events`, state.missing ? `, ${state.missing} missing` : "",
      list.childElementCount < state.seen ? ` (the last ${list.childElementCount} shown)` : "");
    counter.dataset.count = String(state.seen);
    counter.dataset.missing = String(state.missing);
  };
  return state;
}

function describe(event) {
  const who = event.author ? `${event.author} ` : "";
  if (event.kind === "tool_call") return `${who}→ ${event.tool}(${clip(event.args, 160)})`;
  if (event.kind === "tool_result") return `${who}← ${event.tool}: ${clip(event.text, 160)}`;
  return `${who}${event.kind}: ${clip(event.text, 200)}`;
}
