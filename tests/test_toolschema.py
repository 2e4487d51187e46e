"""``toolschema`` (catalog reduction, spec §3.10 / §7.11) and ``toolschema-annotations``
(byte-preserving strip, spec §3.11 / §7.12)."""

from __future__ import annotations

import json
import time

import pytest

from cavemem.compressors.toolschema import (
    ToolSchemaCompressor,
    cap_bytes,
    compress_description,
    split_sentences,
)
from cavemem.compressors.toolschema_annotations import ToolSchemaAnnotationsCompressor, strip_annotations
from conftest import CAVEMAN_EVALS, eval_fixture

FILLER = (
    "It walks every folder of the project tree and reports each hit with some context. "
    "Results are ranked by a relevance score that the server computes for you."
)
SAMPLE_CATALOG = {
    "tools": [
        {
            "name": "search_files",
            "description": "Search the workspace for files. " + FILLER,
            "inputSchema": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": "SearchFilesArgs",
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Text to look for.", "examples": ["func main"]},
                    "mode": {
                        "type": "string",
                        "enum": ["regex", "literal", "glob"],
                        "default": "literal",
                        "title": "Mode",
                        "description": "How to interpret the query.",
                    },
                    "description": {"type": "string", "description": "Optional note."},
                },
                "required": ["query"],
            },
        }
    ]
}


def compress(obj) -> bytes | None:
    return ToolSchemaCompressor().compress(json.dumps(obj).encode())


def test_sample_catalog_exact_output():
    out = compress(SAMPLE_CATALOG)
    assert out == (
        b'{"tools":[{"description":"Search the workspace for files.","inputSchema":{"properties":'
        b'{"description":{"description":"Optional note.","type":"string"},"mode":{"default":"literal",'
        b'"description":"How to interpret the query.","enum":["regex","literal","glob"],"type":"string"},'
        b'"query":{"description":"Text to look for.","type":"string"}},"required":["query"],"type":"object"},'
        b'"name":"search_files"}]}'
    )
    for gone in (b"examples", b"title", b"$schema", b"func main", b"SearchFilesArgs"):
        assert gone not in out
    assert ToolSchemaCompressor().compress(out) == out  # idempotent


def test_envelope_fields_are_kept_and_schema_titles_dropped():
    doc = {
        "title": "My catalog",
        "tools": [
            {
                "name": "t",
                "title": "Tool title",
                "description": "  Short.  ",
                "annotations": {"title": "Annotated"},
                "_meta": {"title": "meta title"},
                "x-vendor": {"title": "v"},
                "cache_control": {"type": "ephemeral"},
                "input_schema": {"title": "Args", "properties": {"p": {"title": "P", "type": "string"}}},
            }
        ],
    }
    out = json.loads(compress(doc))
    tool = out["tools"][0]
    assert out["title"] == "My catalog"
    assert tool["title"] == "Tool title" and tool["annotations"] == {"title": "Annotated"}
    assert tool["_meta"] == {"title": "meta title"} and tool["x-vendor"] == {"title": "v"}
    assert tool["cache_control"] == {"type": "ephemeral"}
    assert tool["description"] == "Short."  # trimmed even when short
    assert tool["input_schema"] == {"properties": {"p": {"type": "string"}}}


def test_user_named_keys_survive_in_name_maps():
    schema = {
        "type": "object",
        "dependentSchemas": {"title": {"title": "drop", "type": "string"}},
        "dependentRequired": {"example": ["a"]},
        "dependencies": {"$comment": ["b"]},
        "properties": {"examples": {"type": "array", "examples": [[1]]}},
    }
    out = json.loads(compress({"name": "x", "parameters": schema}))["parameters"]
    assert out["dependentSchemas"] == {"title": {"type": "string"}}
    assert out["dependentRequired"] == {"example": ["a"]}
    assert out["dependencies"] == {"$comment": ["b"]}
    assert out["properties"] == {"examples": {"type": "array"}}


def test_openai_function_nesting_and_bare_arrays():
    doc = [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"title": "x", "type": "object"}}}, {"title": "bare schema", "type": "string"}]
    out = json.loads(compress(doc))
    assert out[0]["function"]["parameters"] == {"type": "object"}
    assert out[1] == {"title": "bare schema", "type": "string"}  # array elements are envelopes


