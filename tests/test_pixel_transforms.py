"""Anthropic request transform, history collapse, schema stripping, factsheet and simulate
(spec pixel-and-mem A14.2, A14.5a, A14.6-A14.7, A15; C32-C33, C39-C42)."""

from __future__ import annotations

import base64
import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.pixel.simulate import SimulateError, simulate
from cavemem.pixel.transforms import strings as S
from cavemem.pixel.transforms.anthropic import transform_anthropic
from cavemem.pixel.transforms.common import TransformInfo, default_transform_options
from cavemem.pixel.transforms.factsheet import _PATTERNS, _path_ext_spans, fact_sheet_text
from cavemem.pixel.transforms.schema import schema_has_structure, strip_schema_descriptions

PIL = pytest.importorskip("PIL.Image")


from conftest import opened_page as opened  # noqa: E402 - one decoder for every pixel test


@pytest.fixture(autouse=True)
def _density_unset(monkeypatch):
    monkeypatch.delenv("CAVE_PIXEL_DENSITY", raising=False)


def images_of(blocks):
    return [b for b in blocks if isinstance(b, dict) and b.get("type") == "image"]


def decode_block(block):
    im = opened(io.BytesIO(base64.b64decode(block["source"]["data"])))
    im.load()
    return im


def count_markers(value) -> int:
    return json.dumps(value).count('"cache_control"')


def turns(n: int, size: int, first: int = 0) -> list[dict]:
    out = []
    for i in range(first, first + n):
        role = "user" if i % 2 == 0 else "assistant"
        out.append({"role": role, "content": f"turn {i} " + ("lorem ipsum dolor " * size)[: size - 8]})
    return out


# -- simulate (A15) --------------------------------------------------------------------------


def test_simulate_short_anthropic_exact_line():
    body = b'{"messages":[{"role":"user","content":"short content string"}],"model":"claude-fable-5"}'
    line = simulate(body).info_json()
    assert line == (
        '{"Compressed":false,"Reason":"below_min_chars (0 \\u003c 2000)","OrigChars":0,"CompressedChars":0,'
        '"ImageCount":0,"ImageBytes":0,"ImagePixels":0,"TextTokensEstimate":0,"ImageTokensEstimate":0,'
        '"StaticChars":0,"DynamicChars":0,"DynamicBlockCount":0,"ReminderImgs":0,"ToolResultImgs":0,'
        '"DroppedChars":0,"PassthroughReasons":{},"KeptSharpBlocks":0,"TruncatedToolResults":0,"OmittedChars":0,'
        '"CollapsedTurns":0,"CollapsedChars":0,"CollapsedImages":0,"HistoryReason":"no_closed_prefix",'
        '"Recoverable":null}'
    )


def test_simulate_sniffing():
    with pytest.raises(SimulateError) as e:
        simulate(b'{"foo":1}')
    assert "cannot sniff request format" in e.value.message
    chat_wins = simulate(b'{"input":"x","messages":[{"role":"system","content":"s"}]}')
    assert chat_wins.format == "openai" and chat_wins.info.Reason == "no_user_message"
    responses = simulate(b'{"input":"x"}')
    assert responses.info.Reason == "no_static_context"
    assert simulate(b'{"contents":[],"model":"gemini-3-pro"}').format == "gemini"
    assert simulate(b'{"messages":[{"role":"user","content":"hi"}]}').format == "anthropic"


@pytest.mark.parametrize("raw", [b"", b"{bad", b"[1,2]", b'"str"', b"\xff\xfe", b"{" * 100000])
def test_simulate_malformed_json_is_a_parse_error(raw):
    with pytest.raises(SimulateError) as e:
        simulate(raw)
    assert e.value.stage == " parse"


def test_simulate_model_flag_overrides_body():
    body = json.dumps({"model": "claude-3-5-sonnet", "system": "static slab " * 12000, "messages": [{"role": "user", "content": "go"}]})
    res = simulate(body.encode(), model="claude-fable-5")
    first = images_of(res.body["messages"][0]["content"])[0]
    assert decode_block(first).size[0] == 2573


# -- Anthropic slab (A14.2) ------------------------------------------------------------------


def slab_body(**extra):
    body = {"model": "claude-fable-5", "system": "static slab " * 12000, "messages": [{"role": "user", "content": "go"}]}
    body.update(extra)
    return body


