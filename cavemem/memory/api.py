"""``Memory``: the Python API of cavemem's durable memory — and what the CLI itself calls.

    from cavemem import Memory
    m = Memory()                                   # $CAVEMAN_HOME/mem.db (or CAVEMAN_MEM_DB)
    rec = m.remember("the deploy key lives in vault under ops/deploy", tags=("ops",))
    rec.id                                         # 'mem_…' (also rec["id"])
    res = m.recall("where is the deploy key?")     # {"basis": "inferred", "hits": [...], ...}
    res["hits"][0]["recovery_handle"]              # Engine().retrieve(handle) → exact text
    new = m.supersede(rec.id, "the deploy key moved to vault under ops/keys")
    [v.id for v in m.history(new.id)]              # oldest → current
    m.forget(new.id)                               # {"forgotten": True, ...}

Guarantees: the (cleaned) text is committed before anything else happens; remembering the same
text in the same project twice stores it once; superseded versions never appear in recall unless
asked for; an off-topic query returns ``hits: []``; every hit carries a recovery handle unless
the recovery store is unavailable (then a warning says so and recall still answers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from ..errors import CaveError
from . import ids, project as projects
from .browse import BrowseMixin
from .curate import CurateMixin
from .rank import ExtraScorer, RankConfig, Ranker, config_from_env
from .model import (KINDS, MAX_MEMORY_BYTES, Filter, MemoryRecord, as_text, clean_list, optional_text, require_kind,
                    too_large, utf8_len)
from . import plugins
from .rows import bump_corpus, index_terms, insert_row, mark_superseded
from .store import MemoryStore, open_memory_store

DEFAULT_LIMIT = 5
DEFAULT_TOKEN_BUDGET = 2000


class Memory(CurateMixin, BrowseMixin):
    """Durable memory over one SQLite store.

    Remember and recall (the hot path) live here; supersede / history / show / forget in
    :mod:`.curate`, list / count / stats / export / import in :mod:`.browse`.

    ``path``: the store file (default ``CAVEMAN_MEM_DB`` or ``$CAVEMAN_HOME/mem.db``;
    ``":memory:"`` for a throwaway store). ``engine``: the :class:`~cavemem.engine.core.Engine`
    recall compresses through (default: one over the default recovery store, created on first
    recall). ``cwd``: the directory whose git root names the project (default: the process cwd).
    ``redact`` / ``merge``: defaults for secret redaction and near-duplicate merging.
    ``rank_config`` / ``scorers``: fusion weights and extra scorers (instances or names such as
    ``"embed"``). ``clock``: a function returning the current UTC datetime (tests, benchmarks).
    """

    def __init__(
        self,
        path: str | None = None,
        *,
        engine=None,
        cwd: str | None = None,
        redact: bool = True,
        merge: bool = True,
        rank_config: RankConfig | None = None,
        scorers: Sequence[ExtraScorer | str] | None = None,
        clock: Callable[[], datetime] | None = None,
        store: MemoryStore | None = None,
    ):
        self.store = store or open_memory_store(path)
        self._engine = engine
        self.cwd = cwd
        self.redact = redact
        self.merge = merge
        self.rank_config = rank_config or config_from_env()
        self.clock = clock or ids.utc_now
        if scorers is None:  # default: semantic vectors when the [embed] extra is on for this store
            scorers = plugins.defaults_for(self.store.path)
        self.scorers = [self._scorer(s) for s in scorers]
        self._packer = None

    # -- plumbing ------------------------------------------------------------------------------
    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _scorer(self, spec) -> ExtraScorer:
        if not isinstance(spec, str):
            return spec
        plugin = plugins.get(spec)
        if plugin is None:
            raise CaveError("cave_invalid_config", f"unknown scorer {spec!r} (known: {', '.join(plugins.names())})")
        try:
            return plugin.create(self.store)
        except ImportError as exc:
            raise CaveError("cave_invalid_config", f"scorer {spec!r} is not installed ({exc}); pip install 'cavemem[{spec}]'") from exc

    def engine(self):
        if self._engine is None:
            from ..engine.core import Engine

            self._engine = Engine()
        return self._engine

    def _now(self) -> datetime:
        return self.clock()

    def project(self, explicit: str | None = None) -> str:
        """The project a write goes to (explicit, else the git root name of ``cwd``)."""
        return projects.resolve_project(explicit, self.cwd)

    # -- remember ------------------------------------------------------------------------------
    def remember(
        self,
        text,
        *,
        project: str | None = None,
        session: str | None = None,
        topic: str | None = None,
        tags: Iterable[str] = (),
        files: Iterable[str] = (),
        kind: str | None = None,
        entity: str | None = None,
        at: datetime | str | None = None,
        redact: bool | None = None,
        merge: bool | None = None,
        confidence: float | None = None,
        expires: datetime | str | None = None,
        ttl: str | None = None,
    ) -> MemoryRecord:
        """Store ``text`` and return the stored memory (``.id``, ``["id"]``).

        ``confidence`` (0–1) down-weights the memory in recall; ``expires`` (a date) or ``ttl``
        ("30d") leaves it out of recall from then on (see :mod:`.capture.review`).

        ``extra["status"]`` says what happened: ``new``, ``existing`` (idempotent repeat) or
        ``merged`` (a near-duplicate of a current memory, now its next version)."""
        text = as_text(text)
        n = utf8_len(text)
        if n > MAX_MEMORY_BYTES:
            raise too_large(n)
        from .capture import review

        conf, until = review.check_confidence(confidence), review.expiry_us(expires, ttl, self._now())
        had_text = bool(text.strip())
        from . import privacy  # only writes need the secret patterns

        do_redact = self.redact if redact is None else redact
        cleaned, redacted, spans = privacy.clean(text, redact_secrets=do_redact)
        if do_redact:  # the metadata is stored too: topic, tags, entity, files, session
            meta, more = privacy.clean_fields(
                {"session": session, "topic": topic, "entity": entity, "tags": tags, "files": files}
            )
            session, topic, entity, tags, files = (meta[k] for k in ("session", "topic", "entity", "tags", "files"))
            for k, n in more.items():
                redacted[k] = redacted.get(k, 0) + n
        if not cleaned.strip():
            if had_text and spans:
                raise CaveError("cave_memory_empty", "nothing left to remember after removing <private> spans")
            raise CaveError("cave_memory_empty", "cannot remember empty text")
        n = utf8_len(cleaned)
        if n > MAX_MEMORY_BYTES:
            raise too_large(n)
        proj = self.project(project)
        when = ids.parse_when(at, what="at") if at is not None else self._now()
        stamp = ids.format_time(when)
        rec = MemoryRecord(
            id=ids.memory_id(cleaned, proj), text=cleaned, project=proj, created_at=stamp, valid_from=stamp,
            ts=ids.to_micros(when), session=optional_text(session, "session"), topic=optional_text(topic, "topic"),
            kind=require_kind(optional_text(kind, "kind")), entity=optional_text(entity, "entity"),
            tags=clean_list(tags, "tags"), files=clean_list(files, "files"),
        )
        terms = index_terms(rec)
        do_merge = self.merge if merge is None else merge
        now_text = ids.format_time(self._now())

        def txn(conn):
            existing = self.store.get(rec.id, conn)
            if existing is not None:
                return self._repeat(conn, existing, now_text)
            dup = None
            if do_merge:
                try:
                    from .dedup import find_near_duplicate

                    dup = find_near_duplicate(conn, rec, terms)
                except Exception:  # dedup is an optimisation: never lose the memory over it
                    dup = None
            if dup is not None:
                self._merge_into(conn, rec, dup, terms)
                rec.extra = {"status": "merged"}
            else:
                insert_row(conn, rec, terms)
                rec.extra = {"status": "new"}
            bump_corpus(conn, 1, len(terms))
            return rec

        out = self.store.write(txn, "remember")
        review.set_meta(self, out.id, confidence=conf, expires_us=until)
        if redacted:
            out.extra["redacted"] = dict(sorted(redacted.items()))
        if spans:
            out.extra["private_spans_removed"] = spans
        return out

    def _repeat(self, conn, existing: MemoryRecord, now_text: str) -> MemoryRecord:
        """Remembering text that is already stored."""
        if existing.current:
            conn.execute("UPDATE memories SET seen_count = seen_count + 1, last_seen = ? WHERE seq = ?", (now_text, existing.seq))
            existing.seen_count += 1
            existing.last_seen = now_text
            existing.extra = {"status": "existing"}
            return existing
        # an expired version: fine if it was merged away (the same fact, reworded) — the repeat
        # counts for the current version; a superseded fact cannot come back as current
        successor = self.store.get(existing.superseded_by, conn) if existing.superseded_by else None
        if successor is not None and successor.change == "merge":
            head = successor
            hops = 0
            while head.superseded_by and hops < 10000:
                nxt = self.store.get(head.superseded_by, conn)
                if nxt is None or nxt.change != "merge":
                    break
                head, hops = nxt, hops + 1
            if head.current:
                conn.execute("UPDATE memories SET seen_count = seen_count + 1, last_seen = ? WHERE seq = ?", (now_text, head.seq))
                head.seen_count += 1
                head.last_seen = now_text
                head.extra = {"status": "existing", "merged_from": existing.id}
                return head
        raise CaveError(
            "cave_memory_conflict",
            f"memory {existing.id} exists only as an expired historical version and cannot be re-remembered as current",
        )

    def _merge_into(self, conn, rec: MemoryRecord, dup: MemoryRecord, terms: list[str]) -> None:
        rec.supersedes = dup.id
        rec.change = "merge"
        rec.seen_count = dup.seen_count + 1
        rec.tags = tuple(dict.fromkeys(dup.tags + rec.tags))
        rec.files = tuple(dict.fromkeys(dup.files + rec.files))
        rec.session = rec.session or dup.session
        rec.topic = rec.topic or dup.topic
        rec.kind = rec.kind or dup.kind
        rec.entity = rec.entity or dup.entity
        terms[:] = index_terms(rec)
        insert_row(conn, rec, terms)
        mark_superseded(conn, dup, rec.valid_from if rec.ts >= dup.ts else dup.valid_from, rec.id)

    # -- recall --------------------------------------------------------------------------------
    def recall(
        self,
        query: str,
        *,
        limit: int = DEFAULT_LIMIT,
        token_budget: int = DEFAULT_TOKEN_BUDGET,
        project: str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        include_superseded: bool = False,
        now: datetime | str | None = None,
        include_expired: bool = False,
        sessions: bool = False,
    ) -> dict:
        """Ranked memories for ``query``: ``{"basis", "hits": [{"id", "text", "score",
        "tokens_added", "basis", "recovery_handle", …}], "tokens_added", "token_budget", …}``.

        ``limit`` ≤ 0 means 5. ``token_budget`` 0 means unlimited. ``project``: the project
        whose memories (plus global ones) are searched; ``"*"`` searches every project."""
        if not isinstance(query, str):
            raise CaveError("cave_invalid_arguments", "recall: query must be a string")
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise CaveError("cave_invalid_arguments", "recall: limit must be a non-negative integer")
        if isinstance(token_budget, bool) or not isinstance(token_budget, int) or token_budget < 0:
            raise CaveError("cave_invalid_arguments", "token_budget must be a non-negative integer")
        if limit <= 0:
            limit = DEFAULT_LIMIT
        current = self._now() if now is None else ids.parse_when(now, what="now")
        scope = projects.read_scope(project, self.cwd)
        where = Filter(projects=scope, current_only=not include_superseded)
        if since is not None:
            where.since_us = ids.to_micros(ids.parse_when(since, what="since", now=current))
        if until is not None:
            where.until_us = ids.to_micros(ids.parse_when(until, end_of_day=True, what="until", now=current))
        ranked = Ranker(self.store, self.rank_config, self.scorers).rank(query, where, limit, ids.to_micros(current))
        from .capture import review  # expired memories out, unconfirmed captures down-weighted

        ranked = review.adjust(self.store, ranked, ids.to_micros(current), include_expired)
        out: dict = {"basis": "inferred", "hits": []}
        if ranked:
            records = self.store.by_seq(r.seq for r in ranked)
            packed = self._get_packer().pack([(records[r.seq], r.score) for r in ranked], query, token_budget)
            out["hits"] = packed.hits
            review.annotate(self.store, out["hits"])
            if packed.warnings:
                out["warnings"] = packed.warnings
        scorer_problems = [f"{x.name}: {x.error}" for x in self.scorers if getattr(x, "error", None)]
        if scorer_problems:  # e.g. the [embed] model failed to load: ranked without that signal
            out.setdefault("warnings", []).extend(scorer_problems)
        out["tokens_added"] = sum(h["tokens_added"] for h in out["hits"])
        out["token_budget"] = token_budget
        if sessions:  # low priority: archived session passages, listed after the hits, never among them
            try:
                from .capture import archive

                out["session_hits"] = archive.search(self.store, self.engine().store(), query, scope)
            except Exception as exc:  # noqa: BLE001 - recall still answers without them
                out.setdefault("warnings", []).append(f"cave_ccr_unavailable: session passages not searched ({exc})")
        out["scope"] = "*" if scope is None else list(scope)
        return out

    @property
    def capture(self):
        """Sessions, the review queue and capture passes (:class:`.capture.review.CaptureAPI`)."""
        from .capture.review import CaptureAPI

        return CaptureAPI(self)

    def _get_packer(self):
        if self._packer is None:
            from .pack import Packer

            self._packer = Packer(self.engine)
        return self._packer


__all__ = ["Memory", "MemoryRecord", "RankConfig", "ExtraScorer", "KINDS", "DEFAULT_LIMIT", "DEFAULT_TOKEN_BUDGET"]
