"""``caveman-engine pixel render|simulate`` and ``cavemem pixel render|simulate``.

- ``caveman-engine pixel`` keeps the reference contract (spec pixel-and-mem A11, A15): exact
  usage texts and fatal messages on stderr, exit 2 for a bare ``pixel``, the A11.3 JSONL on
  stdout and ``<file>.pxN.png`` pages next to the input.
- ``cavemem pixel`` follows the cavemem contract: stdout carries only the payload (page metrics
  as JSON lines, or the TransformInfo JSON), errors are one JSON line on stderr with a stable
  code, ``--help`` at both levels. ``render`` adds image tokens per provider, the text tokens
  replaced and the verdict; ``--model`` gates density by the reader model (unknown models fail
  closed to conservative).
"""

from __future__ import annotations

import json
import os

from cavemem.cli import io
from cavemem.cli.args import Arg, Command, Opt, parse_verb, positive_int
from cavemem.errors import CaveError

RENDER_USAGE = (
    "usage: caveman-engine pixel render [--cols N] [--multicol N] [--density conservative|balanced|max]"
    " [--dense] [--no-reflow] <file>"
)
SIMULATE_USAGE = (
    "usage: caveman-engine pixel simulate [--model MODEL] [--density conservative|balanced|max] <request.json>"
)
PIXEL_USAGE = "usage: caveman-engine pixel render|simulate"
USAGE_TEXT = "\n".join(
    [
        RENDER_USAGE,
        "       " + SIMULATE_USAGE[len("usage: ") :],
        "render writes <file>.px1.png, <file>.px2.png, ... next to <file> and prints one JSON line per",
        "page plus a summary line. render reflows by default to match pxpipe export; --no-reflow",
        "preserves hard line layout. --cols is the maximum width in cells (default 312 conservative,",
        "389 balanced/max); --multicol N>1 forces conservative; --dense packs like pxpipe export.",
        "The density defaults to CAVE_PIXEL_DENSITY (unset = balanced).",
        "simulate prints what the proxy transform would do to a request body (no network).",
    ]
)


def engine_main(argv: list[str]) -> int:
    """``caveman-engine pixel …`` (fatals raise :class:`~cavemem.cli.io.Fatal`)."""
    from cavemem.cli.io import Fatal

    if not argv:
        io.write_stderr_line(USAGE_TEXT)
        return 2
    verb, rest = argv[0], argv[1:]
    if verb in ("help", "--help", "-h"):
        io.write_stderr_line(USAGE_TEXT)
        return 0
    if verb == "render":
        return _engine_render(rest)
    if verb == "simulate":
        return _engine_simulate(rest)
    raise Fatal(PIXEL_USAGE)


def _positive(flag: str, value: str | None) -> int:
    from cavemem.cli.io import Fatal

    try:
        n = int(value or "", 10)
    except ValueError:
        n = 0
    if n <= 0:
        raise Fatal(f"{flag} must be a positive integer")
    return n


def _level_flag(value: str | None) -> str:
    from cavemem.cli.io import Fatal
    from cavemem.pixel.density import parse_level

    level = parse_level(value or "")
    if level is None:
        raise Fatal(f"--density must be one of conservative|balanced|max (got {json.dumps(value or '', ensure_ascii=False)})")
    return level


def _read_error(exc: OSError, path: str) -> str:
    reason = exc.strerror or str(exc)
    reason = reason[:1].lower() + reason[1:]
    op = "read" if isinstance(exc, IsADirectoryError) else "open"
    return f"{op} {path}: {reason}"


def _engine_args(argv: list[str], verb: str, usage: str, help_text: str, valued: tuple[str, ...],
                 switches: tuple[str, ...], on_flag) -> str | None:
    """Read ``caveman-engine pixel <verb>`` arguments in order, handing each flag to
    ``on_flag(flag, value)`` as it comes (a switch's value, or a missing one, is None), so the
    first bad flag is the one reported. Returns the one file argument, or None after --help."""
    from cavemem.cli.io import Fatal

    path = None
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in ("--help", "-h"):
            io.write_stderr_line(help_text)
            return None
        if a in valued:
            on_flag(a, argv[i] if i < len(argv) else None)
            i += 1
        elif a in switches:
            on_flag(a, None)
        elif a.startswith("-") and a != "-":
            raise Fatal(f"unknown pixel {verb} flag: {a}")
        elif path is None:
            path = a
        else:
            raise Fatal(usage)
    if path is None:
        raise Fatal(usage)
    return path


def _engine_read(path: str, verb: str) -> bytes:
    from cavemem.cli.io import Fatal

    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise Fatal(f"pixel {verb} read: {_read_error(exc, path)}") from None


