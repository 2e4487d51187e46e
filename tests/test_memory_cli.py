"""The memory commands' CLI contract: stdout payload, stderr JSON errors, exit codes, --json."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# every test runs on SQLite and on PostgreSQL (conftest.db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")


@pytest.fixture
def cli(tmp_path, run_cli):
    """cli("remember", "text", input=b"", cwd=...) — ``cavemem`` run in a directory outside any
    git repo (a :class:`conftest.CLIResult`: ``.json`` is stdout, ``.report`` the stderr error)."""
    work = tmp_path / "work"
    work.mkdir()

    def run(*args: str, input: bytes = b"", cwd: Path | None = None, env: dict | None = None):
        return run_cli("cavemem", *args, input=input, env=env, cwd=cwd or work, timeout=120)

    return run


def test_remember_prints_a_line_and_json(cli):
    r = cli("remember", "the", "deploy", "key", "lives", "in", "vault", "under", "ops/deploy")
    assert r.rc == 0 and r.stderr == b""
    assert r.stdout.decode() == "remembered mem_a66a8a47cc0663ca (project (global))\n"
    r = cli("remember", "--json", "the deploy key lives in vault under ops/deploy")
    out = r.json
    assert out["id"] == "mem_a66a8a47cc0663ca" and out["basis"] == "inferred" and out["status"] == "existing"
    assert list(out) == sorted(out)
    assert r.stdout.startswith(b'{\n  "') and r.stdout.endswith(b"}\n")


def test_remember_from_stdin_keeps_the_text_verbatim(cli):
    r = cli("remember", "--stdin", "--json", input="café ≠ tea 記憶\n".encode())
    assert r.rc == 0
    shown = cli("show", r.json["id"], "--json").json
    assert shown["text"] == "café ≠ tea 記憶\n"


def test_size_cap_exits_65_through_argv_and_stdin(cli, cave_home):
    r = cli("remember", "x" * 100000, "x" * 100000, "x" * 62143)  # one argv string is capped at 128 KiB
    assert r.rc == 65 and r.report["error"] == "cave_memory_too_large" and r.stdout == b""
    r = cli("remember", "--stdin", input=b"y" * 300000)
    assert r.rc == 65 and r.report["error"] == "cave_memory_too_large"
    assert cli("remember", "--stdin", input=b"z" * 262144).rc == 0
    assert cli("stats", "--memory", "--json").json["memories"] == 1


@pytest.mark.parametrize("args,code,rc", [
    (("remember", "   "), "cave_memory_empty", 1),
    (("remember",), "cave_invalid_arguments", 2),
    (("remember", "--stdin", "also text"), "cave_invalid_arguments", 2),
    (("remember", "--kind", "gossip", "x"), "cave_invalid_arguments", 2),
    (("remember", "--bogus", "x"), "cave_invalid_arguments", 2),
    (("recall",), "cave_invalid_arguments", 2),
    (("recall", "q", "--token-budget", "-1"), "cave_invalid_arguments", 2),
    (("recall", "q", "--limit", "many"), "cave_invalid_arguments", 2),
    (("recall", "q", "--since", "someday"), "cave_invalid_arguments", 2),
    (("recall", "q", "--project", "p", "--all"), "cave_invalid_arguments", 2),
    (("supersede", "mem_0000000000000000"), "cave_invalid_arguments", 2),
    (("history",), "cave_invalid_arguments", 2),
    (("forget",), "cave_invalid_arguments", 2),
    (("show", "mem_0000000000000000"), "cave_memory_not_found", 1),
    (("history", "mem_0000000000000000"), "cave_memory_not_found", 1),
    (("import", "/nonexistent/file.jsonl"), "cave_file_unreadable", 66),
])
def test_errors_are_one_json_line_with_the_code_exit(cli, args, code, rc):
    r = cli(*args, input=b"" if "--stdin" not in args else b"text")
    assert r.rc == rc, r
    assert r.report["error"] == code and r.report["message"]
    assert r.stdout == b""


def test_help_creates_no_store(cli, cave_home):
    for name in ("remember", "recall", "supersede", "history", "forget", "list", "show", "export", "import"):
        r = cli(name, "--help")
        assert r.rc == 0 and r.stdout.startswith(b"usage: cavemem " + name.encode())
    assert not (cave_home / "mem.db").exists()


def test_recall_json_table_and_context(cli):
    cli("remember", "--global", "kubernetes ingress is configured with nginx and cert-manager")
    cli("remember", "--global", "the quarterly budget review happens every march")
    r = cli("recall", "--json", "how", "is", "kubernetes", "ingress", "configured")
    out = r.json
    assert r.rc == 0 and out["basis"] == "inferred"
    hit = out["hits"][0]
    assert hit["text"] == "kubernetes ingress is configured with nginx and cert-manager"
    assert hit["recovery_handle"].startswith("ccr_") and hit["basis"] == "inferred"
    assert out["tokens_added"] == sum(h["tokens_added"] for h in out["hits"]) and out["token_budget"] == 2000
    table = cli("recall", "kubernetes ingress").stdout.decode()
    assert "kubernetes ingress is configured" in table and hit["id"] in table and "basis inferred" in table
    ctx = cli("recall", "--format", "context", "kubernetes ingress").stdout.decode()
    assert ctx.startswith("<cavemem-context>\n[cavemem recall · 1 memory · +") and ctx.endswith("</cavemem-context>\n")
    assert "kubernetes ingress is configured" in ctx
    # the handle gives back the exact memory
    got = cli("retrieve", hit["recovery_handle"])
    assert got.rc == 0 and got.stdout == hit["text"].encode()


@pytest.mark.parametrize("query", ["photosynthesis chlorophyll wavelength", "the of and is", "?!?! --- ...", "  "])
def test_off_topic_stopword_and_punctuation_queries_answer_empty(cli, query):
    cli("remember", "--global", "kubernetes ingress is configured with nginx and cert-manager")
    r = cli("recall", "--json", "--", query)
    if not query.strip():
        assert r.rc == 2  # a blank query is a usage error, not a search
        return
    assert r.rc == 0 and r.json["hits"] == [] and r.stderr == b""
    assert cli("recall", "--format", "context", "--", query).stdout == b""
    assert b"nothing recalled" in cli("recall", "--", query).stdout


def test_recall_token_budgets(cli):
    cli("remember", "--global", "the staging cluster is called atlas and runs in eu-central-1 with three nodes")
    one = cli("recall", "--json", "-b", "1", "staging cluster atlas").json
    assert len(one["hits"]) == 1 and one["hits"][0]["tokens_added"] <= 1 and one["hits"][0]["truncated"] is True
    full = cli("recall", "--json", "--token-budget", "0", "staging cluster atlas").json
    assert full["hits"][0]["tokens_added"] > 1 and full["token_budget"] == 0


def test_supersede_history_forget(cli):
    old = cli("remember", "--global", "--json", "deployment region is eu-west-1").json["id"]
    r = cli("supersede", "--json", old, "deployment region is eu-central-1")
    assert r.rc == 0
    new = r.json
    assert new["supersedes"] == old and set(new) == {"basis", "created_at", "id", "supersedes"}
    hist = cli("history", "--json", new["id"]).json
    assert hist["basis"] == "inferred" and [v["id"] for v in hist["history"]] == [old, new["id"]]
    assert hist["history"][0]["superseded_by"] == new["id"] and "valid_until" in hist["history"][0]
    assert "current" in cli("history", old).stdout.decode()
    again = cli("supersede", old, "deployment region is us-east-1")
    assert again.rc == 1 and again.report["error"] == "cave_memory_conflict"
    assert cli("remember", "--global", "deployment region is eu-west-1").report["error"] == "cave_memory_conflict"
    assert cli("forget", "--json", new["id"]).json["forgotten"] is True
    assert cli("forget", "--json", "mem_0123456789abcdef").json == {"forgotten": False, "id": "mem_0123456789abcdef"}
    assert cli("forget", "mem_0123456789abcdef").rc == 0


def test_bulk_forget_with_dry_run(cli):
    for i in range(3):
        cli("remember", "--project", "shop", "--tag", "tmp", f"scratch note number {i} about the cart")
    keep = cli("remember", "--project", "shop", "--json", "the cart service owns checkout").json["id"]
    dry = cli("forget", "--project", "shop", "--tag", "tmp", "--dry-run", "--json").json
    assert dry["dry_run"] is True and dry["would_forget"] == 3 and dry["forgotten"] == 0
    assert "would forget 3 memories (dry run)" in cli("forget", "--project", "shop", "--tag", "tmp", "-n").stdout.decode()
    done = cli("forget", "--project", "shop", "--tag", "tmp", "--json").json
    assert done["forgotten"] == 3 and sorted(done["ids"]) == sorted(dry["ids"])
    listed = cli("list", "--project", "shop", "--json").json
    assert [m["id"] for m in listed["memories"]] == [keep]
    both = cli("forget", keep, "--tag", "x")
    assert both.rc == 2


def test_forget_before_date(cli):
    cli("remember", "--global", "--at", "2024-01-05", "an old note about the legacy billing system")
    recent = cli("remember", "--global", "--json", "a new note about the billing system").json["id"]
    r = cli("forget", "--project", "", "--before", "2025-01-01", "--json").json
    assert r["forgotten"] == 1
    assert [m["id"] for m in cli("list", "--json").json["memories"]] == [recent]


def test_list_and_show(cli):
    a = cli("remember", "--global", "--json", "--kind", "preference", "--tag", "style", "prefer tabs over spaces").json["id"]
    b = cli("remember", "--global", "--json", "--kind", "decision", "we chose postgres for the ledger").json["id"]
    listing = cli("list", "--json").json
    assert listing["count"] == 2 and [m["id"] for m in listing["memories"]] == [b, a]
    assert [m["id"] for m in cli("list", "--json", "--kind", "preference").json["memories"]] == [a]
    assert [m["id"] for m in cli("list", "--json", "--tag", "style").json["memories"]] == [a]
    table = cli("list").stdout.decode()
    assert table.splitlines()[0].split() == ["id", "date", "project", "kind", "text"] and a in table
    assert "… 1 more" in cli("list", "-n", "1").stdout.decode()
    shown = cli("show", a, "--json").json
    assert shown["text"] == "prefer tabs over spaces" and shown["kind"] == "preference" and shown["tags"] == ["style"]
    assert "prefer tabs over spaces" in cli("show", a).stdout.decode()


def test_stats_memory(cli):
    cli("remember", "--project", "p", "one memory")
    cli("remember", "--global", "another memory entirely")
    s = cli("stats", "--memory", "--json").json
    assert s["memories"] == 2 and set(s["projects"]) == {"p", ""}
    assert "memories: 2 current" in cli("stats", "--memory").stdout.decode()
    engine = cli("stats", "--json").json  # the engine's stats are unchanged
    assert "totals" in engine


def test_project_comes_from_the_git_root(cli, tmp_path):
    repo = tmp_path / "payments"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    other = tmp_path / "other"
    other.mkdir()
    r = cli("remember", "--json", "refunds are processed nightly by the settle job", cwd=repo / "src")
    assert r.json["project"] == "payments"
    assert len(cli("recall", "--json", "refunds settle job", cwd=repo).json["hits"]) == 1
    assert cli("recall", "--json", "refunds settle job", cwd=other).json["hits"] == []
    assert len(cli("recall", "--json", "--all", "refunds settle job", cwd=other).json["hits"]) == 1
    assert len(cli("recall", "--json", "--project", "payments", "refunds settle job", cwd=other).json["hits"]) == 1


def test_since_until_on_the_cli(cli):
    cli("remember", "--global", "--at", "2024-03-01", "the march migration moved orders to postgres")
    cli("remember", "--global", "--at", "2024-06-01", "the june migration moved invoices to postgres")
    got = cli("recall", "--json", "--since", "2024-05-01", "migration postgres").json["hits"]
    assert [h["text"] for h in got] == ["the june migration moved invoices to postgres"]
    got = cli("recall", "--json", "--until", "2024-03-01", "migration postgres").json["hits"]
    assert [h["text"] for h in got] == ["the march migration moved orders to postgres"]


def test_redaction_and_no_redact(cli):
    r = cli("remember", "--global", "--json", "prod db password=hunter22 and key AKIAIOSFODNN7EXAMPLE")
    assert r.json["redacted"] == {"aws_access_key_id": 1, "password": 1}
    text = cli("show", r.json["id"], "--json").json["text"]
    assert "hunter22" not in text and "AKIAIOSFODNN7EXAMPLE" not in text
    assert "[REDACTED:password]" in text and "[REDACTED:aws_access_key_id]" in text
    raw = cli("remember", "--global", "--json", "--no-redact", "staging password=hunter33").json
    assert "redacted" not in raw
    assert cli("show", raw["id"], "--json").json["text"] == "staging password=hunter33"
    private = cli("remember", "--global", "--json", "visible <private>hidden 12345</private> part").json
    assert cli("show", private["id"], "--json").json["text"] == "visible  part"


@pytest.mark.parametrize("verb,args", [("remember", ("--global", "hot path check")), ("recall", ("--all", "hot path check"))])
def test_hot_paths_import_no_heavy_modules(cli, verb, args, tmp_path):
    if verb == "recall":
        cli("remember", "--global", "hot path check")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "cavemem", verb, *args], capture_output=True,
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-500:]
    imported = {line.split("|")[-1].strip().split(".")[0] for line in proc.stderr.decode().splitlines() if "|" in line}
    assert not imported & {"typer", "rich", "pydantic", "numpy", "onnxruntime", "mcp"}, imported
