"""Human-readable output for the memory commands, and the context block agents inject.

JSON output is the API's dicts as they are; everything here is for people (tables) or for a
model's prompt (``context``). Nothing in this module touches the store.
"""

from __future__ import annotations

import json

from .store import MemoryRecord

PREVIEW_CHARS = 96


def to_json(obj) -> str:
    """2-space indented JSON with a trailing newline (the Go cavemem CLI's layout)."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def one_line(text: str, width: int = PREVIEW_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _day(stamp: str) -> str:
    return stamp[:10] if stamp else "?"


def _project(name: str) -> str:
    return name if name else "(global)"


def plain_table(rows: list[tuple[str, ...]], right: set[int] = frozenset()) -> list[str]:
    """Rows (the first is the header) as aligned text lines. Callers that draw for a terminal pass
    their own ``table`` function with the same signature (the CLI's rich tables)."""
    if not rows:
        return []
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        out.append("  ".join(cells).rstrip())
    return out


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines() or [""])


# -- remember / supersede -----------------------------------------------------------------------


def remembered(rec: MemoryRecord) -> str:
    status = rec.extra.get("status", "new")
    where = f"project {_project(rec.project)}"
    if status == "existing":
        line = f"already remembered {rec.id} ({where}; seen {rec.seen_count}×)"
    elif status == "merged":
        line = f"remembered {rec.id} as the new version of near-duplicate {rec.supersedes} ({where})"
    elif status == "superseded":
        line = f"{rec.id} supersedes {rec.supersedes} ({where})"
    else:
        line = f"remembered {rec.id} ({where})"
    lines = [line]
    redacted = rec.extra.get("redacted")
    if redacted:
        lines.append("redacted: " + ", ".join(f"{k} ×{n}" for k, n in redacted.items()))
    if rec.extra.get("private_spans_removed"):
        lines.append(f"left out {rec.extra['private_spans_removed']} <private> span(s)")
    return "\n".join(lines) + "\n"


def remember_json(rec: MemoryRecord) -> dict:
    """Go's ``{"basis","created_at","id"}`` plus what a caller needs to know."""
    out = {"basis": "inferred", "created_at": rec.created_at, "id": rec.id, "project": rec.project,
           "status": rec.extra.get("status", "new")}
    if rec.supersedes:
        out["supersedes"] = rec.supersedes
    if rec.seen_count != 1:
        out["seen_count"] = rec.seen_count
    for key in ("redacted", "private_spans_removed", "merged_from"):
        if rec.extra.get(key):
            out[key] = rec.extra[key]
    return dict(sorted(out.items()))


# -- recall ---------------------------------------------------------------------------------------


def recall_table(result: dict) -> str:
    hits = result["hits"]
    lines = []
    for w in result.get("warnings", ()):
        lines.append(f"warning: {w}")
    if not hits:
        lines.append("no relevant memories (nothing recalled)")
        return "\n".join(lines) + "\n"
    budget = result.get("token_budget", 0)
    lines.append(
        f"{len(hits)} memor{'y' if len(hits) == 1 else 'ies'} · {result['tokens_added']} tokens"
        f" ({'no budget' if not budget else f'budget {budget}'}) · basis inferred"
    )
    for i, h in enumerate(hits, 1):
        flags = [f for f in ("compressed", "truncated") if h.get(f)]
        meta = [f"{h['score']:.3f}", h["id"], _day(h.get("created_at", "")), f"{h['tokens_added']} tok",
                _project(h.get("project", ""))]
        if h.get("kind"):
            meta.append(h["kind"])
        meta += flags
        lines.append(f"{i:>2}  " + "  ".join(meta))
        lines.append(_indent(h["text"]))
        if flags and h.get("recovery_handle"):
            lines.append(f"    (full text: cavemem retrieve {h['recovery_handle']})")
    return "\n".join(lines) + "\n"


def context_block(result: dict) -> str:
    """What an agent injects into its prompt; empty when nothing was recalled.

    Wrapped in ``<cavemem-context>`` tags, which ``remember`` strips, so a memory never
    swallows the context it was recalled into."""
    hits = result["hits"]
    if not hits:
        return ""
    # captured automatically and nobody confirmed it yet: the agent should weigh it as a lead, not a fact
    legend = " · unconfirmed = captured from a session, not yet reviewed" if any(h.get("unconfirmed") for h in hits) else ""
    lines = [
        "<cavemem-context>",
        f"[cavemem recall · {len(hits)} memor{'y' if len(hits) == 1 else 'ies'} · +{result['tokens_added']} tokens · basis inferred{legend}]",
    ]
    for h in hits:
        tags = [_day(h.get("created_at", ""))]
        if h.get("kind"):
            tags.append(h["kind"])
        if h.get("topic"):
            tags.append(h["topic"])
        if h.get("unconfirmed"):
            tags.append("unconfirmed")
        tags.append(h["id"])
        text = h["text"].strip("\n")
        body = text.splitlines() or [""]
        lines.append(f"- [{' · '.join(tags)}] {body[0]}")
        lines.extend("  " + b for b in body[1:])
        if (h.get("compressed") or h.get("truncated")) and h.get("recovery_handle"):
            lines.append(f"  (shortened; full text: cavemem retrieve {h['recovery_handle']})")
    lines.append("</cavemem-context>")
    return "\n".join(lines) + "\n"


