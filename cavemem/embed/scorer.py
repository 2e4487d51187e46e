"""The semantic scorer: plugs local vectors into the memory ranking's fusion.

It implements :class:`cavemem.memory.rank.ExtraScorer`: for a query it returns
``{seq: score in [0, 1]}`` for (a) its own nearest memories, which join the candidate pool even
with no word in common (``automobile`` finds ``car``), and (b) the lexical candidates, re-scored
by meaning. A cosine ``c`` becomes ``(c - floor) / (1 - floor)`` clipped to [0, 1], so unrelated
text (cosine ≈ 0–0.2 for MiniLM) adds nothing. A query whose best cosine reaches ``vouch``
counts as on-topic even when the lexical refusal gate would say no.

Keeping the index in step with the store happens here, lazily, so ``remember`` never loads a
model: before scoring, a cheap fingerprint of the store (row count, highest seq) is compared
with the one recorded in the index; when it moved, forgotten memories' vectors are dropped and
up to ``backfill`` missing memories (newest first) are embedded. ``cavemem embed sync`` embeds
everything at once (after a bulk import, say).

Defaults come from ``scripts/bench_memory_embed.py --tune`` on the LoCoMo development split
(grid chosen on conversations 0-2, checked on 3-4): weight 0.7, floor 0.2, 40 own hits, no
neighbour lending (+0.3 points of turn recall, −0.8 of session recall: off), and vouch 0.45 — the
highest value with the best recall; LoCoMo's off-topic questions never reach a cosine of 0.32
with any turn, while 99% of its real questions reach 0.45. Override them with
``CAVEMAN_MEM_FUSION="extra.semantic=…"`` (weight) and
``CAVEMAN_EMBED_TUNING="floor=…,vouch=…,top_k=…,neighbors=…,backfill=…"``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace

from ..errors import CaveError
from . import MODEL_ID, sidecar_dir

NAME = "semantic"


@dataclass(frozen=True)
class SemanticConfig:
    weight: float = 0.7  # fusion weight (RankConfig "extra.semantic" overrides it)
    floor: float = 0.2  # cosine that maps to 0
    vouch: float = 0.45  # cosine at which a query is on-topic on meaning alone
    top_k: int = 40  # own nearest memories that join the candidate pool
    backfill: int = 256  # memories embedded per recall when the index lags behind the store
    neighbors: float = 0.0  # share of a hit's score lent to its session neighbours (0 = off)
    neighbor_seeds: int = 5  # how many of the best hits lend it

    def with_overrides(self, spec: str) -> "SemanticConfig":
        known = {f.name: f for f in fields(self)}
        changes = {}
        for part in spec.split(","):
            if not part.strip():
                continue
            key, sep, value = part.partition("=")
            key = key.strip()
            if not sep or key not in known:
                raise CaveError("cave_invalid_config", f"embed tuning {part.strip()!r}: expected one of {', '.join(known)}=NUMBER")
            try:
                changes[key] = int(value) if known[key].type == "int" else float(value)
            except ValueError:
                raise CaveError("cave_invalid_config", f"embed tuning {key} must be a number, got {value!r}") from None
        return replace(self, **changes)


def config_from_env(base: SemanticConfig | None = None) -> SemanticConfig:
    base = base or SemanticConfig()
    spec = os.environ.get("CAVEMAN_EMBED_TUNING", "")
    return base.with_overrides(spec) if spec.strip() else base


def store_fingerprint(store) -> list[int]:
    """Changes whenever a row is added or deleted (count and highest seq of every version)."""
    row = store.read("SELECT count(*), coalesce(max(seq), 0) FROM memories")[0]
    return [int(row[0]), int(row[1])]


def _in_chunks(values: list, size: int = 500):
    for i in range(0, len(values), size):
        yield values[i : i + size]


class SemanticScorer:
    """One store's semantic signal (an ``ExtraScorer``). Construction is free: numpy, the model
    and the sidecar are opened on the first recall, so a ``Memory`` that only remembers never
    loads them. ``required`` (default: ``CAVEMAN_EMBED=1``) turns failures into errors instead of
    a lexical-only answer with a warning."""

    name = NAME

    def __init__(self, store, *, config: SemanticConfig | None = None, embedder=None, index=None,
                 required: bool | None = None):
        from . import switch

        self.store = store
        self.config = config or config_from_env()
        self.weight = self.config.weight
        self.threshold = self._normalise(self.config.vouch)
        self.required = switch() is True if required is None else required
        self.error: str | None = None  # why the last recall ranked without meaning, if it did
        self.last_sync: dict = {}
        self._embedder = embedder
        self._index = index

    @property
    def embedder(self):
        if self._embedder is None:
            from . import require_installed
            from .embedder import shared_embedder

            require_installed()
            self._embedder = shared_embedder()
        return self._embedder

    @property
    def index(self):
        if self._index is None:
            from . import require_installed
            from .vectors import VectorIndex

            require_installed()
            self._index = VectorIndex(sidecar_dir(self.store.path), model=MODEL_ID)
        return self._index

    # -- keeping up with the store ---------------------------------------------------------------
    def sync(self, limit: int | None = None) -> dict:
        """Drop vectors of deleted memories and embed up to ``limit`` missing ones (None = all).
        Returns ``{"removed", "added", "pending"}``."""
        fingerprint = store_fingerprint(self.store)
        manifest = self.index.manifest
        if manifest is not None and self.index.compatible(manifest) and manifest.get("fingerprint") == fingerprint:
            self.last_sync = {"removed": 0, "added": 0, "pending": 0}
            return self.last_sync
        db_ids = [row[0] for row in self.store.read("SELECT id FROM memories ORDER BY seq DESC")]
        have = set(self.index.ids())
        stale = have.difference(db_ids)
        removed = self.index.remove(stale) if stale else 0
        missing = [i for i in db_ids if i not in have]
        todo = missing if limit is None else missing[: max(0, limit)]
        added = 0
        for chunk in _in_chunks(todo, 256):
            texts = dict(self.store.read(
                f"SELECT id, text FROM memories WHERE id IN ({','.join('?' * len(chunk))})", chunk))
            chunk = [i for i in chunk if i in texts]
            if chunk:
                added += self.index.add(chunk, self.embedder.embed([texts[i] for i in chunk]))
        pending = len(missing) - len(todo)
        if pending == 0:
            self.index.set_fingerprint(fingerprint)
        elif not self.index.exists():
            self.index.create()
        self.last_sync = {"removed": removed, "added": added, "pending": pending}
        return self.last_sync

    # -- ExtraScorer -----------------------------------------------------------------------------
    def _normalise(self, cosine: float) -> float:
        floor = self.config.floor
        return min(1.0, max(0.0, (cosine - floor) / (1.0 - floor))) if floor < 1 else 0.0

    def scores(self, query: str, ctx) -> dict[int, float]:
        """Fail open unless required: a broken model or sidecar costs the semantic signal, never
        the recall. A corrupt sidecar is rebuilt (it is derived data)."""
        self.error = None
        if not query.strip():
            return {}
        try:
            from .vectors import IndexCorrupt
        except ImportError:  # numpy missing: only reachable without the extra
            IndexCorrupt = OSError  # noqa: N806
        try:
            try:
                return self._scores(query, ctx)
            except IndexCorrupt:
                self.index.destroy()
                return self._scores(query, ctx)
        except (CaveError, IndexCorrupt, OSError, ValueError, ImportError) as exc:
            if self.required:
                raise
            self.error = str(exc)
            return {}

    def _scores(self, query: str, ctx) -> dict[int, float]:
        self.sync(self.config.backfill)
        if len(self.index) == 0 or not query.strip():
            return {}
        q = self.embedder.embed_one(query)
        cosines: dict[str, float] = {}
        # own nearest memories; oversample because the filter (project, dates, current) runs after
        want = max(self.config.top_k, ctx.limit)
        for mem_id, cos in self.index.search(q, want * 4):
            cosines[mem_id] = cos
        where_sql, where_params = ctx.where.sql(prefix=" AND ")
        own: dict[int, str] = {}
        hits = list(cosines)
        for chunk in _in_chunks(hits):
            rows = self.store.read(
                f"SELECT seq, id FROM memories WHERE id IN ({','.join('?' * len(chunk))})" + where_sql,
                [*chunk, *where_params],
            )
            own.update({seq: mem_id for seq, mem_id in rows})
        ranked_own = sorted(own, key=lambda s: (-cosines[own[s]], own[s]))[:want]
        out = {seq: self._normalise(cosines[own[seq]]) for seq in ranked_own}
        # lexical candidates, re-scored by meaning
        pool = [s for s in ctx.pool if s not in out]
        if pool:
            id_of = {}
            for chunk in _in_chunks(pool):
                id_of.update(self.store.read(
                    f"SELECT seq, id FROM memories WHERE seq IN ({','.join('?' * len(chunk))})", chunk))
            by_id = self.index.scores_for(q, list(id_of.values()))
            for seq, mem_id in id_of.items():
                if mem_id in by_id:
                    out[seq] = self._normalise(by_id[mem_id])
        out = {seq: v for seq, v in out.items() if v > 0}
        if self.config.neighbors > 0 and out:
            self._lend_to_neighbours(out, ctx)
        return out

    def _lend_to_neighbours(self, out: dict[int, float], ctx) -> None:
        """An answer often sits right after the turn that matches the question ("What did you
        paint?" → "A sunrise."): the best semantic hits lend ``neighbors`` × their score to the
        memories just before and after them in the same session."""
        seeds = sorted(out, key=lambda s: -out[s])[: self.config.neighbor_seeds]
        records = self.store.by_seq(seeds)
        lent: dict[int, float] = {}
        for seq in seeds:
            rec = records.get(seq)
            if rec is None or not rec.session:
                continue
            for nb in self.store.neighbors(rec, ctx.where):
                if nb is not None:
                    lent[nb] = max(lent.get(nb, 0.0), self.config.neighbors * out[seq])
        for seq, value in lent.items():
            if value > out.get(seq, 0.0):
                out[seq] = value
