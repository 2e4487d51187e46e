"""The pixel CLIs (spec pixel-and-mem A11, A15; C34-C40): ``caveman-engine pixel render|simulate``
with the reference contract, ``cavemem pixel`` with the cavemem contract, the page files and
their all-or-nothing writing."""

from __future__ import annotations

import io
import json
import os

import pytest

from cavemem.pixel import export
from cavemem.pixel.export import RenderRequest, render_bytes, write_pages
from cavemem.tokens import count_tokens

PIL = pytest.importorskip("PIL.Image")


from conftest import opened_page as opened  # noqa: E402 - one decoder for every pixel test


@pytest.fixture(autouse=True)
def _density_unset(monkeypatch):
    monkeypatch.delenv("CAVE_PIXEL_DENSITY", raising=False)


def lines(out: bytes) -> list[dict]:
    return [json.loads(x) for x in out.decode().splitlines()]


def image(path):
    im = opened(path)
    im.load()
    return im


# -- caveman-engine pixel render ---------------------------------------------------------------


def test_render_hello_balanced(run_cli, tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"hello\n")
    r = run_cli("caveman-engine", "pixel", "render", str(f))
    assert r.rc == 0, r
    page, summary = r.stdout.decode().splitlines()
    assert page == '{"width":33,"height":16,"charsRendered":6,"droppedChars":0,"estTokens":3,"density":"balanced"}'
    assert json.loads(summary) == {"summary": True, "pages": 1, "textEstTokens": count_tokens(b"hello\n"), "imageEstTokens": 3, "density": "balanced"}
    assert list(json.loads(summary)) == ["summary", "pages", "textEstTokens", "imageEstTokens", "density"]
    im = image(tmp_path / "f.px1.png")
    assert im.size == (33, 16) and im.mode == "RGB"
    assert oct(os.stat(tmp_path / "f.px1.png").st_mode & 0o777) in ("0o644", "0o640", "0o600", "0o664")


def test_render_conservative_is_grey(run_cli, tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"hello\n")
    r = run_cli("caveman-engine", "pixel", "render", "--density", " Conservative ", str(f))
    assert r.rc == 0 and lines(r.stdout)[0]["density"] == "conservative"
    im = image(tmp_path / "f.px1.png")
    assert im.size == (38, 16) and im.mode == "L"


@pytest.mark.parametrize(
    "args, rc, err",
    [
        (["render", "--density", "turbo", "F"], 1, 'got "turbo"'),
        (["render", "--cols", "0", "F"], 1, "--cols must be a positive integer"),
        (["render", "--multicol", "x", "F"], 1, "--multicol must be a positive integer"),
        (["render", "-x", "F"], 1, "unknown pixel render flag: -x"),
        (["render", "F", "G"], 1, "usage: caveman-engine pixel render"),
        (["render"], 1, "usage: caveman-engine pixel render"),
        (["render", "MISSING"], 1, "pixel render read: open"),
        ([], 2, "reflows by default"),
        (["help"], 0, "--no-reflow"),
        (["render", "--help"], 0, "reflows by default"),
        (["frob"], 1, "usage: caveman-engine pixel render|simulate"),
    ],
)
def test_render_contract_errors(run_cli, tmp_path, args, rc, err):
    f = tmp_path / "F"
    f.write_bytes(b"text\n")
    argv = [str(f) if a == "F" else str(tmp_path / "G") if a == "G" else str(tmp_path / "nope") if a == "MISSING" else a for a in args]
    r = run_cli("caveman-engine", "pixel", *argv)
    assert r.rc == rc, r
    assert err in r.stderr.decode()
    assert r.stdout == b""
    if rc:
        assert not (tmp_path / "F.px1.png").exists()


def test_multicol_forces_conservative(run_cli, tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"hello\n")
    r = run_cli("caveman-engine", "pixel", "render", "--multicol", "2", "--density", "max", str(f))
    page, summary = lines(r.stdout)
    assert summary["density"] == "conservative" and "layers" not in summary
    assert page["width"] == 1568 and image(tmp_path / "f.px1.png").mode == "L"


