"""What the package declares and bundles: every third-party import is a declared dependency, the pins hold,
and a missing prompts or skills folder stops `run` before a run directory is created."""

from __future__ import annotations

import ast
import re
import shutil
import sys
import tomllib
from importlib.metadata import distribution
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "agentic_ds"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    """The dependencies, and those of the optional extras a user installs (`ray`); not the developers' `dev`."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = [r for name, group in project["optional-dependencies"].items() if name != "dev" for r in group]
    return {_canonical(re.split(r"[<>=!~;\[ ]", requirement)[0]) for requirement in [*project["dependencies"], *extras]}


def _imported_modules() -> dict[str, set[str]]:
    """Every absolute import of a module outside the standard library and agentic_ds, with the files doing it."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "agentic_ds":
                    found.setdefault(name, set()).add(str(path.relative_to(REPO)))
    return found


def _declared_files() -> list[str]:
    """Every file path the declared distributions install (relative to site-packages)."""
    return [str(file) for name in _declared() for file in distribution(name).files or []]


def _is_provided(module: str, files: list[str]) -> bool:
    """Whether some file provides `module`: its package or module file, taken two levels deep so that a
    namespace package (`google.genai`) is matched to the distribution of the subpackage, not of `google`."""
    path = "/".join(module.split(".")[:2])
    return any(file.startswith(f"{path}/") or file == f"{path}.py" for file in files)


def test_every_imported_third_party_package_is_a_declared_dependency():
    provided = _declared_files()
    undeclared = {
        module: sorted(users) for module, users in _imported_modules().items() if not _is_provided(module, provided)
    }
    assert not undeclared, f"imported but not declared in pyproject.toml [project.dependencies]: {undeclared}"


def test_libraries_whose_internals_we_use_are_pinned_to_one_minor_version():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pins = {_canonical(re.split(r"[<>=!~;\[ ]", r)[0]): r for r in project["dependencies"]}
    assert pins["google-adk"].replace(" ", "") == "google-adk>=2.13.0,<2.14"
    assert pins["claude-agent-sdk"].replace(" ", "").endswith(",<0.3")   # 0.x: the minor is 0.2


@pytest.mark.parametrize("variable", ["AGENTIC_DS_PROMPTS_DIR", "AGENTIC_DS_SKILLS_DIR"])
def test_a_missing_prompts_or_skills_folder_stops_run_before_the_run_directory(tmp_path, monkeypatch, variable):
    (tmp_path / "sales.csv").write_text("region,price\nnorth,1\n")
    monkeypatch.setenv(variable, str(tmp_path / "nowhere"))
    workdir = tmp_path / "runs"
    result = CliRunner().invoke(main, ["run", "--mode", "simple", "Mean price", "--files", str(tmp_path / "sales.csv"),
                                      "--model", "offline", "--workdir", str(workdir)])
    assert result.exit_code == 2, result.output
    assert "folder" in result.output and "does not exist" in result.output and f"set {variable}" in result.output
    assert not workdir.exists()


def test_a_prompts_folder_without_an_agents_template_stops_run_before_the_run_directory(tmp_path, monkeypatch):
    from agentic_ds.workflow.prompting import prompts_dir

    (tmp_path / "sales.csv").write_text("region,price\nnorth,1\n")
    partial = tmp_path / "prompts"
    shutil.copytree(prompts_dir(), partial)
    (partial / "answer_validator.md.j2").unlink()
    monkeypatch.setenv("AGENTIC_DS_PROMPTS_DIR", str(partial))
    workdir = tmp_path / "runs"
    result = CliRunner().invoke(main, ["run", "--mode", "simple", "Mean price", "--files", str(tmp_path / "sales.csv"),
                                       "--model", "offline", "--workdir", str(workdir)])
    assert result.exit_code == 2, result.output
    assert "lacks answer_validator.md.j2" in result.output
    assert not workdir.exists()
