"""The engine core: detect → route → compress → count → store → result (spec engine-core §1).

Invariants kept here and nowhere else:

- **Fail closed.** Unknown mode → record; unknown content → text; unknown safety class, missing
  compressor, compressor failure or a result that is not smaller → the input unchanged, ratio 0,
  no handle.
- **Store before emit.** A lossy (S4) result is published only after its full original has been
  committed to the recovery store; a failed put returns the untouched pass-through result with
  ``error`` set (``cave_ccr_budget_exceeded`` or ``cave_ccr_unavailable``).
- **Inferred only.** Every figure is a local o200k_base count labelled ``basis: inferred``.
"""

from __future__ import annotations

import _thread  # threading's own lock; threading itself only for a big input's count

from ..errors import BudgetExceeded, CaveError, UnknownHandle
from ..compressors import safety
from ..compressors.base import Compressor, Metadata
from .detect import detect
from .registry import Registry, default_registry
from .result import Result, SimResult
from .trial import contender, pick
from .wrappers import rewrap, unwrap

MODE_COMPRESS = "compress"
MODE_RECORD = "record"

_DEFAULT_STORE = object()

# Inputs at least this big are counted on a helper thread while detection and the compressor
# run: tiktoken's encode releases the GIL (checked: a pure-Python thread keeps ~85% of its speed
# during an encode), so on a machine with a free core the input count costs no wall time.
PARALLEL_COUNT_MIN_BYTES = 1 << 20

# When detection guessed a type whose compressor then declines, try a second route before
# passing through. Prose with indentation and words like "public"/"module" (licences, READMEs)
# detects as code; the code compressor refuses what no grammar parses, and the text compressor
# is the right reader for it. Program tables (``ps``, ``pip list``, box-drawn ``sqlite3``) detect
# as tabular, whose strict reader declines what is not CSV/TSV/Markdown; the text reader takes
# them then. The result reports the type it was compressed as.
AUTO_FALLBACK = {"code": "text", "tabular": "text"}


def normalize_mode(mode: str | None) -> str:
    return MODE_COMPRESS if mode == MODE_COMPRESS else MODE_RECORD