def test_max_two_layers_via_cli(run_cli, tmp_path):
    f = tmp_path / "f"
    f.write_text("\n".join(f"line {i} " + "content " * 6 for i in range(400)))
    mx = lines(run_cli("caveman-engine", "pixel", "render", "--no-reflow", "--density", "max", str(f)).stdout)
    bal = lines(run_cli("caveman-engine", "pixel", "render", "--no-reflow", "--density", "balanced", str(f)).stdout)
    dense = lines(run_cli("caveman-engine", "pixel", "render", "--no-reflow", "--dense", "--density", "max", str(f)).stdout)
    assert mx[-1]["layers"] == 2 and mx[0]["layers"] == 2
    assert mx[-1]["pages"] < bal[-1]["pages"] and dense[-1]["pages"] == mx[-1]["pages"]
    assert image(tmp_path / "f.px1.png").mode == "RGB"


def test_reflow_packs_more_than_no_reflow(run_cli, tmp_path):
    f = tmp_path / "f"
    f.write_text("\n".join("ab" for _ in range(60)))
    packed = lines(run_cli("caveman-engine", "pixel", "render", "--cols", "10", str(f)).stdout)[0]
    hard = lines(run_cli("caveman-engine", "pixel", "render", "--cols", "10", "--no-reflow", str(f)).stdout)[0]
    assert packed["height"] < hard["height"]


# -- the render pipeline in-process (A11.4) ------------------------------------------------------


def test_density_page_ratios():
    data = ("a" * 1500 + "\n") * 380
    pages = {lv: len(render_bytes(data.encode(), RenderRequest(level=lv, reflow=False)).pages) for lv in ("conservative", "balanced", "max")}
    assert pages["conservative"] > pages["balanced"] > pages["max"]
    assert abs(pages["balanced"] / pages["conservative"] - 0.607) <= 0.05
    assert abs(pages["max"] / pages["conservative"] - 0.303) <= 0.05


@pytest.mark.parametrize("mode", ["plain", "dense", "multicol", "dense-multicol"])
@pytest.mark.parametrize("level", ["conservative", "balanced", "max"])
def test_density_label_matches_pixels(mode, level):
    data = (("b" * 1500 + "\n") * 60).encode()
    req = RenderRequest(level=level, reflow=False, dense="dense" in mode, multicol=2 if "multicol" in mode else 1)
    run = render_bytes(data, req)
    expected = "conservative" if "multicol" in mode else level
    assert run.level == expected
    modes = [opened(io.BytesIO(p.png)).mode for p in run.pages]
    assert modes[0] == ("L" if expected == "conservative" else "RGB")
    for page, mode in zip(run.pages, modes):  # a max page holding one layer only is plain black
        assert mode == ("RGB" if page.layers == 2 or expected == "balanced" else "L")
    assert run.two_layer == (expected == "max")


# -- page files --------------------------------------------------------------------------------


def test_stale_pages_of_a_longer_run_are_removed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    f = out / "doc.txt"
    long = render_bytes(("z" * 300 + "\n").encode() * 400, RenderRequest(level="conservative", reflow=False))
    assert len(long.pages) >= 3
    write_pages(str(f), long.pages)
    short = render_bytes(b"short\n", RenderRequest())
    assert write_pages(str(f), short.pages) == [f"{f}.px1.png"]
    assert sorted(p.name for p in out.iterdir()) == ["doc.txt.px1.png"]