def test_slab_hires_balanced_and_no_marker_added():
    body = slab_body()
    res = transform_anthropic(body, default_transform_options())
    assert res.info.Compressed and res.info.Reason == "" and res.info.PassthroughReasons is None
    content = res.body["messages"][0]["content"]
    im = decode_block(images_of(content)[0])
    assert im.size[0] == 2573 and im.mode == "RGB"
    assert count_markers(res.body) == 0
    assert "system" not in res.body
    texts = [b["text"] for b in content if b["type"] == "text"]
    assert texts[-2:] == [S.END_OF_RENDERED_CONTEXT, "go"]
    assert body["system"].startswith("static slab")  # the caller's object is untouched


def test_slab_density_off_is_mono(monkeypatch):
    monkeypatch.setenv("CAVE_PIXEL_DENSITY", "off")
    res = transform_anthropic(slab_body(), default_transform_options())
    im = decode_block(images_of(res.body["messages"][0]["content"])[0])
    assert im.size[0] == 2573 and im.mode == "L"


def test_slab_moves_the_static_cache_marker():
    system = [
        {"type": "text", "text": "x-anthropic-billing-header: cc_version=1"},
        {"type": "text", "text": "You are helpful. " * 800, "cache_control": {"type": "ephemeral"}},
    ]
    res = transform_anthropic(slab_body(system=system, model="claude-3-5-sonnet"), default_transform_options())
    assert count_markers(res.body) == 1
    slab = images_of(res.body["messages"][0]["content"])
    assert slab[-1]["cache_control"] == {"type": "ephemeral"}
    assert res.body["system"] == [{"type": "text", "text": "x-anthropic-billing-header: cc_version=1"}]
    assert decode_block(slab[0]).mode == "L" and decode_block(slab[0]).size[0] <= 1568


def test_dynamic_system_parts_move_to_last_user_message():
    system = "Rules of the house. " * 200 + "\n<env>\ncwd: /tmp/x\n</env>\n\n# Environment\nplatform: linux\n\n# Next\nmore rules"
    body = slab_body(system=system, model="claude-3-5-sonnet", messages=[
        {"role": "user", "content": "first"}, {"role": "assistant", "content": "ok"}, {"role": "user", "content": "second"},
    ])
    res = transform_anthropic(body, default_transform_options())
    info = res.info
    assert info.DynamicBlockCount == 1 and info.DynamicChars > 0
    last = res.body["messages"][-1]["content"]
    assert last[-1]["text"].startswith("<system-reminder>\nContext relocated by pxpipe")
    assert "cwd: /tmp/x" in last[-1]["text"] and "platform: linux" in last[-1]["text"]


def test_static_tag_reports():
    base = "Static rules. " * 200
    body = slab_body(system=base + "<foo>custom</foo><rules>v1</rules>", model="claude-3-5-sonnet")
    first = transform_anthropic(body, default_transform_options()).info
    assert first.unknownStaticTags == ["foo"] and first.churningStaticTags == []
    body["system"] = base + "<foo>custom</foo><rules>v2</rules>"
    second = transform_anthropic(body, default_transform_options()).info
    assert second.churningStaticTags == ["rules"]
    assert '"unknownStaticTags":["foo"]' in second.to_json()
    assert "unknownStaticTags" not in TransformInfo().to_json()


def test_tools_become_docs_and_stubs():
    tools = [
        {"name": "Edit", "description": "Edit a file. " * 100, "input_schema": {"type": "object", "properties": {
            "description": {"type": "string", "description": "what"}, "path": {"type": "string", "title": "P"}}}},
        {"type": "web_search_20250305", "name": "web_search"},
    ]
    res = transform_anthropic(slab_body(tools=tools, model="claude-3-5-sonnet"), default_transform_options())
    edit, server = res.body["tools"]
    assert edit["description"].startswith('\u24d8 Full docs: see "## Tool: Edit"') and S.READ_BEFORE_WRITE_NOTE in edit["description"]
    assert edit["input_schema"] == {"type": "object", "properties": {"description": {"type": "string"}, "path": {"type": "string"}}}
    assert server == tools[1]


