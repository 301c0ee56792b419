"""The bundled skills library: discover `skills/<name>/SKILL.md`, look skills up, rank and render them.

A skill folder holds `SKILL.md` (YAML front matter + a Markdown body of guidance, read by ADK's Agent Skills
loader, see `spec.py`), and optionally
`templates/*.py.j2` (Python code templates bound to real columns by `render`) and `scripts/`.
Folders whose name starts with `_` or `.` (e.g. `_shared/`, the snippets templates include) are not skills.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

from agentic_ds.bundled import SKILLS, bundled_dir
from agentic_ds.errors import ConfigError
from agentic_ds.skills.ranking import SkillRanker
from agentic_ds.skills.spec import SKILL_FILE, Skill, UnknownSkill, parse_skill_file
from agentic_ds.skills.templates import render_template

SKILLS_DIR_ENV = "AGENTIC_DS_SKILLS_DIR"


def default_skills_dir() -> Path:
    """`$AGENTIC_DS_SKILLS_DIR`, else the skills bundled with agentic-ds (see `agentic_ds.bundled`)."""
    override = os.environ.get(SKILLS_DIR_ENV)
    if override:
        return Path(override).expanduser().resolve()
    return bundled_dir(SKILLS)


# The last library loaded from each root, with the state of its skill folders then (`_folder_state`): given again
# while no file of them changed (a run loads the library three times; a server or a test process many more).
_LOADED: dict[tuple[type, Path], tuple[tuple[object, ...], SkillLibrary]] = {}


def _folder_state(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Every file under `folder`: its path, modification time and size."""
    state = []
    for top, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(top, name)
            st = os.stat(path, follow_symlinks=False)
            state.append((os.path.relpath(path, folder), st.st_mtime_ns, st.st_size))
    return tuple(sorted(state))


class SkillLibrary:
    """The skills found under one root, by name."""

    def __init__(self, root: Path, skills: list[Skill]) -> None:
        self.root = root
        self._skills = {skill.name: skill for skill in skills}
        self._ranker: SkillRanker | None = None

    @classmethod
    def load(cls, root: Path | str | None = None) -> SkillLibrary:
        root = Path(root) if root is not None else default_skills_dir()
        if not root.is_dir():
            raise ConfigError(
                f"skills folder {root} does not exist",
                hint=f"set {SKILLS_DIR_ENV} to a folder of skills, or unset it to use the bundled ones",
            )
        files = [f for f in sorted(root.glob(f"*/{SKILL_FILE}")) if not f.parent.name.startswith(("_", "."))]
        state = tuple((f, _folder_state(f.parent)) for f in files)
        kept = _LOADED.get((cls, root))
        if kept is not None and kept[0] == state:
            return kept[1]
        library = cls(root, [parse_skill_file(f) for f in files])   # ADK's loader checks the name is the folder's
        _LOADED[(cls, root)] = (state, library)
        return library

    def names(self) -> list[str]:
        return sorted(self._skills)

    def skills(self) -> list[Skill]:
        return [self._skills[name] for name in self.names()]

    def get(self, name: str) -> Skill:
        try:
            return self._skills[name]
        except KeyError:
            raise UnknownSkill(
                f"no skill named {name!r}", hint=f"did you mean: {', '.join(self.close_names(name))}?"
            ) from None

    def close_names(self, name: str, n: int = 3) -> list[str]:
        """The skill names nearest to `name` (spelling first, then relevance), for hints."""
        close = difflib.get_close_matches(name, self.names(), n=n, cutoff=0.4)
        for skill in self.rank(name.replace("-", " ").replace("_", " "), k=n):
            if skill.name not in close:
                close.append(skill.name)
        return close[:n] or self.names()[:n]

    def rank(self, text: str, k: int = 3) -> list[Skill]:
        """The `k` skills most relevant to `text` (a task or stage description), best first."""
        return [skill for skill, _ in self.scored(text)[:k]]

    def scored(self, text: str) -> list[tuple[Skill, float]]:
        """Every skill with a positive relevance score for `text`, best first (ties by name)."""
        if self._ranker is None:
            self._ranker = SkillRanker(self.skills())
        return self._ranker.score(text)

    def render(self, skill_name: str, template_name: str, **params: Any) -> str:
        """Python code of `template_name` with `params` bound, ready to run with the run directory as cwd."""
        spec = self.get(skill_name).template(template_name)
        return render_template(self.root, spec, params)