def _engine_render(argv: list[str]) -> int:
    from cavemem.cli.io import Fatal
    from cavemem.pixel.export import RenderRequest, engine_page_line, engine_summary_line, render_bytes, write_pages

    req = RenderRequest()

    def on_flag(flag: str, value: str | None) -> None:
        if flag == "--cols":
            req.cols = _positive("--cols", value)
        elif flag == "--multicol":
            req.multicol = _positive("--multicol", value)
        elif flag == "--density":
            req.level = _level_flag(value)
        elif flag == "--dense":
            req.dense = True
        else:  # --no-reflow
            req.reflow = False

    path = _engine_args(argv, "render", RENDER_USAGE, USAGE_TEXT, ("--cols", "--multicol", "--density"), ("--dense", "--no-reflow"), on_flag)
    if path is None:
        return 0
    run = render_bytes(_engine_read(path, "render"), req)
    try:
        write_pages(path, run.pages)
    except OSError as exc:
        raise Fatal(f"pixel render write: {exc}") from None
    out = [io.json_line(engine_page_line(p, run.level)) for p in run.pages]
    out.append(io.json_line(engine_summary_line(run)))
    io.write_stdout(("\n".join(out) + "\n").encode("utf-8"))
    return 0


def _engine_simulate(argv: list[str]) -> int:
    from cavemem.cli.io import Fatal
    from cavemem.pixel.simulate import SimulateError, simulate

    model = None

    def on_flag(flag: str, value: str | None) -> None:
        nonlocal model
        if flag == "--model":
            if value is None:
                raise Fatal(SIMULATE_USAGE)
            model = value
        else:  # --density
            os.environ["CAVE_PIXEL_DENSITY"] = _level_flag(value)

    path = _engine_args(argv, "simulate", SIMULATE_USAGE, SIMULATE_USAGE, ("--model", "--density"), (), on_flag)
    if path is None:
        return 0
    data = _engine_read(path, "simulate")
    try:
        result = simulate(data, model)
    except SimulateError as exc:
        raise Fatal(f"pixel simulate{exc.stage}: {exc.message}") from None
    io.write_stdout((result.info_json() + "\n").encode("utf-8"))
    if result.error:
        raise Fatal(f"pixel simulate transform: {result.error}")
    return 0


# -- cavemem pixel -----------------------------------------------------------------------------

PIXEL_HELP = Command(
    "cavemem pixel",
    "Pixel compression: large static text drawn as PNG pages in a 5x8 bitmap font, which vision\n"
    "models bill by area instead of by characters.\n"
    "\n"
    "verbs:\n"
    "  render FILE    write FILE.px1.png, FILE.px2.png, ... and print per-page metrics\n"
    "  simulate       read a request body on stdin; print what the proxy transform would do",
    [],
    [Arg("verb", "render or simulate (each has its own --help)")],
    epilog=(
        "examples:\n"
        "  cavemem pixel render build.log --model claude-fable-5\n"
        "  cavemem pixel simulate --model gpt-5.6 < request.json"
    ),
)
_DENSITY_OPT = Opt(
    "--density", metavar="L", choices=("conservative", "balanced", "max"),
    help="packing density (default: CAVE_PIXEL_DENSITY, unset = balanced)",
)
RENDER = Command(
    "cavemem pixel render",
    "Render FILE into PNG pages FILE.px1.png, FILE.px2.png, ... next to it (all pages are written,\n"
    "or none). stdout gets one JSON line per page and a summary: characters rendered and dropped\n"
    "(characters the glyph atlas has no glyph for, e.g. emoji), image tokens per provider, the\n"
    "text tokens the pages replace and whether imaging pays. Text is reflowed by default (line\n"
    "breaks drawn as the glyph U+21B5) so short lines pack densely.",
    [
        Opt("--cols", metavar="N", type=positive_int, help="maximum width in cells (default 312, 389 dense levels)"),
        Opt("--multicol", metavar="N", type=positive_int, help="side-by-side columns (forces conservative)"),
        _DENSITY_OPT,
        Opt("--dense", help="pxpipe export packing (shrink to content width, multi-column when full)"),
        Opt("--no-reflow", help="keep hard line layout"),
        Opt("--model", metavar="M", help="reader model: gates density and tier (none/unknown = conservative)"),
        Opt("--json", help="JSON lines even on a terminal (the default when stdout is not a terminal)"),
    ],
    [Arg("file", "the text file to render")],
)
SIMULATE = Command(
    "cavemem pixel simulate",
    "Dry-run the pixel request transform on a request body (stdin, or FILE): sniffs OpenAI\n"
    "Responses/Chat (input), Gemini generateContent (contents) or Anthropic Messages (messages)\n"
    "and prints the TransformInfo JSON. Nothing is sent anywhere.",
    [
        Opt("--model", metavar="M", help="reader model (sets the body's model; Gemini bodies need it)"),
        _DENSITY_OPT,
        Opt("--json", help="the compact TransformInfo JSON even on a terminal"),
    ],
    [Arg("file", "request body file (default: stdin)", optional=True)],
)
VERBS = {"render": RENDER, "simulate": SIMULATE}


