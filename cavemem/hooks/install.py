"""``cavemem hook install``: the Claude Code hook configuration, printed or merged into settings.

Shape (memory-anchors.md §d.1): ``{"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type":
"command", "command": …, "timeout": <seconds>}]}]}}``. cavemem registers five events:

- ``SessionStart`` (matcher ``startup|clear|compact``: a resumed session already has its context);
- ``UserPromptSubmit``;
- ``Stop``, ``SessionEnd`` and ``PreCompact`` (the transcript's new lines are archived and
  captured by the detached writer; see :mod:`cavemem.memory.capture`).

Merging (``--write``) keeps every existing key and every other hook; a cavemem entry already
present (recognised by its ``hook claude-code <event>`` command) is updated in place, so running
it twice changes nothing. A settings file that is not a JSON object is never overwritten: the
command fails with ``cave_invalid_config`` and leaves the file as it was. The file is replaced
atomically (temporary file + rename) with 2-space indentation.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys

from ..errors import CaveError

TIMEOUT_SECONDS = 5  # Claude Code's own limit; cavemem gives up far earlier (see cli.commands.hook)
EVENTS = (
    ("SessionStart", "session-start", "startup|clear|compact"),
    ("UserPromptSubmit", "user-prompt", None),
    ("Stop", "stop", None),
    ("SessionEnd", "session-end", None),
    ("PreCompact", "pre-compact", None),
)
MARKER = "hook claude-code "


def default_command() -> str:
    """``cavemem`` when that name on PATH is this installation, else the absolute script path
    (a venv-only install), else ``<python> -m cavemem``."""
    here = os.path.join(os.path.dirname(sys.executable), "cavemem")
    on_path = shutil.which("cavemem")
    if on_path and os.path.exists(here) and os.path.realpath(on_path) == os.path.realpath(here):
        return "cavemem"
    if os.path.exists(here):
        return shlex.quote(here)
    if on_path:
        return "cavemem"
    return f"{shlex.quote(sys.executable)} -m cavemem"


def move_warning() -> str | None:
    """Why the detected command would break if this virtualenv moved (None when ``cavemem`` is on PATH)."""
    if default_command() == "cavemem":
        return None
    return ("cavemem is not on PATH, so the hooks call it by absolute path and stop working if this "
            "environment moves; put its bin directory on PATH or pass --command CMD")


def hook_config(command: str | None = None) -> dict:
    base = command or default_command()
    events: dict = {}
    for event, sub, matcher in EVENTS:
        group: dict = {}
        if matcher:
            group["matcher"] = matcher
        group["hooks"] = [{"type": "command", "command": f"{base} {MARKER}{sub}", "timeout": TIMEOUT_SECONDS}]
        events[event] = [group]
    return {"hooks": events}


def _is_ours(hook: object, sub: str) -> bool:
    return isinstance(hook, dict) and isinstance(hook.get("command"), str) and hook["command"].rstrip().endswith(MARKER + sub)


def merge(settings: dict, config: dict) -> tuple[dict, bool]:
    """``settings`` with cavemem's hooks merged in; returns (merged, changed)."""
    if not isinstance(settings, dict):
        raise CaveError("cave_invalid_config", "settings must be a JSON object")
    merged = json.loads(json.dumps(settings))  # deep copy, key order kept
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise CaveError("cave_invalid_config", f"settings 'hooks' is a JSON {type(hooks).__name__}, expected an object")
    for event, sub, _matcher in EVENTS:
        wanted_group = config["hooks"][event][0]
        wanted_hook = wanted_group["hooks"][0]
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise CaveError("cave_invalid_config", f"settings 'hooks.{event}' is not a list")
        placed = False
        emptied: list[int] = []
        for gi, group in enumerate(groups):
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            before = len(group["hooks"])
            for i, hook in enumerate(group["hooks"]):
                if _is_ours(hook, sub):
                    if not placed:
                        group["hooks"][i] = dict(hook, **wanted_hook)
                        if "matcher" in wanted_group:
                            group["matcher"] = wanted_group["matcher"]
                        placed = True
                    else:  # a duplicate of ours from an older install: drop it
                        group["hooks"][i] = None
            group["hooks"] = [h for h in group["hooks"] if h is not None]
            if before and not group["hooks"]:
                emptied.append(gi)
        hooks[event] = [g for gi, g in enumerate(groups) if gi not in emptied]
        if not placed:
            hooks[event].append(json.loads(json.dumps(wanted_group)))
    return merged, merged != settings


def default_settings_path(cwd: str | None = None) -> str:
    """``.claude/settings.json`` at the project root (the git root, else the directory itself)."""
    from ..memory.project import git_root

    base = cwd or os.getcwd()
    return os.path.join(git_root(base) or base, ".claude", "settings.json")


def write_settings(path: str, config: dict) -> dict:
    """Merge ``config`` into the settings file at ``path``; returns a small report."""
    existing: dict = {}
    created = not os.path.exists(path)
    if not created:
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise CaveError("cave_invalid_config", f"cannot read {path}: {exc.strerror or exc}") from exc
        if raw.strip():
            try:
                existing = json.loads(raw.decode("utf-8-sig"))
            except (ValueError, UnicodeDecodeError) as exc:
                raise CaveError(
                    "cave_invalid_config",
                    f"{path} is not valid JSON ({exc}); fix or move it — cavemem will not overwrite it",
                ) from None
            if not isinstance(existing, dict):
                raise CaveError(
                    "cave_invalid_config",
                    f"{path} holds a JSON {type(existing).__name__}, not an object; cavemem will not overwrite it",
                )
    merged, changed = merge(existing, config)
    if changed or created:
        directory = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(directory, exist_ok=True)
            tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
            if not created:
                try:
                    os.chmod(tmp, os.stat(path).st_mode & 0o777)
                except OSError:
                    pass
            os.replace(tmp, path)
        except OSError as exc:
            raise CaveError("cave_invalid_config", f"cannot write {path}: {exc.strerror or exc}") from exc
    return {"path": path, "created": created, "changed": changed or created,
            "events": [event for event, _, _ in EVENTS]}
