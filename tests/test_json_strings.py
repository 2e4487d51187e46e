"""Long JSON string values cut to an excerpt (cavemem/compressors/json_strings.py), through the
json route as a pipeline calls it."""

from __future__ import annotations

import json

from cavemem.compressors.json_strategy import JSONStrategy
from cavemem.compressors.json_strings import LONG_STRING_CHARS, shorten_document

README = "Fast transfer of large files. " + " ".join(f"Paragraph {i} of the project README explains a feature." for i in range(60))


def metadata_doc() -> dict:
    pkgs = []
    for i in range(4):
        pkgs.append({
            "metadata": {"name": f"pkg-{i}", "version": f"1.{i}.0", "summary": "a short summary", "description": README,
                         "project_url": f"https://example.org/{'x' * 500}/{i}"},
            "error": {"message": "E" * 600} if i == 2 else None,
            "requested": False,
        })
    return {"version": "1", "installed": pkgs}


def test_long_values_become_excerpts_and_every_key_name_and_version_stays():
    raw = json.dumps(metadata_doc(), indent=2).encode()
    out, meta = JSONStrategy().compress_with_metadata(raw, "")
    assert (meta.method, meta.lossless_to_model) == ("elision", False)
    doc = json.loads(out)
    for i, pkg in enumerate(doc["installed"]):
        md = pkg["metadata"]
        assert set(md) == {"name", "version", "summary", "description", "project_url"}
        assert (md["name"], md["version"], md["summary"]) == (f"pkg-{i}", f"1.{i}.0", "a short summary")
        assert md["description"].startswith("Fast transfer of large files. Paragraph 0")
        assert md["description"].endswith(f" … {len(README) - len(md['description'].split(' … ')[0])} chars elided (caveman) …")
        assert len(md["description"]) < 200
        assert md["project_url"].endswith(f"/{i}")  # a URL is what locates it: never cut
    assert doc["installed"][2]["error"]["message"] == "E" * 600  # under an error key: whole
    assert len(out) < len(raw) // 3


def test_a_string_the_query_names_is_kept_whole():
    raw = json.dumps({"a": {"description": README}, "b": {"description": "x " * LONG_STRING_CHARS}}).encode()
    doc = json.loads(shorten_document(raw, "Paragraph 59"))
    assert doc["a"]["description"] == README
    assert "chars elided (caveman)" in doc["b"]["description"]


def test_second_pass_and_short_documents_pass_through():
    once = shorten_document(json.dumps(metadata_doc()).encode())
    assert shorten_document(once) is None
    assert shorten_document(json.dumps({"n": 1.50, "s": "short"}).encode()) is None
    assert shorten_document(b"{not json") is None


def test_cli_round_trip_is_exact(run_cli):
    raw = json.dumps(metadata_doc(), indent=2).encode()
    r = run_cli("cavemem", "compress", input=raw)
    assert r.rc == 0 and r.report["content_type"] == "json" and r.report["method"] == "elision"
    assert "chars elided (caveman)".encode() in r.stdout and b'"pkg-3"' in r.stdout
    back = run_cli("cavemem", "retrieve", r.report["recovery_handle"])
    assert back.stdout == raw