def test_raw_schema_document_and_scalars():
    assert json.loads(compress({"type": "object", "title": "T", "$defs": {"title": {"const": {"title": 1}}}})) == {"$defs": {"title": {"const": {"title": 1}}}, "type": "object"}
    assert ToolSchemaCompressor().compress(b'"just a string"') == b'"just a string"'
    assert ToolSchemaCompressor().compress(b'{"tools":[],"n":1.50}') == b'{"n":1.50,"tools":[]}'


CONSTRAINT_SENTENCES = [
    "The path must be an absolute path.",
    "Provide exactly one of body or file.",
    "Rejected if body is empty.",
    "The format must be RFC3339.",
    "Durations use ISO 8601 duration syntax.",
    "Anything over 100 errors.",
    "Values above 100 are not allowed.",
    "Note that negative numbers are invalid.",
]


def test_constraint_sentences_survive_and_filler_goes():
    text = " ".join(
        ["Write the file to disk."]
        + CONSTRAINT_SENTENCES[:4]
        + ["This parameter carries no rule of its own and exists for symmetry."]
        + CONSTRAINT_SENTENCES[4:]
        + ["The server paginates for you automatically."]
    )
    out = compress_description(text)
    assert out == " ".join(["Write the file to disk."] + CONSTRAINT_SENTENCES)
    assert compress_description(out) == out


def test_lead_is_capped_at_a_word_boundary_without_ellipsis():
    s = "The number of items to return in a single page of results, which the server paginates for you automatically."
    assert cap_bytes(s) == "The number of items to return in a single page of results, which the server"
    long = s + " " + FILLER
    assert compress_description(long) == "The number of items to return in a single page of results, which the server"


def test_utf8_cut_never_produces_replacement_characters():
    desc = "a" * 79 + "é" + "b" * 200
    out = compress({"name": "x", "description": desc})
    assert "\ufffd" not in out.decode() and json.loads(out)["description"] == "a" * 79


@pytest.mark.parametrize(
    "text, sentences",
    [
        ("Target path, e.g. /srv/data. Must exist.", ["Target path, e.g. /srv/data.", "Must exist."]),
        ("Use a tool, e.g. Grep for text. Then stop.", ["Use a tool, e.g. Grep for text.", "Then stop."]),
        ("Ask Dr. Who. Then J. Smith. Done.", ["Ask Dr. Who.", "Then J. Smith.", "Done."]),
        ("Version 2. Next one. lower case. Ok!", ["Version 2.", "Next one. lower case.", "Ok!"]),
        ("See U.S. Law for details. Fine.", ["See U.S. Law for details.", "Fine."]),
        ("Ends.\tÉtude follows.", ["Ends.", "Étude follows."]),
    ],
)
def test_sentence_splitting(text, sentences):
    assert split_sentences(text) == sentences


@pytest.mark.parametrize("bad", [b"{not json", b"{} {}", b'{"a":1} }', b"", b"   ", b"[1,]", b"NaN"])
def test_malformed_input_passes_through(bad):
    assert ToolSchemaCompressor().compress(bad) is None


def test_bad_and_huge_inputs_stay_fast():
    comp = ToolSchemaCompressor()
    t0 = time.perf_counter()
    assert comp.compress(b"[" * 100_000 + b"]" * 100_000) is None
    huge_desc = compress({"name": "x", "description": "word " * 200_000})  # 1 MB single sentence
    assert len(huge_desc) < 200
    many = {"tools": [{"name": f"t{i}", "description": "Do a thing. " + FILLER, "inputSchema": {"title": "x", "type": "object"}} for i in range(20_000)]}
    out = compress(many)
    assert out.count(b'"name"') == 20_000 and b"title" not in out
    assert comp.compress(b'{"description":"\xff\xfe bad bytes"}') == '{"description":"\ufffd\ufffd bad bytes"}'.encode()
    assert time.perf_counter() - t0 < 20


