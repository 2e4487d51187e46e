"""An on-disk cache of the embedding model's optimised graph, so no process pays for optimising it.

Why: the shipped model keeps its weights as int8 with a Cast+Mul dequantisation in the graph.
Opened unoptimised, a session is quick to create but dequantises all 22.5M weights on every run
(the first run also faults in ~180 MB of fresh float buffers); opened optimised, onnxruntime
constant-folds them once, which takes ~0.3-2 s. Either way a cold ``cavemem recall`` paid
~110 ms of CPU for it. Here the optimised graph is written once, by onnxruntime itself
(``optimized_model_filepath``, level *extended*: portable across CPUs of the same
architecture, unlike *all*), with its float initializers in an external data file that
onnxruntime maps instead of copying. A later process opens it with optimisations off and
prepacking off: ~10 ms to open and ~18 ms for the first query, against ~55 and ~70 ms (CPU,
this machine). Its vectors equal those of the optimised session bit for bit with prepacking
on, and within 2e-7 without it (the unoptimised session differs by the same).

Layout, in ``<cache dir>/embed-graph-<model sha[:16]>-ort<version>-<recipe>/`` (0700)::

    model.onnx           the optimised graph (~55 KB)
    model.onnx.data      its initializers (~90 MB of float32)
    manifest.json        written last: source sha, ORT version, recipe, both files' size and mtime

The key names the model's sha256 and the onnxruntime version (an optimised graph may use the
contrib operators of the version that wrote it). A directory whose manifest is missing or whose
files' size or mtime differ from it is ignored (checked by ``stat``, as the model's own
verification stamp is: hashing 90 MB would cost more than the cache saves); building happens in a temporary sibling that is renamed into
place, so concurrent builders never see each other's half-written files. Other keys' directories
(older onnxruntime versions) are removed when a new one is published, once no process has used
them for 30 days (two venvs sharing a home must not delete each other's graph).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from pathlib import Path

RECIPE = "ext1"  # change when the way the graph is built changes
QUERY_RECIPE = "dq1"  # the query graph (:mod:`.quantize`), derived from the RECIPE graph
GRAPH = "model.onnx"
DATA = GRAPH + ".data"
MANIFEST = "manifest.json"
PREFIX = "embed-graph-"
STALE_S = 30 * 86_400  # another key's graph unused this long is deleted when a new one is published


def cache_root() -> Path | None:
    try:
        from ..paths import cache_dir

        return Path(cache_dir())
    except Exception:  # noqa: BLE001 - no home: no cache, the unoptimised path still works
        return None


def key(model_sha256: str, ort_version: str, recipe: str = RECIPE) -> str:
    return f"{PREFIX}{model_sha256[:16]}-ort{ort_version}-{recipe}"


def cached_graph(model_sha256: str, ort_version: str, recipe: str = RECIPE) -> Path | None:
    """The cached optimised graph for this model and onnxruntime, if a complete one exists (stats only)."""
    root = cache_root()
    if root is None:
        return None
    folder = root / key(model_sha256, ort_version, recipe)
    try:
        manifest = json.loads((folder / MANIFEST).read_bytes())
        if manifest.get("model_sha256") != model_sha256 or manifest.get("ort") != ort_version or manifest.get("recipe") != recipe:
            return None
        if manifest["files"] != {name: _stamp(folder / name) for name in (GRAPH, DATA)}:
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    _mark_used(folder / MANIFEST)
    return folder / GRAPH


def _stamp(path: Path) -> list[int]:
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


def writable() -> bool:
    """Whether a graph could be saved (else building one per process would cost more than it saves)."""
    root = cache_root()
    if root is None:
        return False
    probe = root
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    return os.access(probe, os.W_OK | os.X_OK)


def _mark_used(manifest: Path) -> None:
    """Touch the manifest at most once a day, so graphs no process has used for a month can go."""
    try:
        if manifest.stat().st_mtime < _now() - 86_400:
            os.utime(manifest)
    except OSError:
        pass


def _now() -> float:
    import time

    return time.time()


def build(ort, options, source: Path, model_sha256: str, recipe: str = RECIPE):
    """Open an optimised session on ``source`` and save its graph into the cache on the way.
    Returns the session (the optimisation is paid either way). ``options`` are the caller's
    session options; a failure to save only costs the cache, never the session."""
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    root = cache_root()
    tmp = None
    if root is not None:
        try:
            from ..paths import ensure_private_dir

            ensure_private_dir(str(root))
            tmp = root / f".{key(model_sha256, ort.__version__, recipe)}.{os.getpid()}.tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            os.mkdir(tmp, 0o700)
            options.optimized_model_filepath = str(tmp / GRAPH)
            options.add_session_config_entry("session.optimized_model_external_initializers_file_name", DATA)
            options.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
        except Exception:  # noqa: BLE001 - unwritable cache: just optimise in memory
            tmp = None
    session = ort.InferenceSession(str(source), sess_options=options, providers=["CPUExecutionProvider"])
    if tmp is not None:
        _publish(root, tmp, model_sha256, ort.__version__, recipe)
    return session


def build_query(ort, options, float_graph: Path, model_sha256: str):
    """The query graph (:mod:`.quantize`) rewritten from the cached float graph, then optimised
    and saved by onnxruntime as :func:`build` does; returns its session. The rewritten source sits
    beside the float graph's data file for the moment of the build, since its initializers name it."""
    import numpy as np

    from ..paths import write_private_file
    from . import quantize

    data = np.memmap(float_graph.with_name(DATA), dtype=np.uint8, mode="r")
    source = float_graph.with_name(f".query.{os.getpid()}.tmp.onnx")
    write_private_file(str(source), quantize.query_graph(float_graph.read_bytes(), data, np))
    del data
    try:
        return build(ort, options, source, model_sha256, QUERY_RECIPE)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(source)


def _publish(root: Path, tmp: Path, model_sha256: str, ort_version: str, recipe: str = RECIPE) -> None:
    final = root / key(model_sha256, ort_version, recipe)
    try:
        for name in (GRAPH, DATA):
            os.chmod(tmp / name, 0o600)
        files = {name: _stamp(tmp / name) for name in (GRAPH, DATA)}  # a rename keeps sizes and mtimes
        from ..paths import write_private_file

        write_private_file(str(tmp / MANIFEST), json.dumps(
            {"model_sha256": model_sha256, "ort": ort_version, "recipe": recipe, "files": files}, sort_keys=True).encode())
        if final.exists():
            if cached_graph(model_sha256, ort_version, recipe) is not None:  # another process published first: keep it,
                shutil.rmtree(tmp, ignore_errors=True)  # a reader may be opening those files right now
                return
            shutil.rmtree(final, ignore_errors=True)  # incomplete or changed: replace it
        os.rename(tmp, final)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # another process published first, or no space
        return
    for other in root.glob(PREFIX + "*"):  # graphs of other onnxruntime versions unused for 30 days
        try:
            stale = (other / MANIFEST).stat().st_mtime < _now() - STALE_S
        except OSError:
            stale = True
        if other.name != final.name and stale:
            shutil.rmtree(other, ignore_errors=True)