class Engine:
    """Compress, retrieve, detect, stats and simulate over one recovery store.

    ``store`` is a :class:`~cavemem.store.ccr.CCRStore`, ``None`` (no store: lossy compression
    never runs), or omitted for the default store, opened lazily on the first put or retrieve.
    """

    def __init__(self, store=_DEFAULT_STORE, counter=None, registry: Registry | None = None):
        self._store = store
        self._store_error: CaveError | None = None
        self._lock = _thread.allocate_lock()
        if counter is None:
            from ..tokens import default_counter

            counter = default_counter()
        self.counter = counter
        self.registry = registry or _registry_from_env()

    # -- store -------------------------------------------------------------------------------
    @property
    def has_store(self) -> bool:
        return self._store is not None

    def store(self):
        """The open store (opening the default one now); raises the open error, if any."""
        with self._lock:
            if self._store is _DEFAULT_STORE:
                from ..store.ccr import open_ccr

                try:
                    self._store = open_ccr()
                except CaveError as exc:
                    self._store_error = exc
                    self._store = None
                    raise
            if self._store is None:
                if self._store_error is not None:
                    raise self._store_error
                raise UnknownHandle()
            return self._store

    def close(self) -> None:
        with self._lock:
            if self._store not in (None, _DEFAULT_STORE):
                self._store.close()
            self._store = None

    # -- detect / count ----------------------------------------------------------------------
    def detect(self, data: bytes) -> str:
        return detect(data)

    # -- compress ----------------------------------------------------------------------------
    def _run(self, data: bytes, type_: str | None, query: str, mode: str, *, need_store: bool, external: bool):
        """Shared pipeline of compress and simulate. Returns (result, compressor, class, meta);
        the last three are None on pass-through."""
        before_of = self._count_later(data)  # the full caller bytes, wrappers included
        body, wrappers = unwrap(data)
        ct = type_ if type_ else detect(body)
        passthrough = (None, None, None)
        if normalize_mode(mode) != MODE_COMPRESS:
            before = before_of()
            return Result(data, ct, before, before, self.counter.name), *passthrough
        got = self._attempt(ct, data, body, wrappers, query, before_of, need_store, external)
        runner = None if type_ else contender(body, ct)
        if runner:  # detection was unsure: the runner-up's compressor too, the smaller valid result
            got = self._trial(got, ct, runner, (data, body, wrappers, query, before_of, need_store, external))
        fallback = None if type_ else AUTO_FALLBACK.get(ct)
        if fallback == runner:
            fallback = None  # already tried
        if got is None and fallback:  # declined (not merely "nothing to save"): try the fallback
            got = self._attempt(fallback, data, body, wrappers, query, before_of, need_store, external)
        if not got:
            before = before_of()
            return Result(data, ct, before, before, self.counter.name), *passthrough
        return got

    def _trial(self, got, ct: str, runner: str, args: tuple):
        """The better of ``got`` (the detected kind's attempt) and the runner-up's (``trial.pick``);
        the chosen result names the other kind as its ``runner_up``."""
        alt = self._attempt(runner, *args)
        chosen = pick(got, alt)
        if chosen:
            chosen[0].runner_up = runner if chosen is got else ct
        return chosen

    def _count_later(self, data: bytes):
        """Start counting ``data``; returns a zero-argument function that gives the count."""
        if len(data) < PARALLEL_COUNT_MIN_BYTES:
            n = self.counter.count(data)
            return lambda: n
        box: list[int] = []

        def count() -> None:
            try:
                box.append(self.counter.count(data))
            except Exception:  # noqa: BLE001 - wait() counts again on the caller's thread
                pass

        import threading

        worker = threading.Thread(target=count, daemon=True)
        worker.start()

        def wait() -> int:
            worker.join()
            return box[0] if box else self.counter.count(data)  # the thread failed: count here

        return wait

    def _attempt(self, ct, data, body, wrappers, query, before_of, need_store, external):
        """Route ``body`` to the compressor for ``ct``: the result when it is smaller; False when
        the compressor took the input but saved nothing (no fallback then); else None."""
        try:
            comp = self.registry.get(ct)
        except Exception:  # a compressor that cannot even load fails closed
            comp = None
        if not isinstance(comp, Compressor):  # the contract is the base class: anything else fails closed
            return None
        cls = safety.lookup(comp.safety_class)
        if cls is None:
            return None
        if need_store and cls.requires_ccr and not external and self._store is None:
            return None
        try:
            got = comp.run(body, query, self.counter)
        except Exception:  # compressor bugs never reach the caller: pass through
            got = None
        if got is None:
            return None
        out, meta = got
        meta = meta or Metadata()
        out = rewrap(bytes(out), wrappers)
        after = self.counter.count(out)
        before = before_of()
        if after >= before or out == data:
            return False
        method = meta.method or comp.content_type
        lossless = cls.reversible if meta.lossless_to_model is None else meta.lossless_to_model
        res = Result(out, ct, before, after, self.counter.name, (before - after) / before, method=method, lossless_to_model=lossless)
        return res, comp, cls, meta

    def compress(
        self,
        data: bytes,
        *,
        type: str | None = None,  # noqa: A002 - mirrors the CLI flag
        query: str = "",
        mode: str = MODE_COMPRESS,
        external_recovery: bool = False,
    ) -> Result:
        """Compress ``data``. Never raises for bad input; store failures pass the input through
        with ``result.error`` set."""
        data = bytes(data)
        res, comp, cls, meta = self._run(data, type, query or "", mode, need_store=True, external=external_recovery)
        if comp is None or not cls.requires_ccr or external_recovery:
            return res
        try:
            store = self.store()
            handle = store.put(
                data,
                content_type=res.content_type,
                compressor=comp.content_type,
                tokens_before=res.tokens_before,
                tokens_after=res.tokens_after,
                metadata=meta.recovery_metadata,
            )
        except BudgetExceeded:
            return self._failed(data, res, "cave_ccr_budget_exceeded")
        except CaveError:
            return self._failed(data, res, "cave_ccr_unavailable")
        except Exception:
            return self._failed(data, res, "cave_ccr_unavailable")
        res.recovery_handle = handle
        return res

    @staticmethod
    def _failed(data: bytes, res: Result, code: str) -> Result:
        return Result(data, res.content_type, res.tokens_before, res.tokens_before, res.token_count_basis, error=code)

    def simulate(self, data: bytes, *, type: str | None = None, query: str = "", mode: str = MODE_COMPRESS) -> SimResult:  # noqa: A002
        """Dry run: same figures as :meth:`compress`, no store write."""
        res, comp, cls, meta = self._run(bytes(data), type, query or "", mode, need_store=False, external=False)
        sim = SimResult(res.content_type, res.tokens_before, res.tokens_after, res.token_count_basis)
        sim.runner_up = res.runner_up
        if comp is None:
            return sim
        sim.compressor = comp.content_type
        sim.safety_class = cls.name
        sim.ratio = res.ratio
        sim.requires_ccr = cls.requires_ccr
        sim.recoverable = not cls.requires_ccr or self._store is not None
        sim.method = res.method
        sim.lossless_to_model = res.lossless_to_model
        sim.lossy = not res.lossless_to_model
        return sim

    # -- retrieve / stats --------------------------------------------------------------------
    def retrieve(self, handle: str, query: str = "") -> bytes:
        """The exact original behind ``handle`` (any of the ``ccr:`` forms agents use); with a
        query, the BM25-narrowed view when it is strictly shorter."""
        from ..store.ccr import normalize_handle

        original = self.store().get(normalize_handle(handle))
        if not query or not query.strip():
            return original
        from .narrow import narrow

        try:
            view = narrow(original, query)
        except Exception:
            view = None
        if view is not None and len(view) < len(original):
            return view
        return original

    def stats(self) -> dict:
        if self._store is None and self._store_error is None:
            return {"totals": {"count": 0, "tokens_before": 0, "tokens_after": 0, "ratio": 0}, "by_content_type": {}, "basis": "inferred"}
        return self.store().summary()


def _registry_from_env() -> Registry:
    """The default registry, whose ``json`` is the best-of strategy (unset or ``best-of``);
    ``CAVE_ENGINE_TOON=elision`` or ``off`` (case-insensitive) restores the reference's
    elision-only ``json``."""
    import os

    if os.environ.get("CAVE_ENGINE_TOON", "").lower() in ("elision", "off"):
        from .registry import Entry

        reg = Registry(default_registry().entries())
        reg.register(Entry("json", "cavemem.compressors.json_elision:JSONCompressor"))
        return reg
    return default_registry()