def cavemem_command(argv: list[str]) -> int:
    """``cavemem pixel <verb> …``: the dispatcher passes the raw argv (no ``COMMAND``)."""
    verb, opts = parse_verb(argv, PIXEL_HELP, VERBS)
    return _cavemem_render(opts) if verb == "render" else _cavemem_simulate(opts)


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(io.STDIN_LIMIT + 1)
    except OSError as exc:
        raise CaveError("cave_file_unreadable", f"cannot read {path}: {exc.strerror or exc}") from None


def _cavemem_render(opts: dict) -> int:
    from cavemem.pixel.export import RenderRequest, cavemem_report, render_bytes, write_pages

    path = opts["file"]
    data = _read_file(path)
    if len(data) > io.STDIN_LIMIT:
        raise CaveError("cave_input_too_large", f"{path} exceeds {io.STDIN_LIMIT} bytes")
    if not data.strip():
        raise CaveError("cave_invalid_input", f"{path} is empty (or only white space): nothing to render")
    # The reader decides how dense a page may be. With no --model and no explicit --density the
    # reader is unknown, so fail closed to conservative (the legible 5x8 cells); an explicit
    # --density without a model is honoured on the standard tier, as the engine CLI does.
    model = opts["model"]
    if model is None and opts["density"] is None:
        model = ""
    req = RenderRequest(opts["cols"], opts["multicol"] or 1, opts["density"], opts["dense"], not opts["no_reflow"], model)
    from cavemem.cli import progress

    with progress.on_terminal("pixel render") as bar:  # a bar on a terminal's stderr, else nothing
        run = render_bytes(data, req, progress=(lambda done, total: bar(done, total, "pages")) if bar else None)
    try:
        run.files = write_pages(path, run.pages)
    except OSError as exc:
        raise CaveError("cave_output_failed", f"cannot write pages next to {path}: {exc.strerror or exc}") from None
    lines, summary = cavemem_report(run, opts["model"])
    if opts["json"] or not io.stdout_is_tty():
        out = "\n".join(io.json_line(x) for x in lines + [summary]) + "\n"
    else:
        out = _human_render(lines, summary)
    io.write_stdout(out.encode("utf-8"))
    return 0


def _human_render(lines: list[dict], s: dict) -> str:
    rows = [
        f"{x['file']}  {x['width']}x{x['height']}  {x['charsRendered']:,} chars"
        + (f", {x['droppedChars']} dropped" if x["droppedChars"] else "")
        + ("  (2 layers)" if x["layers"] == 2 else "")
        for x in lines
    ]
    t = s["imageTokens"]
    rows += [
        "",
        f"{s['pages']} page(s), density {s['density']} ({s['tier']} tier)",
        f"text tokens {s['textTokens']:,}; image tokens anthropic {t['anthropic']:,}, openai {t['openai']:,}"
        f" ({s['pricingModels']['openai']}), gemini {t['gemini']:,} ({s['pricingModels']['gemini']})",
        f"verdict for {s['reader']}: {s['verdict']}",
    ]
    return "\n".join(rows) + "\n"


def _cavemem_simulate(opts: dict) -> int:
    from cavemem.pixel.simulate import SimulateError, simulate

    data = _read_file(opts["file"]) if opts["file"] not in (None, "-") else io.read_stdin()
    if opts["density"]:
        os.environ["CAVE_PIXEL_DENSITY"] = opts["density"]
    try:
        result = simulate(data, opts["model"], existing_images=True)
    except SimulateError as exc:
        raise CaveError("cave_invalid_input", f"pixel simulate{exc.stage}: {exc.message}") from None
    if opts["json"] or not io.stdout_is_tty():
        out = result.cavemem_json() + "\n"
    else:
        out = _human_simulate(result.info)
        ex = result.existing
        if ex and ex["count"]:
            t = ex["imageTokens"]
            out += (f"already in the request: {ex['count']} image(s) ({', '.join(ex['sizes']) or 'unreadable'}), tokens"
                    f" anthropic {t['anthropic']:,}, openai {t['openai']:,}, gemini {t['gemini']:,}\n")
    io.write_stdout(out.encode("utf-8"))
    if result.error:
        raise CaveError("cave_transform_failed", f"pixel simulate transform: {result.error}")
    return 0


def _human_simulate(info: dict) -> str:
    verdict = "would compress" if info["Compressed"] else "would pass through"
    reason = f" ({info['Reason']})" if info["Reason"] else ""
    lines = [
        f"{verdict}{reason}",
        f"images {info['ImageCount']} ({info['ImagePixels']:,} px), estimated tokens text {info['TextTokensEstimate']:,}"
        f" -> images {info['ImageTokensEstimate']:,}",
    ]
    if info["CollapsedTurns"] or info["HistoryReason"]:
        lines.append(f"history: {info['HistoryReason'] or '-'}, {info['CollapsedTurns']} turns collapsed")
    return "\n".join(lines) + "\n"
