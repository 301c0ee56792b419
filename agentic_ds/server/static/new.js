// The new-analysis form: task, mode, model per role, files (dropped, picked, or under the server's data roots),
// budgets, and whether the plan waits for approval. It posts to POST /runs and opens the new run.
import { get, post } from "/ui/api.js";
import { errorBox, h, replace } from "/ui/dom.js";

const SHOWN_DATA_FILES = 300;

export async function newRunView(main) {
  const choices = await get("/choices");
  const uploads = [];   // File objects, dropped or picked

  const task = h("textarea", { id: "task", name: "task", rows: 3, required: true, "aria-describedby": "task-hint",
    placeholder: "e.g. Which region has the highest mean price, and by how much?" });
  const modes = h("div", { class: "choices" }, choices.modes.map((mode, i) => h("label", {},
    h("input", { type: "radio", name: "mode", value: mode, checked: i === 0 }), " ", mode,
    h("span", { class: "small" }, mode === "simple" ? " (one agent pass, fast)" : " (plan, staged code, reviews)"))));
  const approve = h("input", { type: "checkbox", id: "approve_plan", name: "approve_plan" });
  modes.addEventListener("change", () => {
    const simple = modes.querySelector("input:checked").value === "simple";
    approve.disabled = simple;
    if (simple) approve.checked = false;
  });

  const picked = h("ul", { class: "picked", id: "picked", "aria-live": "polite" });
  const fileInput = h("input", { type: "file", id: "file-input", multiple: true });
  const drop = h("div", { class: "dropzone", id: "dropzone" },
    h("p", {}, "Drop data files here, or "), h("label", { for: "file-input" }, "choose files: "), fileInput);
  const addFiles = (list) => {
    for (const file of list) uploads.push(file);
    showPicked();
  };
  const showPicked = () => replace(picked, uploads.map((file, i) => h("li", {},
    h("span", {}, `${file.name} (${(file.size / 1024).toFixed(1)} KB)`),
    h("button", { type: "button", class: "secondary", "aria-label": `Remove ${file.name}`,
      onclick: () => { uploads.splice(i, 1); showPicked(); } }, "Remove"))));
  fileInput.addEventListener("change", () => { addFiles(fileInput.files); fileInput.value = ""; });
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    addFiles(event.dataTransfer.files);
  });

  const dataFiles = choices.data_files.slice(0, SHOWN_DATA_FILES);
  const dataBox = dataFiles.length ? h("fieldset", {},
    h("legend", {}, "Files on the server"),
    h("div", { class: "data-files", id: "data-files" }, dataFiles.map((file, i) => h("label", {},
      h("input", { type: "checkbox", name: "path", value: file.path, id: `data-${i}` }), " ", file.path,
      h("span", { class: "small" }, ` (${(file.size / 1024).toFixed(1)} KB)`)))),
    choices.data_truncated || choices.data_files.length > SHOWN_DATA_FILES
      ? h("p", { class: "small" }, `Only the first ${dataFiles.length} files are listed.`) : null)
    : null;

  const datalist = h("datalist", { id: "model-suggestions" },
    choices.suggested_models.map((model) => h("option", { value: model })));
  const models = h("div", { class: "grid" }, choices.roles.map((role) => h("div", {},
    h("label", { for: `model-${role}` }, role), h("input", { id: `model-${role}`, name: `model-${role}`, list: "model-suggestions", autocomplete: "off",
      placeholder: choices.models[role] || "a model string" }))));

  const number = (id, label, attrs) => h("div", {}, h("label", { for: id }, label),
    h("input", { id, name: id, type: "number", inputmode: "decimal", ...attrs }));
  const sandbox = h("select", { id: "sandbox", name: "sandbox" },
    h("option", { value: "" }, "as configured"), choices.sandbox.map((mode) => h("option", { value: mode }, mode)));

  const errors = h("div", { id: "form-errors" });
  const submit = h("button", { type: "submit", id: "start" }, "Start the analysis");
  const form = h("form", { id: "new-run", "aria-labelledby": "new-title", novalidate: true },
    h("h1", { id: "new-title" }, "New analysis"),
    h("div", { class: "field" }, h("label", { for: "task" }, "Task"),
      h("span", { class: "hint small", id: "task-hint" }, "The question to answer, as for agentic-ds run TASK"), task),
    h("fieldset", {}, h("legend", {}, "Mode"), modes,
      h("p", {}, approve, " ", h("label", { for: "approve_plan" }, "Approve the plan before running"),
        h("span", { class: "small" }, " (orchestrated only: the run waits for your decision on its plan)"))),
    h("fieldset", {}, h("legend", {}, "Data"), drop, picked), dataBox,
    h("fieldset", {}, h("legend", {}, "Models"),
      h("p", { class: "small", id: "models-reason" }, "Leave a role empty for its default (shown greyed): ",
        choices.models_reason), models, datalist),
    h("fieldset", {}, h("legend", {}, "Budgets and sandbox"), h("div", { class: "grid" },
      number("max_cost", "Max cost (USD)", { min: "0", step: "0.01" }),
      number("max_llm_calls", "Max LLM calls", { min: "1", step: "1" }),
      number("max_tokens", "Max tokens", { min: "1", step: "1" }),
      h("div", {}, h("label", { for: "sandbox" }, "Sandbox"), sandbox))),
    errors, submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    replace(errors);
    const body = new FormData();
    body.append("task", task.value);
    body.append("mode", form.querySelector("input[name=mode]:checked").value);
    for (const role of choices.roles) {
      const value = form.querySelector(`#model-${role}`).value.trim();
      if (value) body.append("model", `${role}=${value}`);
    }
    for (const box of form.querySelectorAll("input[name=path]:checked")) body.append("path", box.value);
    for (const file of uploads) body.append("file", file, file.name);
    for (const name of ["max_cost", "max_llm_calls", "max_tokens", "sandbox"]) {
      const value = form.querySelector(`#${name}`).value.trim();
      if (value) body.append(name, value);
    }
    if (approve.checked) body.append("approve_plan", "true");
    submit.disabled = true;
    submit.textContent = "Starting…";
    try {
      const run = await post("/runs", body);
      location.hash = `#/runs/${run.id}`;
    } catch (err) {
      replace(errors, errorBox(err));
      errors.querySelector("[role=alert]").setAttribute("tabindex", "-1");
      errors.querySelector("[role=alert]").focus();
      submit.disabled = false;
      submit.textContent = "Start the analysis";
    }
  });
  replace(main, form);
  task.focus();
  return null;
}
