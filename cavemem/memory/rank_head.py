"""The first hits' last reordering, judged on their text: where-the-code notes behind prose facts
when the question does not ask where something is.

A coding agent's store holds many short location notes ("billing/tax.py calls Stripe Tax to price
VAT.") beside the decisions, conventions and root causes they relate to. A note is short and
names its subject, so it often tops both BM25 and cosine for a how/why/what question whose real
answer is the prose fact ("how is text drawn in game" → the glyphon/cosmic-text decision, not
``text.rs lays out and draws text``). Unless the question asks for a place (file, where, module,
path, …), a note's fused score is lowered by ``RankConfig.location_note`` among the first hits; a
question that asks for a place keeps the order as fused.

Chosen on the tune split of the coding-agent dev set (``scripts/bench_memory_devset.py``), the
penalty re-sorting only the first ``limit`` hits (0.2 / 0.3 / 0.4 / 0.5 tried, 0.5 best).
"""

from __future__ import annotations

import re

# the first word is a path or a file name: "src/sync/queue.ts queues …", "db/migrations/ holds …",
# ".golangci.yml configures …" (not a URL, and not a library named like a file: "Node.js 20 is …")
# (and not a dotted setting: "max.message.bytes raised to 4 MB" names no file)
_EXT = ("py|pyi|rs|go|ts|tsx|js|jsx|mjs|cjs|rb|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|ps1|sql|proto|"
        "json|jsonc|yml|yaml|toml|ini|cfg|conf|env|lock|xml|html|css|scss|md|rst|txt|csv|ipynb|tf|hcl|gradle|dart|lua|"
        "vue|svelte|ex|exs|erl|hs|ml|scala|clj|r|jl|zig|nim|wgsl|glsl|hlsl|ftl|mod|sum|cfg|spec|plist|pbxproj|dockerfile")
FILE_NAME = re.compile(r"\.?[\w\-]+(?:\.[\w\-]+)*\.(?:" + _EXT + r")", re.IGNORECASE)
LIBRARY_NAME = re.compile(r"[A-Z][\w\-]*\.js")
ASKS_LOCATION = re.compile(
    r"\b(?:files?|where|wherever|modules?|paths?|director(?:y|ies)|folders?|scripts?|code|defined|defines|"
    r"lives?|located|implemented|implements|source)\b",
    re.IGNORECASE,
)


def is_location_note(text: str) -> bool:
    first = text.split(None, 1)
    if len(first) < 2:
        return False
    word = first[0]
    if "/" in word:
        return "://" not in word
    return FILE_NAME.fullmatch(word) is not None and LIBRARY_NAME.fullmatch(word) is None


def asks_location(query: str) -> bool:
    return ASKS_LOCATION.search(query) is not None


def notes_behind(order: list[int], scores: dict[int, float], texts: dict[int, str], query: str,
                 penalty: float) -> list[int]:
    """``order`` (seqs, best first) re-sorted by score with location notes ``penalty`` lower,
    unless ``query`` asks for a place; ties keep the given order."""
    if penalty <= 0 or asks_location(query):
        return order
    notes = {s for s in order if is_location_note(texts.get(s, ""))}
    if not notes or len(notes) == len(order):
        return order
    pos = {s: i for i, s in enumerate(order)}
    return sorted(order, key=lambda s: (-(scores[s] - (penalty if s in notes else 0.0)), pos[s]))