def test_reminders_and_tool_results_are_imaged_in_place():
    # the gate counts every original line as at least one row, so short-line logs stay text
    log = "\n".join(f"2026-01-01 12:00:{i % 60:02d} INFO request {i} ok path=/srv/app/main.py " + "detail " * 20 for i in range(300))
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "<system-reminder>\n" + "Remember the rules. " * 400 + "\n</system-reminder>"},
                                     {"type": "text", "text": "run it"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"cmd": "run"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": log},
                                     {"type": "tool_result", "tool_use_id": "t0", "content": log, "is_error": True}]},
    ]
    res = transform_anthropic(slab_body(messages=messages, model="claude-3-5-sonnet"), default_transform_options())
    info = res.info
    assert info.ReminderImgs >= 1 and info.ToolResultImgs >= 1
    first = res.body["messages"][0]["content"]
    assert not any(b.get("type") == "text" and b["text"].startswith("<system-reminder>") for b in first)
    ok, err = res.body["messages"][2]["content"]
    assert images_of(ok["content"]) and ok["content"][-1]["text"].startswith("[Exact identifiers")
    assert err["content"] == log  # error results stay text
    assert info.TextTokensEstimate > info.ImageTokensEstimate > 0


def test_huge_tool_result_is_truncated_to_ten_images():
    log = "\n".join(f"2026-01-01 12:00:00 INFO entry {i} " + "x" * 200 for i in range(20000))
    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": log}]},
    ]
    res = transform_anthropic(slab_body(messages=messages, model="claude-3-5-sonnet"), default_transform_options())
    info = res.info
    assert info.TruncatedToolResults == 1 and info.OmittedChars > 0
    assert 1 <= info.ToolResultImgs <= 10


def test_keep_sharp_callback_and_recoverable():
    text = "<system-reminder>\n" + "Keep me as text please. " * 400 + "\n</system-reminder>"
    messages = [{"role": "user", "content": [{"type": "text", "text": text}, {"type": "text", "text": "hi"}]}]
    opts = default_transform_options()
    opts.keep_sharp = lambda kind, t: kind == "reminder"
    res = transform_anthropic(slab_body(messages=messages, model="claude-3-5-sonnet"), opts)
    assert res.info.KeptSharpBlocks == 1 and res.info.PassthroughReasons == {"kept_sharp": 1}
    assert res.info.ReminderImgs == 0
    opts = default_transform_options()
    opts.keep_sharp = lambda kind, t: 1 / 0  # a failing callback does not block compression
    opts.emit_recoverable = True
    res = transform_anthropic(slab_body(messages=messages, model="claude-3-5-sonnet"), opts)
    rec = res.info.Recoverable
    assert res.info.ReminderImgs >= 1 and rec[0].Kind == "reminder" and rec[0].Text == text
    assert re.fullmatch(r"rec_[0-9a-f]{8}", rec[0].ID)


def test_parse_errors_and_pass_through():
    res = transform_anthropic(b"{bad json", default_transform_options())
    assert res.body is None and res.error and res.info.Reason.startswith("parse_error:")
    res = transform_anthropic({"messages": []}, default_transform_options())
    assert res.body is None and res.info.Reason == "no_messages"
    opts = default_transform_options()
    opts.compress = False
    assert transform_anthropic(slab_body(), opts).info.Reason == "compress=false"


# -- history (A14.5a) --------------------------------------------------------------------------


def test_history_collapse_without_slab():
    body = {"model": "claude-3-5-sonnet", "system": "short", "messages": turns(15, 3500)}
    res = transform_anthropic(body, default_transform_options())
    info = res.info
    assert info.HistoryReason == "collapsed" and info.CollapsedTurns == 10
    assert info.TextTokensEstimate > info.ImageTokensEstimate > 0
    msgs = res.body["messages"]
    assert len(msgs) == 6 and msgs[1:] == body["messages"][10:]
    synthetic = msgs[0]["content"]
    assert synthetic[0]["text"] == S.HISTORY_SYNTHETIC_INTRO and synthetic[-1]["text"] == S.HISTORY_SYNTHETIC_OUTRO
    assert any(b["type"] == "text" and b["text"].startswith("[Most recent collapsed user turn:") for b in synthetic)
    assert decode_block(images_of(synthetic)[0]).mode == "RGB"  # role-coloured tags


def test_history_images_are_stable_across_turns():
    a = transform_anthropic({"model": "m", "messages": turns(20, 3500)}, default_transform_options())
    b = transform_anthropic({"model": "m", "messages": turns(22, 3500)}, default_transform_options())
    assert a.info.CollapsedTurns == b.info.CollapsedTurns == 10
    ia, ib = images_of(a.body["messages"][0]["content"]), images_of(b.body["messages"][0]["content"])
    assert ia[0]["source"]["data"] == ib[0]["source"]["data"]


def test_open_tool_pair_stays_live():
    msgs = turns(16, 2000)
    msgs[9] = {"role": "assistant", "content": [{"type": "tool_use", "id": "open1", "name": "Read", "input": {}}]}
    msgs[12] = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "open1", "content": "done"}]}
    res = transform_anthropic({"model": "m", "messages": msgs}, default_transform_options())
    assert res.info.HistoryReason == "prefix_too_short"  # the only closed prefix ends before index 9