@pytest.mark.skipif(not CAVEMAN_EVALS.exists(), reason="caveman eval corpus not present")
def test_eval_tool_catalog_through_the_engine():
    from cavemem.engine.core import Engine

    raw = eval_fixture("tool_catalog.json")
    res = Engine().compress(raw, type="toolschema")
    assert 0.55 <= res.ratio <= 0.85
    json.loads(res.output)
    assert b"search_files" in res.output and b"regex" in res.output
    assert b"respects .gitignore" not in res.output
    assert res.recovery_handle and Engine().retrieve(res.recovery_handle) == raw


# -- toolschema-annotations ------------------------------------------------------------------------


def strip(raw: bytes) -> tuple[bytes, bool]:
    out, ok = strip_annotations(raw)
    if ok:
        assert strip_annotations(out) == (out, True)  # idempotent
    return out, ok


@pytest.mark.parametrize(
    "raw, want",
    [
        (
            b'[{"name":"Read","input_schema":{"$schema":"x","title":"Read args","deprecated":false,"examples":[{"path":"a.go"}],"type":"object"}}]',
            b'[{"name":"Read","input_schema":{"type":"object"}}]',
        ),
        (
            b'{"name":"x","title":"t","deprecated":true,"examples":[1],"input_schema":{"title":"drop"}}',
            b'{"name":"x","title":"t","deprecated":true,"examples":[1],"input_schema":{}}',
        ),
        (
            b'{"type":"function","title":"keep","function":{"name":"f","parameters":{"title":"a","type":"object"}}}',
            b'{"type":"function","title":"keep","function":{"name":"f","parameters":{"type":"object"}}}',
        ),
        (
            b'{"input_schema":{"anyOf":[{"title":"a","type":"string"},{"title":"b"}],"enum":[{"title":1}],"const":{"title":2},"default":{"title":3}}}',
            b'{"input_schema":{"anyOf":[{"type":"string"},{}],"enum":[{"title":1}],"const":{"title":2},"default":{"title":3}}}',
        ),
        (
            b'{"input_schema":{ "type" : "object" ,\n      "title" : "drop me" ,\n      "maxItems" : 1.50 }}',
            b'{"input_schema":{ "type" : "object" ,\n      "maxItems" : 1.50 }}',
        ),
        (b'{"input_schema":{"\\u0074itle":"x","a":1}}', b'{"input_schema":{"a":1}}'),
        (b'{"input_schema":{  "title":"x" , "examples":[] }}', b'{"input_schema":{  }}'),
        (b'{"input_schema":{"a":1,"title":"x","b":2,"examples":[],"deprecated":true}}', b'{"input_schema":{"a":1,"b":2}}'),
        (
            b'{"parameters":{"properties":{"title":{"title":"T","type":"string"}},"items":{"title":"i"},"description":{"title":"kept"}}}',
            b'{"parameters":{"properties":{"title":{"type":"string"}},"items":{},"description":{"title":"kept"}}}',
        ),
    ],
)
def test_strip_exact_outputs(raw, want):
    assert strip(raw) == (want, True)


def test_nothing_to_strip_returns_the_same_bytes_ok():
    raw = b'{"tools":[{"input_schema":{"title":"x"}}], "cache_control" : {"type":"ephemeral"}}'
    assert strip(raw) == (raw, True)  # a {"tools": [...]} wrapper is not entered
    assert ToolSchemaAnnotationsCompressor().compress(raw) == raw


@pytest.mark.parametrize("bad", [b"{not json", b'{"a":1}{', b"", b"   ", b"[" * 50_000 + b"]" * 50_000])
def test_strip_fails_closed(bad):
    assert strip_annotations(bad) == (bad, False)
    assert ToolSchemaAnnotationsCompressor().compress(bad) is None


def test_strip_keeps_raw_invalid_utf8_and_is_fast_on_big_input():
    raw = b'{"input_schema":{"title":"x","description":"bad \xff byte","type":"object"}}'
    assert strip(raw) == (b'{"input_schema":{"description":"bad \xff byte","type":"object"}}', True)
    big = json.dumps([{"name": f"t{i}", "input_schema": {"title": "x" * 50, "type": "object", "properties": {"a": {"title": "A", "type": "string"}}}} for i in range(30_000)]).encode()
    t0 = time.perf_counter()
    out, ok = strip_annotations(big)
    assert ok and b"title" not in out and len(out) < len(big)
    assert time.perf_counter() - t0 < 20
