"""Turn ranked memories into recall hits: compress each through the engine, pack under a budget.

- Each hit goes through ``Engine.compress(text, query=…)``. A lossy result already carries the
  engine's recovery handle. A hit that passes through unchanged is still put into the recovery
  store (content type ``text``, compressor ``memory``), so *every* hit has a handle that
  ``cavemem retrieve`` resolves to the exact stored memory.
- Budget (inferred o200k tokens of the injected text). ``0`` means unlimited. If the *top* hit
  alone is over the budget, the answer is exactly one hit: the longest prefix of its
  (compressed) text that fits, marked ``truncated``, with a handle to the whole memory
  (compressor ``cavemem-head``). Otherwise hits are taken in rank order, and a hit that no longer
  fits is skipped so a later, smaller one can still be included.
- Only hits that make it into the answer are written to the recovery store.
- If the recovery store cannot be used, recall still answers: the hits come back without a
  handle and the answer carries a warning. Memory operations never fail because of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import CaveError
from .store import MemoryRecord

HEAD_COMPRESSOR = "cavemem-head"
PASS_COMPRESSOR = "memory"


@dataclass
class Prepared:
    """A ranked memory with its rendered text and token count, ready to pack."""
    rec: MemoryRecord
    score: float
    text: str
    tokens: int
    handle: str = ""
    compressed: bool = False
    truncated: bool = False
    original_tokens: int = 0


@dataclass
class Packed:
    """The hits that fit the token budget, and why others did not."""
    hits: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return sum(h["tokens_added"] for h in self.hits)


def _count(text: str) -> int:
    from ..tokens import count_tokens

    return count_tokens(text)


def truncate_to_tokens(text: str, budget: int) -> str:
    """The longest prefix of ``text`` (whole code points) with at most ``budget`` tokens."""
    if budget <= 0:
        return ""
    if _count(text) <= budget:
        return text
    lo, hi = 0, len(text)
    probe = max(16, budget * 4)
    while probe < hi and _count(text[:probe]) <= budget:  # grow until over, keep counts small
        lo = probe
        probe *= 2
    hi = min(hi, probe)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _count(text[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


class Packer:
    def __init__(self, engine_factory):
        self._engine_factory = engine_factory
        self._engine = None
        self._engine_error: str | None = None
        self._calls = 0

    def _get_engine(self):
        if self._engine is None and self._engine_error is None:
            try:
                self._engine = self._engine_factory()
            except Exception as exc:  # the engine is optional for recall: answer uncompressed
                self._engine_error = f"cave_internal: engine unavailable ({exc})"
        return self._engine

    def prepare(self, rec: MemoryRecord, score: float, query: str, warnings: list[str]) -> Prepared:
        engine = self._get_engine()
        if engine is None:
            if self._engine_error and self._engine_error not in warnings:
                warnings.append(self._engine_error)
            n = _count(rec.text)
            return Prepared(rec, score, rec.text, n, original_tokens=n)
        from ..store.ccr import OWNER_MEMORY, owned_by

        try:
            with owned_by(OWNER_MEMORY):  # the copy is the memory's: forget may release it
                res = engine.compress(rec.text.encode("utf-8", "surrogatepass"), query=query)
        except Exception as exc:  # a compressor bug must not cost the user their memory
            warnings.append(f"cave_internal: compress failed ({exc})")
            n = _count(rec.text)
            return Prepared(rec, score, rec.text, n, original_tokens=n)
        if res.error:
            _warn(warnings, res.error, "the recovery store is unavailable; hits are not compressed")
        if res.recovery_handle:
            out = res.output.decode("utf-8", "replace")
            return Prepared(rec, score, out, res.tokens_after, res.recovery_handle, compressed=True,
                            original_tokens=res.tokens_before)
        return Prepared(rec, score, rec.text, res.tokens_before, original_tokens=res.tokens_before)

    def store(self, items: list[Prepared], warnings: list[str]) -> None:
        """Give pass-through and truncated hits their handle: the whole memory goes into the
        recovery store, all in one transaction (one fsync), skipping what is already there."""
        todo = [i for i in items if not i.handle]  # a lossy result was stored by the engine
        engine = self._get_engine() if todo else None
        if engine is None:
            return
        from ..store.ccr import OWNER_MEMORY, handle_for

        try:
            ccr = engine.store()
            puts = []
            for item in todo:
                original = item.rec.text.encode("utf-8", "surrogatepass")
                handle = handle_for(original)
                if ccr.contains(handle):
                    item.handle = handle
                    continue
                puts.append((item, original))
            if puts:
                handles = ccr.put_many([
                    (original, dict(content_type="text", compressor=HEAD_COMPRESSOR if item.truncated else PASS_COMPRESSOR,
                                    tokens_before=item.original_tokens, tokens_after=item.tokens, owner=OWNER_MEMORY))
                    for item, original in puts
                ])
                for (item, _), handle in zip(puts, handles):
                    item.handle = handle
        except CaveError as exc:
            for item in todo:
                item.handle = ""
            _warn(warnings, exc.code, exc.message)
        except Exception as exc:
            for item in todo:
                item.handle = ""
            _warn(warnings, "cave_ccr_unavailable", str(exc))

    def pack(self, ranked: list[tuple[MemoryRecord, float]], query: str, budget: int) -> Packed:
        """``budget`` 0 = unlimited."""
        self._calls += 1
        if self._calls == 2:
            self._warm_counter()
        if self._calls == 1 and len(ranked) > 1:
            # one subset-encoder build for all hits instead of one per hit (short-lived CLI)
            _count("\n".join(rec.text for rec, _ in ranked))
        out = Packed()
        chosen: list[Prepared] = []
        remaining = budget
        for i, (rec, score) in enumerate(ranked):
            item = self.prepare(rec, score, query, out.warnings)
            if budget == 0:
                chosen.append(item)
                continue
            if i == 0 and item.tokens > budget:
                head = truncate_to_tokens(item.text, budget)
                item.text = head
                item.tokens = _count(head)
                item.truncated = True
                chosen = [item]
                break
            if item.tokens == 0 or item.tokens > remaining:
                continue
            chosen.append(item)
            remaining -= item.tokens
        self.store(chosen, out.warnings)
        out.hits = [hit_json(item) for item in chosen]
        return out

    def _warm_counter(self) -> None:
        """A process that recalls more than once (MCP server, API user, benchmark) loads the full
        token encoder once instead of growing a subset encoder on every new text."""
        engine = self._get_engine()
        warm = getattr(getattr(engine, "counter", None), "warm_full", None)
        if warm is not None:
            try:
                warm()
            except Exception:
                pass


def _warn(warnings: list[str], code: str, message: str) -> None:
    line = f"{code}: {message}"
    if not any(w.startswith(code + ":") for w in warnings):
        warnings.append(line)


def hit_json(item: Prepared) -> dict:
    """Go cavemem's hit fields first (id, text, score, tokens_added, basis, recovery_handle), then
    where the memory comes from."""
    rec = item.rec
    hit: dict = {
        "id": rec.id,
        "text": item.text,
        "score": item.score,
        "tokens_added": item.tokens,
        "basis": "inferred",
    }
    if item.handle:
        hit["recovery_handle"] = item.handle
    hit["project"] = rec.project
    hit["created_at"] = rec.created_at
    hit.update(rec.present(("kind", "topic", "entity", "session", "tags", "files")))
    if not rec.current:
        hit["valid_until"] = rec.valid_until
    if item.compressed:
        hit["compressed"] = True
    if item.truncated:
        hit["truncated"] = True
    return hit