def test_history_with_slab_moves_one_marker_onto_history():
    system = [{"type": "text", "text": "Static instructions. " * 500, "cache_control": {"type": "ephemeral"}}]
    body = {"model": "claude-3-5-sonnet", "system": system, "messages": turns(56, 300)}
    res = transform_anthropic(body, default_transform_options())
    assert res.info.HistoryReason == "collapsed" and res.info.CollapsedTurns == 49
    msgs = res.body["messages"]
    assert count_markers(res.body) == 1
    assert count_markers(msgs[1]["content"]) == 1  # on the carry-over history image
    demoted = [b["text"] for b in msgs[0]["content"] if b["type"] == "text" and b["text"].startswith("[Opening turn")]
    assert demoted and 'Preview: "turn 0 lorem' in demoted[0]


# -- schema and factsheet (A14.6, A14.7) -------------------------------------------------------


def test_schema_strip():
    schema = {"properties": {"description": {"type": "string", "description": "x"}}}
    out, changed = strip_schema_descriptions(schema)
    assert changed and out == {"properties": {"description": {"type": "string"}}}
    out, changed = strip_schema_descriptions({"type": "string", "format": "x" * 33, "additionalProperties": False})
    assert changed and out == {"type": "string", "additionalProperties": False}
    out, _ = strip_schema_descriptions({"items": [{"description": "tuple stays"}], "anyOf": [{"title": "t", "type": "null"}]})
    assert out == {"items": [{"description": "tuple stays"}], "anyOf": [{"type": "null"}]}
    deep = inner = {}
    for _ in range(30):
        inner["properties"] = {"p": {"description": "d"}}
        inner = inner["properties"]["p"]
    stripped, _ = strip_schema_descriptions(deep)
    assert "description" in json.dumps(stripped)  # below depth 20 nodes are returned unchanged
    assert schema_has_structure({"enum": [1]}) and not schema_has_structure({"type": "string"})


def test_factsheet():
    text = "retry DEPLOY-77 failed\nretry DEPLOY-77 ok\nfinal DEPLOY-77 done\nsha 9d121ac"
    assert fact_sheet_text(text).endswith("content: DEPLOY-77 \u00d73 \u00b7 9d121ac]")
    assert fact_sheet_text("a decade and a facade") == ""
    assert fact_sheet_text("READ-ONLY mode") == ""
    sheet = fact_sheet_text("release v1.2.3 shipped")
    assert "v1.2.3" in sheet and "\u00d7" not in sheet
    assert fact_sheet_text("Just some prose without identifiers.") == ""
    urls = " ".join(f"https://example.com/p{i:03d}" for i in range(80)) + " 9d121ac 47821"
    sheet = fact_sheet_text(urls)
    assert "9d121ac" in sheet and "47821" in sheet and sheet.count("https://") <= 8


def test_factsheet_pathological_input_is_fast():
    import time

    start = time.monotonic()
    fact_sheet_text((("/a/a/" * 100) + "=/b.c ") * 500 + ("/" + "a" * 511 + " ") * 500)
    assert time.monotonic() - start < 5


_PATH_EXT = next(p for kind, p, _ in _PATTERNS if kind == "path_ext")


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="a/._-@~+1Z/x.t ", max_size=40))
def test_linear_path_scan_matches_the_regex(s):
    assert _path_ext_spans(s) == [(m.start(), m.group()) for m in _PATH_EXT.finditer(s)]


@pytest.mark.parametrize("fmt", ["anthropic", "openai", "gemini"])
def test_deeply_nested_and_lone_surrogate_bodies(fmt):
    nested = "[" * 950 + "]" * 950
    filler = "\\ud800 lone " * 400 + "x" * 3000
    body = {
        "anthropic": '{"messages":[{"role":"user","content":"x","extra":%s}],"system":"%s"}',
        "openai": '{"input":[{"role":"user","content":"x","extra":%s}],"instructions":"%s"}',
        "gemini": '{"contents":[{"parts":[{"text":"x","extra":%s}]}],"systemInstruction":{"parts":[{"text":"%s"}]}}',
    }[fmt] % (nested, filler)
    res = simulate(body.encode(), model="gemini-3-pro" if fmt == "gemini" else None)
    assert res.format == fmt and res.error is None and res.info.Compressed
    json.loads(res.info_json())