# -- list / show / history ------------------------------------------------------------------------


def records_table(records: list[MemoryRecord], total: int | None = None, table=plain_table) -> str:
    if not records:
        return "no memories\n"
    rows = [("id", "date", "project", "kind", "text")]
    for r in records:
        mark = "" if r.current else " (superseded)"
        rows.append((r.id, _day(r.created_at), _project(r.project), r.kind or "", one_line(r.text) + mark))
    lines = table(rows)
    if total is not None and total > len(records):
        lines.append(f"… {total - len(records)} more (use --limit 0 for all)")
    return "\n".join(lines) + "\n"


def show_text(rec: MemoryRecord, versions: int) -> str:
    d = rec.to_dict(with_extra=False)
    text = d.pop("text")
    lines = []
    for key, value in d.items():
        if isinstance(value, list):
            value = ", ".join(value)
        if key == "project":
            value = _project(value)
        lines.append(f"{key + ':':<15}{value}")
    lines.append(f"{'status:':<15}{'current' if rec.current else 'superseded'}" + (f" ({versions} versions)" if versions > 1 else ""))
    lines.append("")
    lines.append(text)
    return "\n".join(lines) + "\n"


def history_table(chain: list[MemoryRecord], table=plain_table) -> str:
    rows = [("#", "id", "valid_from", "valid_until", "change", "text")]
    for i, r in enumerate(chain, 1):
        rows.append((str(i), r.id, r.valid_from, r.valid_until or "current", r.change or "", one_line(r.text, 72)))
    return "\n".join(table(rows)) + "\n"


def forget_text(result: dict) -> str:
    if "id" in result:
        if result.get("dry_run"):
            return f"would forget {result['id']}\n" if result.get("would_forget") else f"no memory {result['id']}\n"
        return f"forgot {result['id']}\n" if result["forgotten"] else f"no memory {result['id']} (nothing forgotten)\n"
    ids = result.get("ids", [])
    if result.get("dry_run"):
        head = f"would forget {result['would_forget']} memor{'y' if result['would_forget'] == 1 else 'ies'} (dry run)"
    else:
        head = f"forgot {result['forgotten']} memor{'y' if result['forgotten'] == 1 else 'ies'}"
    return "\n".join([head, *("  " + i for i in ids[:50]), *(["  …"] if len(ids) > 50 else [])]) + "\n"


def stats_text(stats: dict, table=plain_table) -> str:
    lines = [
        f"memories: {stats['memories']} current, {stats['superseded']} superseded ({stats['merged']} by near-duplicate merge)",
        f"text: {stats['text_bytes']:,} bytes" + (f" · file {stats['file_bytes']:,} bytes" if "file_bytes" in stats else ""),
    ]
    if stats.get("oldest"):
        lines.append(f"span: {stats['oldest']} → {stats['newest']}")
    if stats["projects"]:
        rows = [("project", "current", "superseded", "text bytes")]
        for name, p in stats["projects"].items():
            rows.append((_project(name), str(p["current"]), str(p["superseded"]), f"{p['text_bytes']:,}"))
        lines += [""] + table(rows, right={1, 2, 3})
    if stats["kinds"]:
        lines += ["", "kinds: " + ", ".join(f"{k} {v}" for k, v in stats["kinds"].items())]
    lines.append(f"store: {stats['path']}")
    return "\n".join(lines) + "\n"


def import_text(report: dict) -> str:
    line = f"imported {report['imported']} of {report['lines']} lines ({report['duplicates']} already present, {report['bad_lines']} bad)"
    out = [line]
    for e in report.get("errors", [])[:100]:
        out.append(f"  line {e['line']}: {e['error']}: {e['message']}")
    if len(report.get("errors", [])) > 100:
        out.append(f"  … {len(report['errors']) - 100} more")
    if report.get("redacted"):
        out.append("redacted: " + ", ".join(f"{k} ×{n}" for k, n in report["redacted"].items()))
    return "\n".join(out) + "\n"
