"""Project scoping, resolved the same way on every write and every read.

The project of a working directory is the *name of its git root*: walk up from the directory
until a ``.git`` entry appears. Nothing is spawned (no ``git rev-parse``: hooks must start fast
and git may not be installed). Special cases:

- a linked worktree (``.git`` is a file saying ``gitdir: <main>/.git/worktrees/<name>``) belongs
  to its main repository, so every worktree of a repo shares one memory pool;
- a submodule (``gitdir: …/.git/modules/<name>``) is its own project (its own directory name);
- outside any repository the project is ``""``: the *global* scope.

An explicit ``--project`` (or ``project=`` in the API) always wins. Reads see the project's
memories plus global ones; ``ALL_PROJECTS`` (``"*"``) reads every project.
"""

from __future__ import annotations

import os

ALL_PROJECTS = "*"
GLOBAL = ""
MAX_PROJECT_CHARS = 200


def git_root(start: str | None = None) -> str | None:
    """The directory holding ``.git`` at or above ``start`` (default: cwd), or None."""
    try:
        path = os.path.abspath(start or os.getcwd())
    except OSError:  # the cwd was deleted under us
        return None
    while True:
        if os.path.lexists(os.path.join(path, ".git")):
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def _main_repo_of_worktree(root: str) -> str | None:
    """For a linked worktree, the main repository's directory; None otherwise."""
    dotgit = os.path.join(root, ".git")
    if not os.path.isfile(dotgit):
        return None
    try:
        with open(dotgit, encoding="utf-8", errors="replace") as fh:
            first = fh.readline(4096).strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    gitdir = first[len("gitdir:") :].strip()
    if not os.path.isabs(gitdir):
        gitdir = os.path.normpath(os.path.join(root, gitdir))
    parts = gitdir.replace("\\", "/").rstrip("/").split("/")
    # <main>/.git/worktrees/<name>
    if len(parts) >= 3 and parts[-2] == "worktrees" and parts[-3] == ".git":
        return "/".join(parts[:-3]) or "/"
    return None


def project_of_dir(start: str | None = None) -> str:
    """The project name for ``start`` (cwd by default): git root name, or ``""`` outside git."""
    root = git_root(start)
    if root is None:
        return GLOBAL
    main = _main_repo_of_worktree(root)
    return normalize_project(os.path.basename(main or root) or root)


def normalize_project(name: str) -> str:
    """Trim whitespace and cap the length; ``*`` is reserved for "all projects"."""
    name = (name or "").strip()
    if len(name) > MAX_PROJECT_CHARS:
        name = name[:MAX_PROJECT_CHARS]
    return name


def resolve_project(explicit: str | None = None, start: str | None = None) -> str:
    """The project to *write* to: ``explicit`` if given (``""`` = global), else the cwd's."""
    if explicit is not None:
        if explicit.strip() == ALL_PROJECTS:
            from ..errors import CaveError

            raise CaveError("cave_invalid_arguments", "project '*' means every project and can only be read, not written")
        return normalize_project(explicit)
    return project_of_dir(start)


def read_scope(explicit: str | None = None, start: str | None = None) -> tuple[str, ...] | None:
    """The projects a *read* sees: (project, global), (global,) outside git, None = all."""
    if explicit is not None and explicit.strip() == ALL_PROJECTS:
        return None
    project = resolve_project(explicit, start)
    return (project,) if project == GLOBAL else (project, GLOBAL)