def test_failed_write_leaves_no_partial_page_set(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    f = out / "doc.txt"
    run = render_bytes(("q" * 300 + "\n").encode() * 400, RenderRequest(level="conservative", reflow=False))
    calls = {"n": 0}
    real_replace = os.replace

    def flaky_replace(src, dst):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(export.os, "replace", flaky_replace)
    with pytest.raises(OSError):
        write_pages(str(f), run.pages)
    assert list(out.iterdir()) == []

    real_open = os.open
    opened = {"n": 0}

    def flaky_open(path, flags, mode=0o777):
        opened["n"] += 1
        if opened["n"] == 3:
            raise OSError(28, "No space left on device")
        return real_open(path, flags, mode)

    monkeypatch.setattr(export.os, "replace", real_replace)
    monkeypatch.setattr(export.os, "open", flaky_open)
    with pytest.raises(OSError):
        write_pages(str(f), run.pages)
    assert list(out.iterdir()) == []


# -- caveman-engine pixel simulate ---------------------------------------------------------------


def test_engine_simulate(run_cli, tmp_path):
    req = tmp_path / "req.json"
    req.write_text('{"messages":[{"role":"user","content":"short content string"}],"model":"claude-fable-5"}')
    r = run_cli("caveman-engine", "pixel", "simulate", str(req))
    assert r.rc == 0 and r.stderr == b""
    out = r.stdout.decode()
    assert out.endswith("}\n") and out.count("\n") == 1
    info = json.loads(out)
    assert info["Compressed"] is False and info["HistoryReason"] == "no_closed_prefix" and info["PassthroughReasons"] == {}
    assert '"Reason":"below_min_chars (0 \\u003c 2000)"' in out
    req.write_text('{"foo":1}')
    r = run_cli("caveman-engine", "pixel", "simulate", str(req))
    assert r.rc == 1 and b"pixel simulate: cannot sniff request format" in r.stderr
    req.write_text("{broken")
    r = run_cli("caveman-engine", "pixel", "simulate", str(req))
    assert r.rc == 1 and r.stderr.startswith(b"pixel simulate parse: ") and r.stdout == b""
    req.write_text('{"input":"x","tools":{"not":"a list"}}')
    r = run_cli("caveman-engine", "pixel", "simulate", str(req))
    assert r.rc == 1 and json.loads(r.stdout)["Reason"].startswith("parse_error")
    assert b"pixel simulate transform: parse_error" in r.stderr


@pytest.mark.parametrize(
    "args, rc, err",
    [
        (["--density", "ultra", "R"], 1, '--density must be one of conservative|balanced|max (got "ultra")'),
        (["--bogus", "R"], 1, "unknown pixel simulate flag: --bogus"),
        ([], 1, "usage: caveman-engine pixel simulate"),
        (["R", "R"], 1, "usage: caveman-engine pixel simulate"),
        (["MISSING"], 1, "pixel simulate read: open"),
    ],
)
def test_engine_simulate_errors(run_cli, tmp_path, args, rc, err):
    req = tmp_path / "req.json"
    req.write_text('{"messages":[{"role":"user","content":"x"}]}')
    argv = [str(req) if a == "R" else str(tmp_path / "nope") if a == "MISSING" else a for a in args]
    r = run_cli("caveman-engine", "pixel", "simulate", *argv)
    assert r.rc == rc and err in r.stderr.decode(), r


def test_engine_simulate_density_flag_reaches_the_transform(run_cli, tmp_path):
    req = tmp_path / "req.json"
    req.write_text(json.dumps({"system": "static slab " * 12000, "messages": [{"role": "user", "content": "go"}]}))
    on = json.loads(run_cli("caveman-engine", "pixel", "simulate", "--model", "claude-fable-5", str(req)).stdout)
    off = json.loads(run_cli("caveman-engine", "pixel", "simulate", "--model", "claude-fable-5", "--density", "conservative", str(req)).stdout)
    assert on["Compressed"] and off["Compressed"]
    assert on["ImagePixels"] != off["ImagePixels"]


# -- cavemem pixel ----------------------------------------------------------------------------


def test_cavemem_pixel_help_levels(run_cli):
    top = run_cli("cavemem", "pixel", "--help")
    assert top.rc == 0 and b"render FILE" in top.stdout and top.stderr == b""
    for verb in ("render", "simulate"):
        r = run_cli("cavemem", "pixel", verb, "--help")
        assert r.rc == 0 and b"--model" in r.stdout and b"--json" in r.stdout
    bare = run_cli("cavemem", "pixel")
    assert bare.rc == 2 and bare.report["error"] == "cave_invalid_arguments"
    assert run_cli("cavemem", "pixel", "frob").report["error"] == "cave_invalid_arguments"


def test_cavemem_render_json_report(run_cli, tmp_path):
    f = tmp_path / "app.log"
    f.write_text("\n".join(f"2026-01-01 INFO request {i} finished with status 200 after {i * 7} ms " * 2 for i in range(300)) + "\nemoji \U0001f600\n")
    r = run_cli("cavemem", "pixel", "render", str(f), "--model", "claude-fable-5", "--json")
    assert r.rc == 0 and r.stderr == b"", r
    *pages, summary = lines(r.stdout)
    assert summary["tier"] == "hires" and summary["density"] == "balanced" and summary["model"] == "claude-fable-5"
    assert summary["textTokens"] == count_tokens(f.read_bytes())
    assert set(summary["imageTokens"]) == {"anthropic", "openai", "gemini"}
    assert summary["droppedChars"] == 1 and pages[-1]["droppedCodepoints"] == {"U+1F600": 1}
    assert summary["verdict"] == ("images pay" if summary["profitable"]["anthropic"] else "keep text")
    assert all(os.path.exists(p["file"]) for p in pages)
    unknown = lines(run_cli("cavemem", "pixel", "render", str(f), "--model", "mystery-model-9").stdout)[-1]
    assert unknown["density"] == "conservative" and unknown["tier"] == "standard"
    # no reader model and no explicit density: the reader is unknown, so fail closed to conservative
    none = lines(run_cli("cavemem", "pixel", "render", str(f)).stdout)[-1]
    assert none["density"] == "conservative" and none["model"] is None
    # an explicit density without a model is honoured on the standard tier
    asked = lines(run_cli("cavemem", "pixel", "render", str(f), "--density", "balanced").stdout)[-1]
    assert asked["density"] == "balanced" and asked["tier"] == "standard"


@pytest.mark.parametrize(
    "setup, args, rc, code",
    [
        ("missing", [], 66, "cave_file_unreadable"),
        ("empty", [], 65, "cave_invalid_input"),
        ("blank", [], 65, "cave_invalid_input"),
        ("ok", ["--density", "turbo"], 2, "cave_invalid_arguments"),
        ("ok", ["--cols", "0"], 2, "cave_invalid_arguments"),
    ],
)
def test_cavemem_render_errors(run_cli, tmp_path, setup, args, rc, code):
    f = tmp_path / "in.txt"
    if setup == "empty":
        f.write_bytes(b"")
    elif setup == "blank":
        f.write_bytes(b" \n\t\n")
    elif setup == "ok":
        f.write_bytes(b"hello\n")
    r = run_cli("cavemem", "pixel", "render", str(f), *args)
    assert r.rc == rc and r.report["error"] == code and r.stdout == b"", r
    assert not (tmp_path / "in.txt.px1.png").exists()


def test_cavemem_simulate(run_cli):
    body = b'{"messages":[{"role":"user","content":"short content string"}],"model":"claude-fable-5"}'
    r = run_cli("cavemem", "pixel", "simulate", input=body)
    assert r.rc == 0 and json.loads(r.stdout)["HistoryReason"] == "no_closed_prefix"
    r = run_cli("cavemem", "pixel", "simulate", input=b"{not json")
    assert r.rc == 65 and r.report["error"] == "cave_invalid_input" and r.stdout == b""
    r = run_cli("cavemem", "pixel", "simulate", input=b'{"foo":1}')
    assert r.rc == 65 and "cannot sniff" in r.report["message"]
    r = run_cli("cavemem", "pixel", "simulate", "--model", "future-gemini", input=b'{"contents":[{"parts":[{"text":"hi"}]}]}')
    assert r.rc == 0 and json.loads(r.stdout)["Reason"] == "unsupported_image_token_profile"


# -- cavemem pixel simulate: images already in the request ------------------------------------


def _b64_image(w: int, h: int, fmt: str) -> str:
    import base64

    buf = io.BytesIO()
    PIL.new("RGB", (w, h), (200, 30, 30)).save(buf, format=fmt)
    return base64.b64encode(buf.getvalue()).decode()


def test_cavemem_simulate_prices_images_already_in_the_request(run_cli):
    from cavemem.pixel.pricing import anthropic_image_tokens, openai_vision_tokens, with_margin

    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": _b64_image(1000, 500, "PNG")}},
            {"type": "tool_result", "tool_use_id": "t", "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": _b64_image(300, 200, "JPEG")}}]},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "bm90IGFuIGltYWdl"}},
            {"type": "text", "text": "what is in these?"},
        ]}],
    }
    r = run_cli("cavemem", "pixel", "simulate", "--json", input=json.dumps(body).encode())
    assert r.rc == 0, r.stderr
    ex = json.loads(r.stdout)["ExistingImages"]
    assert (ex["count"], ex["unreadable"], ex["sizes"]) == (3, 1, ["1000x500", "300x200"])
    want_a = with_margin(anthropic_image_tokens(1000, 500)) + with_margin(anthropic_image_tokens(300, 200))
    want_o = openai_vision_tokens("gpt-5.6", 1000, 500) + openai_vision_tokens("gpt-5.6", 300, 200)
    assert ex["imageTokens"] == {"anthropic": want_a, "openai": want_o, "gemini": 2 * 1232}


