"""``cavemem hook claude-code session-start|user-prompt|stop|session-end|pre-compact`` and ``cavemem hook install``.

The fail-open rule for every hook: exit status 0, stdout either empty or one valid JSON object,
problems reported on stderr as one JSON line (``{"hook": …, "error": "cave_…", "message": …}``).
A missing memory store is not a problem (nothing to inject; nothing is created); a corrupt or
unreadable one is logged; a locked one never makes a hook wait — reads do not need the write lock
(WAL), recovery-store writes give up after ``LOCK_WAIT_MS``, and ``stop`` hands its memories to a
detached writer (:mod:`cavemem.hooks.spool`). On top of that the work runs under a hard
wall-clock deadline kept in this process (:mod:`cavemem.cli.watchdog`; ``CAVEMAN_HOOK_DEADLINE_MS``,
default 1000 ms, 4000 ms while the token-rank cache is cold): past it the hook prints nothing,
logs ``cave_hook_deadline`` and exits 0 — also while the work holds the GIL in a regex.

Semantic recall in hooks goes through the warm recall process (:mod:`cavemem.warm`): loading the
ONNX model costs more than the whole 250 ms budget in every (short-lived) hook process
(``scripts/bench_hooks.py``), so ``session-start`` starts a warm process in the background (where
semantic recall is on for the store) and ``user-prompt`` asks it — the same bytes the in-process
hook with ``CAVEMAN_HOOK_EMBED=1`` prints. While none answers (still loading, ``CAVEMAN_WARM=0``, a
reply slower than half the deadline) the hook recalls lexically in process, as before, and starts
one for the next prompt. ``CAVEMAN_HOOK_EMBED=0`` keeps hooks lexical; ``=1`` loads the model in
the hook itself when no warm process answers (raise the deadline with it).

Only the stdlib is imported until an event actually needs the memory store.
"""

from __future__ import annotations

import json
import os

from cavemem.cli import io

DEFAULT_DEADLINE_MS = 1000
COLD_DEADLINE_MS = 4000  # a home without the rank cache builds it (~1 s): still inside Claude Code's 5 s
LOCK_WAIT_MS = 100
STDIN_LIMIT = 16 * 1024 * 1024
EMBED_BACKFILL = 16  # memories a hook may embed to catch the index up (recall does more)

USAGE = """usage: cavemem hook claude-code session-start|user-prompt|stop|session-end|pre-compact   (event JSON on stdin)
       cavemem hook install [--write] [--settings PATH] [--command CMD] [--json]

Claude Code hooks for cavemem's durable memory. Every hook exits 0 and never blocks the agent.
  session-start  inject a briefing of this project's memories (at most 1,500 tokens)
  user-prompt    inject recalled memories when the prompt is on-topic (else nothing)
  stop           store what the turn explicitly asked to remember: <remember>…</remember> blocks
                 in the assistant's reply, or a prompt starting "remember:" / "remember that …";
                 and, like session-end and pre-compact, hand the transcript to the detached writer,
                 which archives its new lines and captures decisions, preferences, fixes and facts
  install        print the hook configuration; --write merges it into .claude/settings.json
                 (the project root's, or --settings PATH) keeping every other key and hook

environment: CAVEMAN_CAPTURE=0 (no archive or capture), CAVEMAN_HOOK_DEADLINE_MS (default 1000),
             CAVEMAN_HOOK_EMBED=0 (hooks recall lexically, no warm recall process), =1 (load the model
             in the hook when no warm process answers: slower), CAVEMAN_WARM=0 (no warm process)
"""


