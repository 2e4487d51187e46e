"""OpenAI Chat/Responses and Gemini transforms, GPT history collapse (spec pixel-and-mem A14.3,
A14.4, A14.5b; C25, C43), driven by JSON request fixtures."""

from __future__ import annotations

import base64
import io
import json

import pytest

from cavemem.pixel.simulate import simulate
from cavemem.pixel.transforms import strings as S
from cavemem.pixel.transforms.common import default_transform_options
from cavemem.pixel.transforms.gemini import transform_gemini
from cavemem.pixel.transforms.openai import transform_openai

PIL = pytest.importorskip("PIL.Image")


from conftest import opened_page as opened  # noqa: E402 - one decoder for every pixel test

SYSTEM = "You are a careful assistant. Follow the project rules in every answer. " * 80
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file from the workspace. " * 20,
            "parameters": {"type": "object", "properties": {"path": {"type": "string", "description": "file path"}}, "required": ["path"]},
        },
    }
]


@pytest.fixture(autouse=True)
def _density_unset(monkeypatch):
    monkeypatch.delenv("CAVE_PIXEL_DENSITY", raising=False)


def decode_url(url: str):
    im = opened(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    im.load()
    return im


def chat_body(model="gpt-5.6", **extra):
    body = {"model": model, "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "hello"}], "tools": TOOLS}
    body.update(extra)
    return body


# -- OpenAI Chat -------------------------------------------------------------------------------


def test_chat_slab_balanced_strip_for_gpt56():
    res = transform_openai(chat_body(), default_transform_options("gpt-5.6"))
    info = res.info
    assert info.Compressed and info.Reason == "" and info.ImageCount >= 1
    msgs = res.body["messages"]
    assert msgs[0] == {"role": "system", "content": S.CHAT_POINTER}
    slab = msgs[1]["content"]
    assert msgs[1]["role"] == "user" and slab[-1] == {"type": "text", "text": S.END_OF_GPT_CONTEXT}
    assert slab[0]["type"] == "image_url" and slab[0]["image_url"]["detail"] == "high"
    im = decode_url(slab[0]["image_url"]["url"])
    assert im.size[0] == 617 and im.mode == "RGB" and im.size[1] <= 1932
    assert msgs[2] == {"role": "user", "content": "hello"}
    params = res.body["tools"][0]["function"]["parameters"]
    assert params == {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    assert res.body["tools"][0]["function"]["description"] == TOOLS[0]["function"]["description"]
    assert info.TextTokensEstimate > 0 and info.ImageTokensEstimate > 0


def test_chat_density_off_is_768_mono(monkeypatch):
    monkeypatch.setenv("CAVE_PIXEL_DENSITY", "off")
    res = transform_openai(chat_body(), default_transform_options("gpt-5.6"))
    im = decode_url(res.body["messages"][1]["content"][0]["image_url"]["url"])
    assert im.size[0] == 768 and im.mode == "L"


def test_chat_small_body_passes_through_unchanged():
    body = {"model": "gpt-5.6", "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]}
    res = transform_openai(json.dumps(body).encode(), default_transform_options("gpt-5.6"))
    assert res.body == body and res.error is None and res.info.Reason.startswith("below_min_chars (")
    assert res.info.PassthroughReasons == {}


def test_openai_errors():
    res = transform_openai(b"{not json", default_transform_options())
    assert res.body is None and res.error
    res = transform_openai({"messages": [{"role": "user", "content": "x"}], "tools": {"bad": 1}}, default_transform_options())
    assert res.body is None and res.info.Reason.startswith("parse_error")
    res = transform_openai({"model": "x"}, default_transform_options())
    assert res.body == {"model": "x"} and res.info.Reason == "parse_error: neither messages nor input present"
    assert transform_openai({"messages": [{"role": "system", "content": SYSTEM}]}).info.Reason == "no_user_message"


def test_chat_not_profitable_for_tiny_cpt():
    opts = default_transform_options("gpt-4o")
    opts.chars_per_token = 1000
    res = transform_openai(chat_body("gpt-4o"), opts)
    assert res.info.Reason.startswith("not_profitable (slab=") and res.info.PassthroughReasons == {"not_profitable": 1}


# -- OpenAI Responses --------------------------------------------------------------------------


def test_responses_string_input():
    body = {"model": "gpt-4o", "instructions": SYSTEM, "input": "what is up?", "tools": [
        {"type": "function", "name": "lookup", "description": "Look things up.", "parameters": {"type": "object", "description": "d"}}]}
    res = transform_openai(body, default_transform_options("gpt-4o"))
    assert res.info.Compressed
    assert res.body["instructions"] == S.RESPONSES_POINTER
    (item,) = res.body["input"]
    content = item["content"]
    assert content[0]["type"] == "input_image" and content[0]["detail"] == "high"
    assert decode_url(content[0]["image_url"]).size[0] == 768  # gpt-4o reads conservative strips
    assert content[-2] == {"type": "input_text", "text": S.END_OF_GPT_CONTEXT}
    assert content[-1] == {"type": "input_text", "text": "what is up?"}
    assert res.body["tools"][0]["parameters"] == {"type": "object"}


def test_responses_array_input_with_system_items():
    body = {"model": "gpt-5", "input": [
        {"role": "developer", "content": [{"type": "input_text", "text": SYSTEM}, {"type": "input_image", "image_url": "data:x"}]},
        {"role": "user", "content": [{"type": "input_text", "text": "go"}]},
    ]}
    res = transform_openai(body, default_transform_options("gpt-5"))
    dev, slab, user = res.body["input"]
    assert dev["content"] == [{"type": "input_text", "text": S.RESPONSES_POINTER}, {"type": "input_image", "image_url": "data:x"}]
    assert slab["role"] == "user" and slab["content"][0]["type"] == "input_image"
    assert user == body["input"][1]


# -- GPT history (A14.5b) ----------------------------------------------------------------------


def gpt_turns(n: int) -> list[dict]:
    out = []
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        text = ("OPENING_PROMPT_SHOULD_BE_HISTORY " if i == 0 else f"turn {i} ") + "words and more words " * 60
        out.append({"role": role, "content": text})
    return out


def test_gpt_history_collapse_with_pin_and_guard():
    body = {"model": "gpt-5", "messages": [{"role": "system", "content": SYSTEM}] + gpt_turns(30)}
    res = transform_openai(body, default_transform_options("gpt-5"))
    info = res.info
    assert info.HistoryReason == "collapsed" and info.CollapsedTurns >= 10 and info.CollapsedImages >= 1
    msgs = res.body["messages"]
    assert msgs[0]["content"] == S.CHAT_POINTER and msgs[1]["content"][-1]["text"] == S.END_OF_GPT_CONTEXT
    synthetic, guard = msgs[2], msgs[3]
    assert synthetic["role"] == "user" and synthetic["content"][0]["text"] == S.HISTORY_SYNTHETIC_INTRO
    assert guard["role"] == "developer" and guard["content"].startswith("pxpipe note:")
    pins = [p["text"] for p in synthetic["content"] if p["type"] == "text" and "CURRENT USER REQUEST" in p["text"]]
    assert pins and "Answer THAT request" in guard["content"]
    plain_user = [m for m in msgs[4:] if m["role"] == "user"]
    assert all("OPENING_PROMPT_SHOULD_BE_HISTORY" not in m["content"] for m in plain_user)
    assert len(msgs) == 4 + (30 - info.CollapsedTurns)


def test_gpt_history_barrier_and_short_prefix():
    items = gpt_turns(30)
    items[3] = {"type": "item_reference", "id": "ref_1"}
    body = {"model": "gpt-5", "input": [{"role": "system", "content": SYSTEM}] + items}
    res = transform_openai(body, default_transform_options("gpt-5"))
    assert res.info.HistoryReason == "prefix_too_short"
    small = {"model": "gpt-5", "messages": [{"role": "system", "content": SYSTEM}] + gpt_turns(8)}
    assert transform_openai(small, default_transform_options("gpt-5")).info.HistoryReason == "prefix_too_short"
    tiny = {"model": "gpt-5", "messages": [{"role": "system", "content": SYSTEM}] + gpt_turns(6)}
    assert transform_openai(tiny, default_transform_options("gpt-5")).info.HistoryReason == "no_closed_prefix"


def test_gpt_history_keeps_open_tool_calls_live():
    turns = gpt_turns(30)
    turns[11] = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
    turns.insert(29, {"role": "tool", "tool_call_id": "c1", "content": "late result"})
    body = {"model": "gpt-5", "messages": [{"role": "system", "content": SYSTEM}] + turns}
    res = transform_openai(body, default_transform_options("gpt-5"))
    assert res.info.HistoryReason == "collapsed" and res.info.CollapsedTurns == 11  # stops before the open call
    assert res.body["messages"][4]["tool_calls"][0]["id"] == "c1"


# -- Gemini ------------------------------------------------------------------------------------


def test_gemini_large_user_text_becomes_one_image():
    body = {"contents": [{"role": "user", "parts": [{"text": "abcdefgh " * 888 + "tail"}]}]}
    res = transform_gemini(body, default_transform_options("gemini-3.6-flash"))
    info = res.info
    assert info.Reason == "applied" and info.Compressed
    assert info.ImageCount == 1 and info.ImageTokensEstimate == 1232
    parts = res.body["contents"][0]["parts"]
    assert parts[0]["inline_data"]["mime_type"] == "image/png"


@pytest.mark.parametrize(
    "body, model, reason",
    [
        ({"contents": [{"parts": [{"text": "x" * 9000}]}]}, "future-gemini", "unsupported_image_token_profile"),
        ({"contents": [], "generation_config": {"media_resolution": "MEDIA_RESOLUTION_LOW"}}, "gemini-3-pro", "unsupported_media_resolution"),
        ({"contents": [], "generationConfig": {}, "generation_config": {}}, "gemini-3-pro", "unsupported_media_resolution"),
        ({"contents": [{"parts": [{"text": "x" * 9000}]}]}, "gemini-2.5-flash", "unsupported_image_token_profile"),
        ({"contents": [{"parts": [{"text": "short"}]}]}, "gemini-3-pro", "no_profitable_blocks"),
    ],
)
def test_gemini_pass_through_returns_the_body(body, model, reason):
    res = transform_gemini(body, default_transform_options(model))
    assert res.info.Reason == reason and res.body == body and res.error is None


def test_gemini_system_and_function_response():
    big = {"output": "\n".join(f"row {i}: " + "data " * 40 for i in range(200))}
    body = {
        "systemInstruction": {"parts": [{"text": "Project rules: be precise and cite files. " * 80 + "<env>cwd=/x</env>"}]},
        "contents": [
            {"role": "user", "parts": [{"text": "look it up"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {"q": "all"}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": big}}]},
        ],
        "generationConfig": {"mediaResolution": "MEDIA_RESOLUTION_HIGH"},
    }
    res = simulate(json.dumps(body).encode(), model="gemini-3-pro")
    info, out = res.info, res.body
    assert info.Reason == "applied" and info.DynamicBlockCount == 1
    si = out["systemInstruction"]["parts"]
    assert si[0]["text"] == S.GEMINI_SYSTEM_POINTER and si[1]["text"] == "<env>cwd=/x</env>"
    first = out["contents"][0]["parts"]
    assert "inline_data" in first[0] and {"text": S.END_OF_RENDERED_CONTEXT} in first and first[-1] == {"text": "look it up"}
    stub = out["contents"][2]["parts"][0]["functionResponse"]["response"]["caveman_pixel"]
    assert stub["payload_rendered_to_following_images"] is True and stub["image_count"] >= 1
    assert info.ImageTokensEstimate == 1232 * info.ImageCount


def test_gemini_history_collapse():
    contents = [{"role": "user" if i % 2 == 0 else "model", "parts": [{"text": f"turn {i} " + "gemini words " * 300}]} for i in range(18)]
    res = transform_gemini({"contents": contents}, default_transform_options("gemini-3-pro"))
    assert res.info.HistoryReason == "collapsed" and res.info.CollapsedTurns == 14
    first = res.body["contents"][0]
    assert first["parts"][0]["text"] == S.HISTORY_SYNTHETIC_INTRO and "inline_data" in first["parts"][1]
    assert res.body["contents"][1:] == contents[14:]


def test_gemini_malformed_contents():
    res = transform_gemini({"contents": {"not": "a list"}}, default_transform_options("gemini-3-pro"))
    assert res.body is None and res.error