def test_cavemem_simulate_reads_openai_and_gemini_image_sizes():
    from cavemem.pixel.imagesize import base64_images, image_size

    openai = {"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64," + _b64_image(64, 48, "PNG")}]}],
              "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/gif;base64," + _b64_image(7, 9, "GIF")}}]}]}
    gemini = {"contents": [{"parts": [{"inline_data": {"mime_type": "image/webp", "data": _b64_image(2000, 1000, "WEBP")}}, {"text": "hi"}]}]}
    assert sorted(image_size(b) for b in base64_images(openai)) == [(7, 9), (64, 48)]
    assert [image_size(b) for b in base64_images(gemini)] == [(2000, 1000)]


# -- progress (issue 12): a bar on a terminal's stderr, nothing otherwise ------------------------

def _many_pages(tmp_path):
    f = tmp_path / "long.log"
    f.write_bytes(b"".join(b"2026-11-29T08:00:%02d.000Z INFO [api] req=%06d GET /api/v2/items/%d status=200\n" % (i % 60, i, i)
                           for i in range(2500)))
    return f


def test_render_progress_prints_nothing_when_stderr_is_not_a_terminal(run_cli, tmp_path):
    f = _many_pages(tmp_path)
    r = run_cli("cavemem", "pixel", "render", "--json", str(f))
    assert r.rc == 0 and len(lines(r.stdout)) > 2  # several pages, then the summary
    assert r.stderr == b""