def command(argv) -> int:
    argv = list(argv or [])
    if not argv or argv[0] in ("-h", "--help", "help"):
        io.write_stdout(USAGE.encode())
        return 0
    if argv[0] == "install":
        return _install(argv[1:])
    if argv[0] == "drain":  # the detached writer started by the stop hook
        from cavemem.hooks.spool import drain, lower_priority

        lower_priority()

        drain()
        return 0
    if argv[0] == "warm":  # detached: build the token-rank cache a hook ran out of time for
        from cavemem.tokens import count_tokens

        count_tokens("cavemem")
        return 0
    if argv[0] == "claude-code" and len(argv) == 2 and argv[1] in ("session-start", "user-prompt", "stop", "session-end", "pre-compact"):
        return run_hook(argv[1])
    if argv[0] == "claude-code" and len(argv) == 2 and argv[1] in ("-h", "--help"):
        io.write_stdout(USAGE.encode())
        return 0
    # even a misconfigured hook must not disturb the agent: log, print nothing, exit 0
    _log("hook", "cave_invalid_arguments", f"unknown hook invocation {' '.join(argv)!r}; see cavemem hook --help")
    return 0


# -- running a hook -------------------------------------------------------------------------------


def _log(hook: str, code: str, message: str) -> None:
    try:
        io.write_stderr_line(io.json_line({"hook": hook, "error": code, "message": message}))
    except Exception:  # noqa: BLE001 - stderr itself may be gone
        pass


def deadline_ms(name: str = "") -> int:
    """``CAVEMAN_HOOK_DEADLINE_MS``, else 1 s — or 4 s while the token-rank cache is still cold
    (never for stop / session-end / pre-compact, which count no tokens: they skip that import)."""
    default = DEFAULT_DEADLINE_MS
    if not os.environ.get("CAVEMAN_HOOK_DEADLINE_MS") and name not in ("stop", "session-end", "pre-compact"):
        from cavemem.tokens import cache_ready

        default = DEFAULT_DEADLINE_MS if cache_ready() else COLD_DEADLINE_MS
    try:
        value = int(os.environ.get("CAVEMAN_HOOK_DEADLINE_MS", "") or default)
    except ValueError:
        value = default
    return max(10, value)


def run_hook(name: str) -> int:
    """Run one hook under the deadline, in this process (:mod:`cavemem.cli.watchdog`: a thread
    and ``SIGALRM``; past the deadline it logs, prints nothing and exits 0, even while the work
    holds the GIL in a regex). Always returns 0."""
    from cavemem.cli.watchdog import Deadline

    ms = deadline_ms(name)
    message = io.json_line({"hook": name, "error": "cave_hook_deadline",
                            "message": f"gave up after {ms} ms (CAVEMAN_HOOK_DEADLINE_MS); printed nothing"})
    watch = Deadline(ms / 1000.0, lambda: _expired(message))
    try:
        raw = _read_event()
        served = _warm_prompt(raw, ms) if name == "user-prompt" else None
        out = handle(name, raw) if served is None else None
    except Exception as exc:  # noqa: BLE001 - fail open: log it, print nothing
        watch.finish()
        _log_failure(name, exc)
        return 0
    watch.finish()
    if served is not None:
        from cavemem.warm import client

        client.write_reply(served[1], served[2])
    elif out is not None:
        io.write_stdout((io.json_line(out) + "\n").encode())
    if name == "session-start":
        _start_warm(_store_path())
    return 0


def _log_failure(name: str, exc: BaseException) -> None:
    code = getattr(exc, "code", None)
    code = code if isinstance(code, str) and code.startswith("cave_") else "cave_hook_failed"
    _log(name, code, getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}")


# -- semantic recall through the warm recall process ----------------------------------------------


def _hook_embed() -> bool | None:
    """``CAVEMAN_HOOK_EMBED``: True (load the model here if need be), False (lexical only), None."""
    from cavemem.envflag import env_switch

    return env_switch("CAVEMAN_HOOK_EMBED")


def _semantic_store(db: str) -> bool:
    """Whether a hook's recall on ``db`` should be semantic: the store has it on and the hooks may."""
    if _hook_embed() is False or ("://" not in db and not os.path.exists(db)):
        return False
    from cavemem.embed import default_scorers

    return bool(default_scorers(db))


