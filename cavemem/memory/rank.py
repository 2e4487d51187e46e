"""Recall ranking: lexical candidates, a few cheap signals, weighted fusion, and a refusal gate.

Pipeline for one query (SQLite + a little Python, no model):

1. **Terms.** The query goes through the same analyzer as the memories (stemming, stopwords,
   identifier parts, CJK bigrams). A stopword- or punctuation-only query has no terms → no hits.
   Dates it mentions ("in July 2023", "last week", see :mod:`.when`) become time windows; their
   words still match text but at ``date_term_weight`` and outside the gate's arithmetic. Initials
   of a spelled-out phrase the store knows join as terms (:mod:`.acronym`: "mean absolute
   percentage error" finds ``MAPE``), covering the phrase's words in the memories that hold them.
2. **Candidates.** FTS5 returns the top ``candidates`` memories for an OR of the terms. Terms in
   more than ``prune_df`` of all memories do not *generate* candidates (they would make FTS5 score
   most of the store) unless the specific terms find too few; they still *score*. Terms the word
   index has never seen are looked up as substrings in the trigram index (``postgres`` finds
   ``PostgreSQL``); a lone CJK character falls back to ``instr()``. Memories inside a mentioned
   time window join the pool too.
3. **Lexical score.** BM25 (k1 1.5, b 0.75, +1-smoothed IDF) recomputed in Python over the
   candidates' stored terms, so every signal below sees the same numbers. With
   ``expansion_terms`` > 0, the most specific terms of the top ``expansion_docs`` memories form
   a second, expansion query (pseudo-relevance feedback: query expansion from the corpus itself);
   its BM25, normalised on its own, is fused at ``expansion_weight`` (``extra_expansion`` while an
   extra scorer works) so it reorders the tail
   without displacing the best direct matches.
4. **Refusal gate.** *Coverage* is the share of the query's IDF mass a memory matches; a word no
   memory contains counts with the largest possible IDF. If no candidate covers at least
   ``min_coverage`` — ``min_coverage_known`` when every content word of the query is a word the
   store has (no unknown or typo-corrected word: those hint at another domain, while a known
   paraphrase of an answer spread over several turns covers little of any single one) — and no
   extra scorer vouches for the query, the answer is ``[]``: an off-topic query recalls nothing
   instead of the least-bad guess. With a working extra scorer (semantic vectors) the gate is one
   calibrated rule instead: its best score + ``gate_coverage`` × coverage + ``gate_known`` (every
   word known) − the query's likeness to off-topic probes (the scorer's ``probe_affinity``) must reach its threshold — raised to this store's off-topic null, the median height
   of fixed off-topic probes asked of the same store and filter (:mod:`.gate`), because the best
   cosine over N memories grows with N — (see :meth:`Ranker._joint_gate`), and fusion weighs words
   at ``extra_lexical`` × best coverage ** ``lexical_confidence`` / ``extra_coverage``. Last, where-the-code notes go behind
   prose facts unless asked where (:mod:`.rank_head`) and implicit updates move ahead of the facts they
   replace (:mod:`.update`).
5. **Context signals.** Memories of one session are related: each strong lexical hit lends
   ``context`` to its neighbours (the memory just before and after it) — how an answer ("yes,
   last Tuesday") is found from its question. ``session`` is session-level retrieval: the
   candidates of one session taken together are scored as one document (BM25 of the query's own
   words, a word counting once per memory that has it), so a session that has the name in one
   turn and the topic in the next outranks a session repeating one word; every candidate gets
   its session's score. ``date`` rewards memories inside (or near) a mentioned window;
   ``recency`` is an exponential decay with a ``half_life_days`` half-life.
6. **Fusion.** ``score = lexical·bm25/max + coverage·cov + context·ctx + session·sess +
   date·win + recency·rec + Σ weight·extra``. Extra scorers (the ``[embed]`` semantic scorer,
   for instance) plug in through :class:`ExtraScorer`: they may add their own candidates,
   contribute a score in [0, 1], and vouch for a query on their own.
7. **Session slots.** Neighbour and session support let the best session fill the list with its
   own turns; the last ``session_slots`` share of the hits goes to the best hits of sessions not
   among the earlier ones, so a runner-up session (often where the answer is) keeps a place.
   With an extra scorer, the very last ``extra_slots`` share goes to its own best hits not
   already listed (the semantic finds that lexical support would otherwise crowd out).

Defaults come from ``scripts/bench_memory.py --tune`` on the LoCoMo development split (a coarse
grid chosen on conversations 0-2, checked on 3-4, off-topic refusal kept ≥ 95%); every weight can be changed through :class:`RankConfig` or
``CAVEMAN_MEM_FUSION="context=0.2,extra.semantic=0.5,…"``.
"""