def test_render_progress_progress_callback_counts_every_page(tmp_path):
    seen = []
    run = render_bytes(_many_pages(tmp_path).read_bytes(), RenderRequest(level="conservative"), count_text_tokens=False,
                       progress=lambda done, total: seen.append((done, total)))
    n = len(run.pages)
    assert n > 1 and seen == [(i, n) for i in range(1, n + 1)]


@pytest.mark.skipif(__import__("shutil").which("script") is None, reason="util-linux script(1) not installed")
@pytest.mark.parametrize("no_color", [False, True])
def test_render_progress_bar_on_a_terminal_honours_no_color(tmp_path, no_color):
    import re
    import shlex
    import subprocess
    import sys
    from pathlib import Path

    f = _many_pages(tmp_path)
    exe = Path(sys.executable).parent / "cavemem"
    env = dict(os.environ, CAVEMAN_HOME=str(tmp_path / "home"))
    env.pop("NO_COLOR", None)
    if no_color:
        env["NO_COLOR"] = "1"
    proc = subprocess.run(["script", "-qec", f"{shlex.quote(str(exe))} pixel render {shlex.quote(str(f))}", "/dev/null"],
                          capture_output=True, timeout=120, env=env)
    out = proc.stdout.decode(errors="replace")
    assert "\x1b[?25l" in out  # rich hides the cursor while it draws the bar
    colours = re.findall(r"\x1b\[(?:3[0-7]|9[0-7]|38;[0-9;]+)m", out)
    assert (colours == []) is no_color, colours[:5]