def _start_warm(db: str) -> None:
    """After session-start: a warm recall process for this environment, so that the session's
    prompts are recalled semantically without loading the model in a hook. Never raises."""
    try:
        from cavemem import warm

        if warm.enabled() and _semantic_store(db):
            from cavemem.warm import client

            client.start_unless_running()
    except Exception:  # noqa: BLE001 - a convenience for the next hook, never a failure of this one
        pass


def _warm_prompt(raw: bytes, ms: int):
    """``(code, stdout, stderr)`` of the user-prompt hook run by the warm recall process, or None
    (ask in process). Waits at most half the deadline, so the lexical fallback still fits."""
    from cavemem import warm

    if not warm.enabled() or not _semantic_store(_store_path()):
        return None
    from cavemem.warm import client

    served = client.call("hook", {"hook": "user-prompt", "event": raw.decode("utf-8", "surrogateescape")},
                         timeout_s=ms / 2000)
    if isinstance(served, tuple):
        return served
    if served in client.SPAWN_REASONS:
        client.start_unless_running()
    return None


def served_hook(opts: dict) -> int:
    """The warm process's side of :func:`_warm_prompt`: the hook as it runs in process, with the
    semantic scorer the process has loaded; failures logged as the hook logs them, exit 0."""
    name = opts.get("hook")
    if name != "user-prompt" or not isinstance(opts.get("event"), str):
        raise ValueError(f"warm: no hook handler for {name!r}")
    try:
        out = handle(name, opts["event"].encode("utf-8", "surrogateescape"), semantic=True)
    except Exception as exc:  # noqa: BLE001 - fail open, as in process
        _log_failure(name, exc)
        return 0
    if out is not None:
        io.write_stdout((io.json_line(out) + "\n").encode())
    return 0


def _expired(message: str) -> None:
    """The deadline passed: one stderr line (raw ``os.write``: the main thread may hold the
    stream), and the token cache finished in a detached process if that is what ran out."""
    try:
        os.write(2, (message + "\n").encode())
    except OSError:
        pass
    _warm_later()


def _read_event() -> bytes:
    from cavemem.errors import CaveError

    try:
        return io.read_stdin(STDIN_LIMIT)
    except io.InputTooLarge:  # its message names the CLI's 64 MiB cap; the hook's is 16 MiB
        raise CaveError("cave_input_too_large", f"stdin exceeds {STDIN_LIMIT} bytes (the hook's 16 MiB cap)") from None


def _warm_later() -> None:
    """A first run on a fresh home spends most of its time building the token-rank cache; if the
    deadline cut that short, finish it in a detached process so the next hook is fast."""
    try:
        from cavemem import paths, tokens

        if os.path.exists(os.path.join(paths.cache_dir(), tokens._CACHE_FILE)):
            return
        from cavemem.hooks.spool import start_detached

        start_detached("warm")
    except Exception:  # noqa: BLE001 - best effort
        pass


def handle(name: str, raw: bytes, semantic: bool | None = None) -> dict | None:
    """The hook's stdout object for event ``name`` and stdin ``raw`` (None = print nothing).
    ``semantic``: recall with the MiniLM scorer where the store has it on (None: only with
    ``CAVEMAN_HOOK_EMBED=1``)."""
    from cavemem.hooks import claude_code

    event = claude_code.parse_event(raw)
    if name in claude_code.CAPTURE_EVENTS:
        return _stop(event, name)
    db = _store_path()
    if "://" not in db and not os.path.exists(db):
        return None  # no memories yet: nothing to say, and nothing is created
    memory = _open_memory(db, claude_code.event_cwd(event), semantic)
    try:
        if name == "session-start":
            return claude_code.session_start(memory, event)
        return claude_code.user_prompt(memory, event)
    finally:
        memory.close()


def _store_path() -> str:
    from cavemem import paths
    from cavemem.store.backend import server_url

    url = server_url(None, "CAVEMAN_MEM_DB")  # a team's PostgreSQL store (CAVEMAN_DB_URL)
    if url:
        return url
    env = os.environ.get("CAVEMAN_MEM_DB", "")
    return env if env else os.path.join(paths.home_dir(), "mem.db")


