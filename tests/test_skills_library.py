"""The skills library: discovery, front matter, ranking, template rendering and its errors."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from agentic_ds.errors import ConfigError
from agentic_ds.skills import (
    COMMON_PARAMS,
    SkillLibrary,
    TemplateParamError,
    UnknownSkill,
    UnknownTemplate,
    default_skills_dir,
)

REQUIRED_TOPICS = {
    "loading-and-cleaning", "data-quality-audit", "descriptive-statistics", "distributions-and-outliers",
    "correlation-and-association", "group-comparisons", "regression", "time-series", "clustering-segmentation",
    "classification", "visualization", "reporting-numbers",
}


@pytest.fixture(scope="module")
def library() -> SkillLibrary:
    return SkillLibrary.load(default_skills_dir())


def write_skill(root: Path, name: str, front: str, body: str = "# Guidance\nDo it well.\n", templates=()) -> Path:
    folder = root / name
    (folder / "templates").mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\n{front}\n---\n{body}", encoding="utf-8")
    for template_name, text in templates:
        (folder / "templates" / f"{template_name}.py.j2").write_text(text, encoding="utf-8")
    return folder


def test_bundled_library_has_every_required_skill_with_guidance_and_templates(library):
    assert REQUIRED_TOPICS <= set(library.names())
    for skill in library.skills():
        assert len(skill.body.split()) > 200, f"{skill.name}: the guidance is too thin"
        assert skill.templates, f"{skill.name} declares no template"
        for spec in skill.templates:
            assert spec.description, f"{skill.name}/{spec.name} has no description"
            assert set(COMMON_PARAMS) <= set(spec.params)
            assert spec.path is not None and spec.path.is_file()


def test_front_matter_is_parsed_with_params_defaults_and_body(tmp_path):
    write_skill(
        tmp_path, "demo",
        "name: demo\ndescription: >\n  Demo skill\n  on two lines.\ntemplates:\n  - name: show\n"
        "    description: Prints a column.\n    params:\n      column: the column to show\n      k: how many\n"
        "    defaults:\n      k: 3",
        templates=[("show", "print({{ column | py }}, {{ k | py }})\n")],
    )
    (tmp_path / "_shared").mkdir()  # folders starting with _ hold snippets, not skills
    skill = SkillLibrary.load(tmp_path).get("demo")
    assert skill.description == "Demo skill on two lines."
    assert skill.body.startswith("# Guidance")
    spec = skill.template("show")
    assert spec.params["column"] == "the column to show"
    assert spec.defaults == {"encoding": None, "k": 3}  # every template takes the data file's encoding, None: UTF-8
    assert spec.required == ["data_path", "result_path", "fig_prefix", "column"]


def test_a_skill_edited_on_disk_is_read_again_and_an_unchanged_one_is_not(tmp_path):
    """A process (the server, a test worker) loads the library many times: a skill is read again exactly when a file
    of its folder changed."""
    front = "name: demo\ndescription: First words.\ntemplates:\n  - name: show\n    params: {}"
    folder = write_skill(tmp_path, "demo", front, templates=[("show", "print(1)\n")])
    library = SkillLibrary.load(tmp_path)
    first = library.get("demo")
    assert library.rank("demo") == [first]
    assert SkillLibrary.load(tmp_path) is library        # with its ranker, built once

    (folder / "SKILL.md").write_text(f"---\n{front.replace('First', 'Second')}\n---\nNew body.\n", encoding="utf-8")
    second = SkillLibrary.load(tmp_path).get("demo")
    assert (second.description, second.body) == ("Second words.", "New body.\n")
    assert SkillLibrary.load(tmp_path).rank("second words") == [second]

    (folder / "templates" / "show.py.j2").unlink()
    with pytest.raises(ConfigError, match="does not exist"):
        SkillLibrary.load(tmp_path)


@pytest.mark.parametrize(
    ("front", "problem"),
    [
        (None, "must start with YAML frontmatter"),   # ADK's loader's words (google.adk.skills)
        ("name: demo", "description: Field required"),
        ("name: other\ndescription: d", "does not match directory name"),
        ("name: Demo Skill\ndescription: d", "kebab-case"),
        ("name: demo\ndescription: d\ntemplates:\n  - name: absent\n    params: {}", "does not exist"),
        ("name: demo\ndescription: [unclosed", "Invalid YAML"),
        ("name: demo\ndescription: d\ntemplates:\n  - name: t\n    params: {a: x}\n    defaults: {b: 1}", "undeclared"),
    ],
)
def test_malformed_skill_files_raise_config_errors_naming_the_file(tmp_path, front, problem):
    folder = tmp_path / "demo"
    (folder / "templates").mkdir(parents=True)
    (folder / "templates" / "t.py.j2").write_text("print(1)\n")
    text = "# no front matter\n" if front is None else f"---\n{front}\n---\nbody\n"
    (folder / "SKILL.md").write_text(text)
    with pytest.raises(ConfigError) as caught:
        SkillLibrary.load(tmp_path)
    assert problem in caught.value.message
    assert "SKILL.md" in caught.value.message


def test_missing_skills_folder_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        SkillLibrary.load(tmp_path / "nowhere")


def test_default_dir_is_the_repo_skills_folder_and_env_overrides_it(monkeypatch, tmp_path):
    assert default_skills_dir() == Path(__file__).resolve().parents[1] / "skills"
    monkeypatch.setenv("AGENTIC_DS_SKILLS_DIR", str(tmp_path))
    assert default_skills_dir() == tmp_path.resolve()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("compare revenue between regions", "group-comparisons"),
        ("Stage 3: test whether mean order value differs across customer segments", "group-comparisons"),
        ("is there a trend in monthly sales over time", "time-series"),
        ("segment customers into clusters", "clustering-segmentation"),
        ("predict churn from customer features", "classification"),
        ("check data quality and missing values", "data-quality-audit"),
        ("correlation between price and units", "correlation-and-association"),
        ("load the csv and clean it", "loading-and-cleaning"),
        ("find outliers in delivery time", "distributions-and-outliers"),
        ("regression of revenue on units and price", "regression"),
        ("report estimates with confidence intervals", "reporting-numbers"),
        ("average price by region", "descriptive-statistics"),
    ],
)
def test_ranking_puts_the_matching_skill_first(library, text, expected):
    assert library.rank(text, k=3)[0].name == expected


def test_ranking_is_deterministic_and_empty_for_unrelated_text(library):
    text = "compare revenue between regions"
    assert [s.name for s in library.rank(text, k=5)] == [s.name for s in library.rank(text, k=5)]
    assert library.rank("zzzz qqqq", k=3) == []


def test_unknown_skill_and_template_errors_suggest_close_names(library):
    with pytest.raises(UnknownSkill) as caught:
        library.get("group-comparison")
    assert "group-comparisons" in caught.value.hint
    with pytest.raises(UnknownTemplate) as caught_template:
        library.render("group-comparisons", "anova_only", data_path="x")
    assert "compare_groups" in caught_template.value.hint


def test_render_names_missing_and_unknown_params(library):
    common = {"data_path": "inputs/a.csv", "result_path": "outputs/a.json", "fig_prefix": "figures/a"}
    with pytest.raises(TemplateParamError) as caught:
        library.render("group-comparisons", "compare_groups", **common, value_col="revenue", colour="red")
    assert "missing group_col" in caught.value.message
    assert "unknown colour" in caught.value.message
    assert "value_col:" in caught.value.hint  # the hint lists the declared params with their meaning
    with pytest.raises(TemplateParamError, match="cannot write a object"):
        library.render("descriptive-statistics", "top_values", **common, column=object())


def test_render_writes_values_as_python_literals_that_cannot_inject_code(library):
    column = "O'Brien \"score\"\n__import__('os')"
    code = library.render(
        "descriptive-statistics", "statistic", data_path="inputs/a.csv", result_path="outputs/a.json",
        fig_prefix="figures/a", column=column, stat="median",
    )
    ast.parse(code)
    assignment = next(line for line in code.splitlines() if line.startswith("COLUMN = "))
    assert ast.literal_eval(assignment.removeprefix("COLUMN = ")) == column
    assert "GROUP_COL = None" in code and "P = 50" in code  # defaults bound
    assert "{{" not in code and "{%" not in code


def test_undefined_template_variable_is_an_error_not_an_empty_string(tmp_path):
    write_skill(
        tmp_path, "demo", "name: demo\ndescription: d\ntemplates:\n  - name: t\n    description: x\n    params: {}",
        templates=[("t", "print({{ forgotten | py }})\n")],
    )
    library = SkillLibrary.load(tmp_path)
    with pytest.raises(TemplateParamError, match="forgotten"):
        library.render("demo", "t", data_path="a", result_path="b", fig_prefix="c")
