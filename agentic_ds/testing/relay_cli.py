"""`python -m agentic_ds.testing.relay serve|record`: run the relay by hand, or record a cassette with it.

`serve` starts a relay on a folder and prints the api_base and the config to point agentic-ds at it; the
exchanges go to `<folder>/cassette.jsonl`. `record CASSETTE` runs a cassette's command (from its meta.json, or
given after `--` for a new one) against a fresh relay, then writes the cassette and how the run ended into the
cassette's folder; the old cassette is kept until the new run has finished.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from agentic_ds.testing import cassette_run
from agentic_ds.testing.cassette import CASSETTE, META, read_meta, write_meta
from agentic_ds.testing.relay import RelayServer
from agentic_ds.testing.relay_files import write_new

USAGE_NEW = "-- then the agentic-ds arguments of a new cassette, e.g. -- run --mode simple \"...\" --files DATA"
NOTE_TODO = "TODO: what a careful reviewer concludes about this run (its answer, its status, and why)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m agentic_ds.testing.relay")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve a relay on a folder until Ctrl-C")
    serve.add_argument("--dir", type=Path, required=True, help="the folder requests and replies go through")
    serve.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1 (default: any free one)")
    record = commands.add_parser("record", help="record a cassette: run its command against a fresh relay",
                                 epilog=f"A new cassette: {USAGE_NEW}. Without it: the command in its meta.json.")
    record.add_argument("cassette", type=Path, help="the cassette's folder, e.g. tests/cassettes/NAME")
    record.add_argument("--requests", type=Path, default=None,
                        help="the folder requests and replies go through (default: a new temporary folder)")
    record.add_argument("--port", type=int, default=0)
    record.add_argument("--config", type=Path, default=None,
                        help="a new cassette's agentic-ds.yaml settings, over the relay defaults")
    record.add_argument("--then", action="append", default=None, metavar="COMMAND",
                        help="a new cassette's next command on the same run, RUN standing for it "
                             "(e.g. --then \"approve RUN --edit 'also compare medians'\"); repeatable")
    record.add_argument("--note", default=None, help="meta.json's note: what a careful reviewer concludes")
    record.add_argument("--responder", choices=["offline"], default=None,
                        help="answer with the built-in offline model (for fixtures, not capable-model runs)")
    record.add_argument("--in-process", action="store_true", default=None,
                        help="run the CLI in this process (the default with --responder offline: the offline model "
                             "reads its prompts' values, which only the run's own process has)")
    return parser


def run_cli(argv: list[str]) -> int:
    split = argv.index("--") if "--" in argv else len(argv)
    options = _parser().parse_args(argv[:split])
    args = argv[split + 1 :]
    try:
        if options.command == "serve":
            return serve(options.dir, options.port)
        config = yaml.safe_load(options.config.read_text(encoding="utf-8")) if options.config else None
        then = [shlex.split(command) for command in options.then or []]
        return record(options.cassette, args, requests=options.requests, port=options.port, config=config, then=then,
                      note=options.note, responder=options.responder,
                      in_process=options.in_process)
    except (cassette_run.CassetteError, FileExistsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def serve(folder: Path, port: int) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    relay = RelayServer(folder, port=port, cassette=folder / CASSETTE, say=_say)
    relay.start()
    print(f"api_base: {relay.url}", flush=True)
    print(config_snippet(relay.url), flush=True)
    print(f"requests appear in {folder.resolve()} (README.txt there says how to answer); Ctrl-C stops", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        relay.close()
    print(f"relay: {relay.answered} request(s) answered; exchanges in {folder / CASSETTE}")
    return 0


def config_snippet(api_base: str) -> str:
    config = {"model_options": {cassette_run.MODEL: {"api_base": api_base,
                                                      **cassette_run.DEFAULT_CONFIG["model_options"][cassette_run.MODEL]}},
              "calls": cassette_run.DEFAULT_CONFIG["calls"]}
    body = yaml.safe_dump(config, sort_keys=False)
    return f"# agentic-ds.yaml (then: agentic-ds run ... --model {cassette_run.MODEL} --config agentic-ds.yaml)\n{body}"


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def record(
    folder: Path,
    args: list[str],
    *,
    requests: Path | None = None,
    port: int = 0,
    config: dict[str, Any] | None = None,
    then: list[list[str]] | None = None,
    note: str | None = None,
    responder: str | None = None,
    in_process: bool | None = None,
) -> int:
    """Record a run of `args` (or of the cassette's meta.json) through a fresh relay. `in_process` runs the CLI in
    this process; by default only for the offline responder, which reads the values each prompt was rendered from
    (`per_call.latest_context`), and only a run in its own process has them. A helper's run is the real CLI."""
    if in_process is None:
        in_process = responder == "offline"
    folder.mkdir(parents=True, exist_ok=True)
    if args:
        meta = cassette_run.define(folder, args, config, then)
        if (folder / META).is_file():
            meta["note"] = read_meta(folder).get("note", "")
    elif (folder / META).is_file():
        meta = read_meta(folder)
    else:
        raise cassette_run.CassetteError(f"{folder / META} does not exist: give {USAGE_NEW}")
    cassette_run.refresh_inputs(folder, meta)
    workdir = Path(tempfile.mkdtemp(prefix=f"relay-record-{folder.name}-"))
    requests = requests or workdir / "requests"
    fresh = folder / f"{CASSETTE}.new"
    fresh.unlink(missing_ok=True)
    relay = RelayServer(requests, port=port, cassette=fresh, say=_say)
    relay.start()
    helper = _start_responder(responder, requests)
    try:
        argv = cassette_run.prepare(folder, meta, workdir, relay.url, replay=False)
        print(f"relay: {relay.url}; requests appear in {requests.resolve()} (README.txt there says how to answer)",
              flush=True)
        print(f"relay: running {cassette_run.command_line(argv)} in {workdir}", flush=True)
        run = cassette_run.run_in_process if in_process else cassette_run.run_subprocess
        result = cassette_run.run_all(meta, argv, workdir, run, say=lambda text: print(text, flush=True))
    finally:
        if helper is not None:
            helper.stop()
        relay.close()
    write_new(requests / "finished.json", json.dumps({"exit_code": result.exit_code, "status": result.status}))
    if result.status is None:   # refused before a run directory existed (a usage error): nothing to keep
        fresh.unlink(missing_ok=True)
        raise cassette_run.CassetteError(f"the command did not run (exit {result.exit_code}); the cassette is "
                                         "unchanged")
    fresh.replace(folder / CASSETTE)
    meta.update({
        "command": "; ".join(cassette_run.command_line(a) for a in [argv, *cassette_run.continuing(meta, result)]),
        "status": result.status, "exit_code": result.exit_code, "reason": result.reason,
        "recorded": {"at": datetime.now(UTC).isoformat(timespec="seconds"), "commit": _commit(),
                     "responder": responder or "outside responder (see note)", "exchanges": relay.answered},
        "note": note if note is not None else meta.get("note") or NOTE_TODO,
    })
    write_meta(folder, meta)
    print(f"relay: recorded {relay.answered} exchange(s) into {folder / CASSETTE}; the run ended "
          f"{result.status} (exit {result.exit_code}); run directory: {result.run_dir}")
    if meta["note"] == NOTE_TODO:
        print(f"relay: now write meta.json's note in {folder / META}")
    return 0


def _start_responder(kind: str | None, folder: Path) -> Any:
    if kind != "offline":
        return None
    from agentic_ds.testing.relay_responder import OfflineResponder

    return OfflineResponder(folder).start()


def _commit() -> str:
    import subprocess

    found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=cassette_run.REPO, capture_output=True,
                           text=True, check=False)
    return found.stdout.strip()