def _open_memory(db: str, cwd: str | None, semantic: bool | None = None):
    """A Memory for reading in a hook: short lock waits, semantic recall only if asked for."""
    from cavemem.embed import default_scorers
    from cavemem import Memory
    from cavemem.memory.store import open_memory_store

    store = open_memory_store(db)
    scorers: list = []
    if (semantic or (semantic is None and _hook_embed() is True)) and default_scorers(db):
        from cavemem.embed.scorer import SemanticScorer, config_from_env

        scorers = [SemanticScorer(store, config=config_from_env().with_overrides(f"backfill={EMBED_BACKFILL}"))]
    memory = Memory(store=store, cwd=cwd, scorers=scorers)
    _short_waits(memory.store.db)
    make_engine = memory.engine

    def engine():
        """The engine on first need only (its import is a third of a cold hook), with short waits."""
        fresh = memory._engine is None
        eng = make_engine()
        if fresh:
            try:
                _short_waits(eng.store().db)  # recall stores pass-through hits for their handles
            except Exception:  # noqa: BLE001 - recall answers without handles when CCR is unavailable
                pass
        return eng

    memory.engine = engine
    return memory


def _short_waits(db) -> None:
    db.execute(f"PRAGMA busy_timeout = {LOCK_WAIT_MS}")


def _stop(event: dict, name: str = "stop") -> None:
    """Spool what the turn asked to remember and the transcript to capture, start the writer;
    prints nothing."""
    from cavemem.hooks import claude_code

    claude_code.spool_stop(event, claude_code.remember_requests(event) if name == "stop" else [])
    return None


# -- install --------------------------------------------------------------------------------------


def _install(argv: list[str]) -> int:
    from cavemem.cli.args import Command, HelpRequested, Opt
    from cavemem.errors import CaveError
    from cavemem.hooks import install

    spec = Command(
        "cavemem hook install",
        "Print cavemem's Claude Code hook configuration (SessionStart, UserPromptSubmit, Stop).\n"
        "With --write, merge it into .claude/settings.json at the project root (created if\n"
        "missing; every other key and hook is kept; running it again changes nothing).",
        [
            Opt("--write", help="merge into the settings file instead of printing"),
            Opt("--settings", metavar="PATH", help="settings file to merge into (default: <project root>/.claude/settings.json)"),
            Opt("--command", metavar="CMD", help="how Claude Code should run cavemem (default: detected)"),
            Opt("--json", help="with --write: print a JSON report"),
        ],
    )
    try:
        opts = spec.parse(argv)
    except HelpRequested as h:
        io.write_stdout(h.text.encode())
        return 0
    except CaveError as err:
        return io.report_error(err)
    config = install.hook_config(opts["command"])
    if not opts["write"]:
        io.write_stdout((json.dumps(config, indent=2) + "\n").encode())
        return _warn_if_not_on_path(opts)
    path = opts["settings"] or install.default_settings_path()
    try:
        report = install.write_settings(path, config)
    except CaveError as err:
        return io.report_error(err)
    from cavemem.tokens import warm_cache

    report["token_cache_warm"] = warm_cache()  # so the first session's hooks are not spent building it
    if opts["json"]:
        io.write_stdout((io.json_line(report) + "\n").encode())
    else:
        state = "created" if report["created"] else ("updated" if report["changed"] else "already up to date")
        io.write_stdout(f"{path}: {state} (cavemem hooks: {', '.join(report['events'])})\n".encode())
    return _warn_if_not_on_path(opts)


def _warn_if_not_on_path(opts: dict) -> int:
    """One stderr line when the written command would break if this virtualenv moved."""
    from cavemem.hooks import install

    warning = None if opts["command"] else install.move_warning()
    if warning:
        io.write_stderr_line(io.json_line({"warning": "cave_hook_command_not_on_path", "message": warning}))
    return 0
