"""Where the prompts and skills that ship with agentic-ds are.

They live at the top of the repository (`prompts/`, `skills/`), where users read and edit them. A wheel carries
them inside the package, as `agentic_ds/_bundled/{prompts,skills}` (hatchling's force-include, see
pyproject.toml), and they are found there through `importlib.resources`. An editable install or a source
checkout has no `_bundled/`: there the repository's own folders are used. (Hatchling copies the force-included
folders into an editable install's site-packages too; that copy is never read, since the package itself is
imported from the checkout.)
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from agentic_ds.errors import ConfigError

PROMPTS = "prompts"
SKILLS = "skills"
_PACKAGED = "_bundled"


def bundled_dir(name: str) -> Path:
    """The folder holding the bundled `name` (`prompts` or `skills`); `ConfigError` when it is nowhere."""
    packaged = files("agentic_ds") / _PACKAGED / name
    # Installed wheels are unpacked on disk, so the resource is a real directory (Jinja2 and the skills
    # library need paths); a zipped install would not be, and falls through to the error.
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file() and (checkout / name).is_dir():
        return checkout / name
    raise ConfigError(
        f"the bundled {name} folder is missing (looked in {packaged} and {checkout / name})",
        hint="reinstall agentic-ds (`pip install --force-reinstall agentic-ds`, or `pip install -e .` in a checkout)",
    )