from __future__ import annotations

from collections import Counter

from . import acronym, analyze, ids, when
from .rank_math import US_PER_DAY, bm25_idf, edit_distance, in_windows
from .rank_types import ExtraScorer, RankConfig, RankContext, Ranked, config_from_env
from .store import Filter, MemoryStore

__all__ = ["ExtraScorer", "RankConfig", "RankContext", "Ranked", "Ranker", "config_from_env"]

K1 = 1.5
B = 0.75


class Ranker:
    def __init__(self, store: MemoryStore, config: RankConfig | None = None, extras=()):
        self.store = store
        self.config = config or RankConfig()
        self.extras = list(extras)
        self.diagnostics: dict = {}  # facts about the last query (terms, best coverage, refusal)

    def rank(self, query: str, where: Filter, limit: int, now_us: int) -> list[Ranked]:
        cfg = self.config
        self.diagnostics = {}
        self._matched: dict[int, set[str]] = {}  # content terms each candidate matched (for the gate)
        windows, spans = when.find_windows(query, ids.from_micros(now_us))
        temporal = set(analyze.analyze(" ".join(query[a:b] for a, b in spans))) if spans else set()
        qterms = analyze.query_terms(query)
        if not qterms:
            return []
        weights = {q.term: (cfg.date_term_weight if q.term in temporal else 1.0) for q in qterms}
        spelled = {t: run for t, run in acronym.initialisms(query).items() if t not in weights} if cfg.initialisms else {}
        weights.update(dict.fromkeys(spelled, 1.0))
        (n_docs, n_tokens), df = self.store.term_stats(weights)  # one round trip on a server
        for t in [t for t in spelled if df.get(t, 0) <= 0]:  # only initialisms the store has (see .acronym)
            del weights[t]
        aside = temporal | {t for t in spelled if t in weights}  # no coverage mass of their own: never a refusal
        if n_docs <= 0:
            return []
        avgdl = (n_tokens / n_docs) or 1.0
        content = [t for t in weights if t not in aside]
        idf = {t: bm25_idf(n_docs, d) for t, d in df.items()}

        corrected = self._correct_typos(qterms, weights, df) if cfg.typo_fix else {}
        idf.update({t: bm25_idf(n_docs, df[t]) for t in corrected.values()})
        content = [corrected.get(t, t) for t in content]
        pool: dict[int, None] = dict.fromkeys(self._word_candidates(weights, df, n_docs, where))
        substring = self._substring_candidates([q for q in qterms if q.term not in corrected], df, n_docs, idf, where, pool)
        for w in windows:
            pool.update(dict.fromkeys(self.store.window_seqs(where, ids.to_micros(w.start), ids.to_micros(w.end),
                                                             cfg.candidates // 2)))
        ctx = RankContext(self.store, where, set(pool), limit, now_us)
        extra_scores = {x.name: x.scores(query, ctx) for x in self.extras}
        extra_vouch = any(s and max(s.values()) >= x.threshold for x, s in ((x, extra_scores[x.name]) for x in self.extras))
        for got in extra_scores.values():
            pool.update(dict.fromkeys(got))
        if not pool:
            self.diagnostics = {"terms": list(weights), "refused": True, "reason": "no memory shares a term"}
            return []

        got, records = self.store.pool_rows(pool)  # bodies and brief records, one round trip on a server
        bodies = {seq: Counter(b) for seq, b in got.items()}
        idf_unknown = bm25_idf(n_docs, 1)  # an unseen word weighs like the rarest seen one
        total_idf = sum(idf[t] if (df[t] > 0 or t in substring) else idf_unknown for t in content)

        def lexical(seq: int, terms: dict[str, float] = weights) -> tuple[float, float]:
            tf = bodies.get(seq)
            if tf is None:
                return 0.0, 0.0
            norm = K1 * (1 - B + B * sum(tf.values()) / avgdl)
            score = covered = 0.0
            for t, w in terms.items():
                f = tf.get(t, 0) or (1 if seq in substring.get(t, ()) else 0)
                if f:
                    score += w * idf[t] * f * (K1 + 1) / (f + norm)
                    if t not in aside and w >= 1.0:
                        covered += idf[t]
                        self._matched.setdefault(seq, set()).add(t)
                    elif t in spelled:  # an initialism covers the words it stands for that the memory lacks
                        covered += sum(idf[u] if df.get(u, 0) > 0 else idf_unknown for u in spelled[t]
                                       if u in weights and u not in aside and not tf.get(u))
            return score, (min(1.0, covered / total_idf) if total_idf else 0.0)

        lex: dict[int, float] = {}
        cov: dict[int, float] = {}
        for seq in pool:
            lex[seq], cov[seq] = lexical(seq)
        date_sig = {seq: in_windows(rec.ts, windows) for seq, rec in records.items()} if windows else {}
        best_cov = max(cov.values(), default=0.0)
        # a word the store has never seen (or only after a typo fix) hints at another domain; when
        # every word is known, low coverage is usually a paraphrase of an answer spread over turns
        all_known = not corrected and all(df[t] > 0 or t in substring for t in content)
        gate = cfg.min_coverage_known if all_known else cfg.min_coverage
        joint = self._joint_gate(extra_scores, best_cov, all_known)
        if joint is not None:  # a working extra scorer: one calibrated rule (see _joint_gate)
            extra_vouch, on_topic = joint, False
        elif content:
            on_topic = self._surface_coverage(qterms, cov, idf, total_idf, temporal) >= gate
        else:  # only a date ("what happened last week?"): on topic if anything falls in it
            on_topic = any(v >= 1.0 for v in date_sig.values())
        self.diagnostics = {
            "terms": list(weights), "temporal_terms": sorted(temporal & set(weights)),
            "unknown_terms": [t for t in content if df[t] == 0 and t not in substring],
            "corrected": corrected,
            "windows": [(w.start.isoformat(), w.end.isoformat()) for w in windows],
            "best_coverage": best_cov, "extra_vouch": extra_vouch,
            "gate": gate,
        }
        if not on_topic and not extra_vouch:
            self.diagnostics["refused"] = True
            return []

        base_lex = dict(lex)
        expanded = False
        if cfg.expansion_terms > 0 and cfg.expansion_weight > 0:
            added = self._expand(weights, lex, bodies, n_docs, where, pool)
            if added:
                expanded = True
                df.update(added)  # their document frequencies, read by _expand
                for t in added:
                    idf[t] = bm25_idf(n_docs, df[t])
                    weights[t] = cfg.extra_expansion if joint is not None else cfg.expansion_weight
                got, more = self.store.pool_rows([s for s in pool if s not in bodies or s not in records])
                bodies.update({seq: Counter(b) for seq, b in got.items() if seq not in bodies})
                records.update({seq: r for seq, r in more.items() if seq not in records})
                for seq in pool:
                    lex[seq], cov[seq] = lexical(seq)
                    base_lex.setdefault(seq, 0.0)

        max_lex = max(lex.values(), default=0.0) or 1.0
        norm_lex = {seq: v / max_lex for seq, v in lex.items()}
        max_base = max(base_lex.values(), default=0.0) or 1.0
        signals: dict[int, dict[str, float]] = {seq: {} for seq in pool}
        if cfg.context > 0:
            self._neighbours(records, norm_lex, signals, where, pool)
        missing = [s for s in pool if s not in records]
        if missing:
            records.update(self.store.by_seq(missing, brief=True))
        if cfg.session > 0:
            def matches(seq: int, t: str) -> bool:
                return t in bodies[seq] or seq in substring.get(t, ())

            # the query's own words only: date words and expansion terms would favour whole periods and the top hits' topics
            session_terms = {t: idf[t] for t, w in weights.items() if w >= 1.0}
            self._session(records, bodies, session_terms, matches, signals, pool)

        ranked: list[Ranked] = []
        base_scores: dict[int, float] = {}
        # with a working extra scorer, meaning leads (extra.semantic 1.5, lexical 0.7, now 0.4 — see
        # RankConfig.extra_lexical): dev set tune r@5 0.83 -> 0.88; lexical 0.2 / semantic 3 gave 0.90
        # there but LoCoMo conv 0-1 turn r@10 81.8% -> 74.5% (conversation turns lean on words)
        meaning = joint is not None
        w_lex = cfg.extra_lexical * best_cov ** cfg.lexical_confidence if meaning else cfg.lexical
        w_cov = cfg.extra_coverage if meaning else cfg.coverage
        half_life_us = cfg.half_life_days * US_PER_DAY
        for seq in pool:
            rec = records.get(seq)
            if rec is None:
                continue
            sig = signals.setdefault(seq, {})
            score = w_lex * norm_lex.get(seq, 0.0)
            score += w_cov * cov.get(seq, 0.0)
            # how the score would differ without the expansion terms (for the head, below)
            unexpanded = w_lex * (base_lex.get(seq, 0.0) / max_base - norm_lex.get(seq, 0.0)) if expanded else 0.0
            score += cfg.context * sig.get("context", 0.0) + cfg.session * sig.get("session", 0.0)
            if windows:
                near = date_sig[seq] if seq in date_sig else in_windows(rec.ts, windows)
                if near:
                    sig["date"] = near
                    score += cfg.date * near
            if cfg.recency and half_life_us > 0:
                sig["recency"] = 0.5 ** (max(0, now_us - rec.ts) / half_life_us)
                score += cfg.recency * sig["recency"]
            for x in self.extras:
                value = extra_scores[x.name].get(seq, 0.0)
                if value:
                    sig[x.name] = value
                    score += cfg.extra_weight(x) * value
            if score > 0 and (lex.get(seq) or sig.get("context") or sig.get("session") or sig.get("date")
                              or any(sig.get(x.name) for x in self.extras)):
                ranked.append(Ranked(seq, score, lex.get(seq, 0.0), cov.get(seq, 0.0), sig))
                base_scores[seq] = score + unexpanded
        ranked.sort(key=lambda r: (-r.score, records[r.seq].id))
        if expanded and cfg.expansion_head > 0:
            # expansion drifts towards what the top hits talk about: it may reorder the tail, but
            # the first hits are the best ones for the query as asked
            head = sorted(ranked, key=lambda r: (-base_scores[r.seq], records[r.seq].id))[: cfg.expansion_head]
            taken = {r.seq for r in head}
            ranked = head + [r for r in ranked if r.seq not in taken]
        if cfg.hit_floor > 0 and ranked:
            floor = cfg.hit_floor * ranked[0].score
            ranked = [r for r in ranked if r.score >= floor]
        extra_slots = int(cfg.extra_slots * limit) if self.extras and any(extra_scores.values()) else 0
        if cfg.session_slots > 0 and limit > extra_slots:
            ranked = self._session_slots(ranked, records, limit - extra_slots)
        if extra_slots:
            ranked = self._extra_slots(ranked, extra_scores, limit, extra_slots)
        return self._reorder_head(ranked[:limit], records, query)

    def _reorder_head(self, ranked: list[Ranked], records, query: str) -> list[Ranked]:
        """With a working extra scorer that can compare memories (``similarity``): location notes
        behind prose facts unless the question asks where (:mod:`.rank_head`), then implicit
        updates ahead of what they replace (:mod:`.update`)."""
        judge = next((x for x in self.extras if not getattr(x, "error", None) and hasattr(x, "similarity")), None)
        if judge is None or len(ranked) < 2:
            return ranked
        from .rank_head import notes_behind
        from .update import newer_first

        by_seq = {r.seq: r for r in ranked}
        texts = {seq: rec.text for seq, rec in self.store.by_seq(list(by_seq)).items()}
        seqs = notes_behind([r.seq for r in ranked], {s: r.score for s, r in by_seq.items()}, texts, query,
                            self.config.location_note)
        order = newer_first(seqs, texts, {s: records[s].ts for s in seqs}, judge.similarity)
        return [by_seq[s] for s in order]

    def _surface_coverage(self, qterms, cov: dict, idf: dict, total_idf: float, temporal: set, top: int = 5) -> float:
        """The best coverage among the ``top`` best-covering candidates when a query word that
        matched only through its stem — its own form (or its form without a plural ``s``) is not
        in the memory's text — counts half: "linked list" shares the stem ``link`` with "magic
        links" but not the word, so it no longer clears the lexical gate on that stem alone."""
        stemmed = {q.term: q.raw.lower() for q in qterms if q.raw.lower() != q.term and q.term not in temporal}
        best = max(cov.values(), default=0.0)
        if not stemmed or not total_idf or best <= 0:
            return best
        heads = sorted((s for s in cov if cov[s] > 0), key=lambda s: -cov[s])[:top]
        out = 0.0
        for seq, rec in self.store.by_seq(heads).items():
            text = rec.text.lower()
            lost = sum(idf.get(t, 0.0) / 2 for t, raw in stemmed.items()
                       if t in self._matched.get(seq, ()) and raw not in text and not (raw.endswith("s") and raw[:-1] in text))
            out = max(out, cov[seq] - lost / total_idf)
        return out

    def _joint_gate(self, extra_scores: dict, best_cov: float, all_known: bool) -> bool | None:
        """On topic when an extra scorer's best score plus ``gate_coverage`` × the best lexical
        coverage plus ``gate_known`` (every content word known to the store), minus the scorer's
        ``probe_affinity`` (how much the query reads like chores or trivia), reaches that
        scorer's threshold; ``None`` when no extra scorer is working (a failed one set
        ``error``), so the lexical gate decides. Meaning alone refuses real questions whose
        answer reads differently (best cosine 0.19-0.26), words alone admit off-topic ones
        that share a common word ("what's a good name for a cat"); calibrated on the tune
        split of the coding-agent dev set (``scripts/bench_memory_devset.py``)."""
        cfg = self.config
        working = [x for x in self.extras if not getattr(x, "error", None)]
        if not working:
            return None
        lift = cfg.gate_coverage * best_cov + (cfg.gate_known if all_known else 0.0)
        # gate_threshold: this query's bar in this store (its off-topic null, see memory/gate.py)
        return any(max(extra_scores[x.name].values(), default=0.0) + lift - getattr(x, "probe_affinity", 0.0)
                   >= getattr(x, "gate_threshold", x.threshold) for x in working)

    @staticmethod
    def _extra_slots(ranked: list[Ranked], extra_scores: dict, limit: int, slots: int) -> list[Ranked]:
        """The last ``slots`` hits go to the extra scorers' own best hits not among the earlier
        ones. Lexical and semantic recall find different answers (on LoCoMo the union of both
        top-10s holds the evidence far more often than either); in a weighted sum the lexical
        signals, which also drive neighbour and session support, crowd the semantic finds out."""
        head = ranked[: limit - slots]
        taken = {r.seq for r in head}
        best: dict[int, float] = {}
        for scores in extra_scores.values():
            for seq, value in scores.items():
                if value > best.get(seq, 0.0):
                    best[seq] = value
        by_seq = {r.seq: r for r in ranked}
        tail = [by_seq[seq] for seq in sorted(best, key=lambda q: (-best[q], q)) if seq in by_seq and seq not in taken][:slots]
        taken.update(r.seq for r in tail)
        return head + tail + [r for r in ranked if r.seq not in taken]

    def _session_slots(self, ranked: list[Ranked], records, limit: int) -> list[Ranked]:
        """The last ``session_slots`` share of the hits go to the best hits of sessions that the
        earlier hits do not come from. Neighbour and session support make strong sessions fill the
        list with their own turns; a reserved tail keeps a second-best session — often the one
        the answer is in — from being crowded out."""
        slots = int(self.config.session_slots * limit)
        if slots <= 0 or len(ranked) <= limit:
            return ranked

        def session_of(r: Ranked):
            rec = records[r.seq]
            return (rec.project, rec.session) if rec.session else r.seq

        head = ranked[: limit - slots]
        seen = {session_of(r) for r in head}
        tail: list[Ranked] = []
        for r in ranked[limit - slots :]:
            if len(tail) == slots:
                break
            if session_of(r) not in seen:
                seen.add(session_of(r))
                tail.append(r)
        taken = {r.seq for r in head} | {r.seq for r in tail}
        chosen = sorted(head + tail, key=lambda r: (-r.score, records[r.seq].id))
        return chosen + [r for r in ranked if r.seq not in taken]

    # -- candidates ------------------------------------------------------------------------------
    def _generating(self, terms, df: dict, n_docs: int) -> list[str]:
        """Terms that generate candidates: the rarest first, skipping ones in more than
        ``prune_df`` of the store, until their document frequencies add up to ``match_cap`` —
        FTS5 scores every memory that matches, so this bounds the cost on a big store."""
        cfg = self.config
        chosen: list[str] = []
        total = 0
        for t in sorted((t for t in terms if 0 < df.get(t, 0) <= cfg.prune_df * n_docs), key=lambda t: (df[t], t)):
            if chosen and total + df[t] > cfg.match_cap:
                break
            chosen.append(t)
            total += df[t]
        return chosen

    def _word_candidates(self, weights: dict, df: dict, n_docs: int, where: Filter) -> list[int]:
        """FTS5 candidates for the specific terms; when they find fewer than ``widen_below``, the
        common terms join in (scoring only the newest ``match_cap`` matches on a big store)."""
        cfg = self.config
        specific = self._generating(weights, df, n_docs)
        seqs = [s for s, _ in self.store.fts_candidates(specific, where, cfg.candidates)] if specific else []
        known = sorted((t for t in weights if df[t] > 0), key=lambda t: (df[t], t))
        if len(seqs) < cfg.widen_below and len(specific) < len(known):
            seen = set(seqs)
            common = sum(df[t] for t in known) > cfg.match_cap
            got = self.store.fts_candidates(known, where, cfg.candidates, newest=cfg.match_cap if common else 0)
            seqs += [s for s, _ in got if s not in seen]
        return seqs

    def _correct_typos(self, qterms, weights: dict, df: dict) -> dict[str, str]:
        """Query words no memory contains, replaced by a known word one edit away (two for long
        words; a swap of neighbouring letters is one edit) that shares their first two letters:
        ``fesetival`` → ``festival``. Words of fewer than five letters (after stemming) are left
        alone, and substrings are tried first (``postgres`` is not a typo of anything)."""
        fixed: dict[str, str] = {}
        for q in qterms:
            t = q.term
            if df.get(t, 0) > 0 or len(t) < 5 or not q.raw.isascii() or not q.raw.isalpha():
                continue
            if self.store.substring_candidates(q.raw, Filter(projects=None, current_only=False), 1):
                continue
            budget = 1 if len(t) < 9 else 2
            best: tuple[int, int, str] | None = None
            raw = q.raw if q.raw[:2] == t[:2] else t  # a typo can change the stem (torunament → toruna)
            lo, hi = min(len(t), len(raw)) - budget, max(len(t), len(raw)) + budget
            for cand, cand_df in self.store.terms_like(t[:2], lo, hi):
                d = min(edit_distance(t, cand, budget), edit_distance(raw, cand, budget))
                if d <= budget and (best is None or (d, -cand_df, cand) < best):
                    best = (d, -cand_df, cand)
            if best is not None and best[2] not in weights:
                w = weights.pop(t)
                weights[best[2]] = w
                df[best[2]] = -best[1]
                fixed[t] = best[2]
        return fixed

    def _substring_candidates(self, qterms, df: dict, n_docs: int, idf: dict, where: Filter, pool: dict) -> dict[str, set[int]]:
        """Terms the word index does not know (and lone CJK characters), as substrings."""
        found: dict[str, set[int]] = {}
        k = self.config.candidates
        wanted = [q for q in qterms
                  if (len(q.term) == 1 and analyze.is_cjk(q.term)) or (df[q.term] <= 0 and len(q.raw) >= 3)]
        many = getattr(self.store, "substring_candidates_many", None)  # PostgreSQL: one round trip for all of them
        got = many([q.raw for q in wanted], where, k) if many is not None and wanted else {}
        for q in wanted:
            hits = set(got.get(q.raw, ()) if many is not None else self.store.substring_candidates(q.raw, where, k))
            if hits:
                found[q.term] = hits
                idf[q.term] = bm25_idf(n_docs, max(len(hits), df[q.term]))
                pool.update(dict.fromkeys(hits))
        return found

    # -- signals ---------------------------------------------------------------------------------
    def _neighbours(self, records, norm_lex, signals, where: Filter, pool: dict) -> None:
        """Neighbour support: the memories just before and after a strong hit in its session
        join the pool and borrow its score (an answer is found through its question), and a
        hit borrows from its best neighbour."""
        seeds = sorted((s for s in norm_lex if norm_lex[s] > 0), key=lambda s: -norm_lex[s])[: self.config.neighbor_seeds]
        around, found = self.store.neighbors_many([records[s] for s in seeds if s in records], where)  # one round trip
        for seq, rec in found.items():
            records.setdefault(seq, rec)
        for seed in seeds:
            for nb in around.get(seed, ()):
                if nb is None:
                    continue
                pool.setdefault(nb, None)
                sig = signals.setdefault(nb, {})
                sig["context"] = max(sig.get("context", 0.0), norm_lex[seed])
                own = signals.setdefault(seed, {})
                own["context"] = max(own.get("context", 0.0), norm_lex.get(nb, 0.0))

    @staticmethod
    def _session(records, bodies, term_weights: dict[str, float], matches, signals, pool: dict) -> None:
        """Session-level relevance: each session's candidate memories taken together as one
        document, scored with BM25 where a term's frequency is the number of those memories that
        contain it (no length normalisation: only candidates are seen). A session that mentions
        several of the query's words across its turns — the name in one turn, the topic in the
        next — outranks one that repeats a single word; every candidate of the session gets the
        session's score, normalised by the best session's."""
        per_session: dict[tuple[str, str], Counter] = {}
        for seq in bodies:
            rec = records.get(seq)
            if rec is None or not rec.session:
                continue
            present = [t for t in term_weights if matches(seq, t)]
            if present:
                per_session.setdefault((rec.project, rec.session), Counter()).update(present)
        if not per_session:
            return
        strength = {key: sum(term_weights[t] * f * (K1 + 1) / (f + K1) for t, f in tf.items())
                    for key, tf in per_session.items()}
        top = max(strength.values()) or 1.0
        for seq in pool:
            rec = records.get(seq)
            if rec is not None and rec.session:
                value = strength.get((rec.project, rec.session), 0.0) / top
                if value:
                    signals.setdefault(seq, {})["session"] = value

    def _expand(self, weights, lex, bodies, n_docs, where: Filter, pool: dict) -> dict[str, int]:
        """Pseudo-relevance feedback: specific terms of the top lexical hits, best first, with
        their document frequencies (already read here, so the caller need not ask again)."""
        cfg = self.config
        top = sorted((s for s in lex if lex[s] > 0), key=lambda s: -lex[s])[: cfg.expansion_docs]
        gain: dict[str, float] = {}
        for seq in top:
            tf = bodies.get(seq) or Counter()
            dl = sum(tf.values()) or 1
            for t, f in tf.items():
                if t not in weights and len(t) >= 3:
                    gain[t] = gain.get(t, 0.0) + f / dl
        if not gain:
            return {}
        dfs = self.store.doc_freqs(sorted(gain, key=lambda t: -gain[t])[: cfg.expansion_terms * 4])
        scored = sorted(
            ((gain[t] * bm25_idf(n_docs, d), t) for t, d in dfs.items() if 1 < d <= cfg.prune_df * n_docs),
            reverse=True,
        )
        added = {t: dfs[t] for _, t in scored[: cfg.expansion_terms]}
        generating = self._generating(list(added), dfs, n_docs)
        if generating:
            for seq, _ in self.store.fts_candidates(generating, where, cfg.candidates // 2):
                pool.setdefault(seq, None)
        return added
