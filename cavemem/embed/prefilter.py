"""An int8 copy of a vector index's matrix that narrows a search to the rows that can reach its top k.

Why: a float32 scan of 100k x 384 rows (numpy einsum, the exact cosines) costs ~10 ms CPU on an
idle core and ~20 ms on a busy one; it is the largest part of a semantic recall at that size.
onnxruntime's int8 matrix product (``MatMulInteger`` on a prepacked int8 matrix, the same library
that runs the embedding model) computes the integer dot products of every row in ~5.5 ms there.
Those approximate cosines only choose candidates: the candidates are scored by the exact float32
product (:func:`cavemem.embed.vectors._dots`), so hits and cosines are those of a full scan, bit
for bit.

The bound. A row ``m`` is stored as ``s * c`` (``c`` int8 in [-63, 63], ``s = max|m| / 63``; seven
bits, so that onnxruntime's AVX2 kernel, which sums pairs of u8 x s8 products in int16, cannot
saturate: 255 * 64 * 2 < 2**15), the query ``q`` as ``t * d`` (``d`` in [-127, 127]). Then
exactly ``m.q = s t (c.d) + (m - s c).q + s c.(q - t d)``, so the approximation ``a = s t (c.d)``
is off by at most ``|m - s c| |q| + |s c| |q - t d|``, plus the float32 rounding of the exact
product (at most ``n u / (1 - n u) |m| |q|`` for any summation order, ``n`` = 384, ``u`` = 2**-24).
A row whose upper bound is below the k-th best lower bound cannot be among the top k.

Built once per process and index generation (rows appended afterwards are scored exactly, until
they are a tenth of the index), and only for a process that searches the same generation many
times (a server, an MCP session): the build costs ~0.5-1 s at 100k, more than a one-shot CLI
recall's two scans save. Shared by every index object of the same files in the process (a
server's reader pool).
"""

from __future__ import annotations

import os
import threading

MIN_ROWS = 5_000  # below this a float scan costs well under a millisecond more than the int8 one
AFTER_SCANS = 12  # full scans of one generation in this process before the int8 copy is built
MAX_SHARE = 0.25  # more candidates than this share of the rows: a full scan is as cheap
MAX_TAIL = 0.1  # rows appended since the build, as a share of it, before a rebuild
ROW_STEP = 63  # the stored rows' int8 range (seven bits: see the module docstring)
QUERY_STEP = 127
# float32 rounding of a 384-term dot product, any order: n u / (1 - n u) with u = 2**-24, rounded up
ROUNDING = 2.3e-5

_LOCK = threading.Lock()
_BUILT: dict = {}  # (realpath, generation, file identity) -> Prefilter, newest last
_SCANS: dict = {}  # the same key -> full scans seen


def _key(directory: str, generation: int, matrix_path: str):
    try:
        st = os.stat(matrix_path)
    except OSError:
        return None
    return os.path.realpath(directory), generation, st.st_ino, st.st_dev


def for_index(directory: str, generation: int, matrix_path: str, matrix, np):
    """The int8 copy for this generation, built on this call if the process has scanned it
    :data:`AFTER_SCANS` times; None while it has not (or cannot: no onnxruntime)."""
    rows = len(matrix)
    if rows < MIN_ROWS:
        return None
    key = _key(directory, generation, matrix_path)
    if key is None:
        return None
    with _LOCK:
        got = _BUILT.get(key)
        if got is not None and rows - got.rows <= MAX_TAIL * got.rows and got.rows <= rows:
            return got
        _SCANS[key] = _SCANS.get(key, 0) + 1
        if _SCANS[key] < AFTER_SCANS:
            return None
        try:
            got = Prefilter(np, matrix)
        except Exception:  # noqa: BLE001 - onnxruntime missing or refusing the graph: float scans only
            _SCANS[key] = -10 ** 9  # never try again for this generation
            return None
        for old in [k for k in _BUILT if k[0] == key[0]]:
            del _BUILT[old]  # one generation per index: older ones are no longer searched
        _BUILT[key] = got
        return got


class Prefilter:
    """The int8 rows of a matrix, their bounds, and an onnxruntime session holding them prepacked."""

    def __init__(self, np, matrix, chunk: int = 4096):
        import onnxruntime as ort

        self.np = np
        self.rows, dim = matrix.shape
        weights = np.empty((dim, self.rows), dtype=np.int8)  # transposed: onnxruntime prepacks it
        self.scale = np.empty(self.rows, dtype=np.float32)
        # the bound is |q| * slack + |q - t d| * size: slack = |m - s c| + ROUNDING |m|, size = |s c|
        self.slack = np.empty(self.rows, dtype=np.float32)
        self.size = np.empty(self.rows, dtype=np.float32)
        for lo in range(0, self.rows, chunk):  # float32 in blocks: 100k rows in float64 at once cost ~4 s
            m = np.asarray(matrix[lo:lo + chunk], dtype=np.float32)
            scale = np.abs(m).max(axis=1) / np.float32(ROW_STEP)
            scale[scale == 0] = 1.0
            c = np.clip(np.rint(m / scale[:, None]), -ROW_STEP, ROW_STEP)
            approx = c * scale[:, None]
            weights[:, lo:lo + len(m)] = c.astype(np.int8).T
            self.scale[lo:lo + len(m)] = scale
            self.slack[lo:lo + len(m)] = np.sqrt(np.einsum("ij,ij->i", m - approx, m - approx)) + ROUNDING * np.sqrt(np.einsum("ij,ij->i", m, m))
            self.size[lo:lo + len(m)] = np.sqrt(np.einsum("ij,ij->i", approx, approx))
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        graph = _matmul_integer_model(weights, dim, self.rows)
        del weights
        self.session = ort.InferenceSession(graph, sess_options=options, providers=["CPUExecutionProvider"])

    def candidates(self, query, k: int):
        """Rows (ascending) that hold every row of the exact top ``k`` of ``query`` among the
        first :attr:`rows`; None when they would be too many to be worth it."""
        np = self.np
        q = np.asarray(query, dtype=np.float64)
        if not np.isfinite(q).all() or k <= 0:
            return None
        steps, parts, left = [], [], q
        for _ in range(2):  # the query and its residual: ~14 bits for the price of one pass over the rows
            top = float(np.abs(left).max())
            t = top / QUERY_STEP if top > 0 else 1.0
            d = np.clip(np.rint(left / t), -QUERY_STEP, QUERY_STEP)
            steps.append(t)
            parts.append(d)
            left = left - d * t
        q_err = float(np.sqrt((left ** 2).sum()))  # |q - (t1 d1 + t2 d2)|
        q_norm = float(np.sqrt((q ** 2).sum()))
        shifted = (np.stack(parts) + 128).astype(np.uint8)  # zero point 128: the products are of d itself
        dots = self.session.run(None, {"q": shifted})[0]
        # float32 from here: its rounding (~1e-7 of values below 1) is far inside the 1e-5 margin
        approx = dots[0].astype(np.float32) * np.float32(steps[0])
        approx += dots[1].astype(np.float32) * np.float32(steps[1])
        approx *= self.scale
        bound = self.slack * np.float32(q_norm * 1.001)
        bound += self.size * np.float32(q_err * 1.001)
        bound += np.float32(1e-5)
        k = min(k, self.rows)
        floor = np.partition(approx - bound, self.rows - k)[self.rows - k]
        rows = np.flatnonzero(approx >= floor - bound)  # upper bound reaches the k-th best lower bound
        return None if len(rows) > MAX_SHARE * self.rows else rows


# -- a one-node ONNX graph, encoded by hand (the onnx package is not a dependency) ----------------
def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload) -> bytes:
    """A protobuf field: an int as a varint, bytes or str length-delimited."""
    if isinstance(payload, int):
        return _varint(number << 3) + _varint(payload)
    data = payload.encode() if isinstance(payload, str) else payload
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _value_info(name: str, elem_type: int, dims) -> bytes:
    shape = b"".join(_field(1, _field(1, d)) for d in dims)  # TensorShapeProto.dim.dim_value
    return _field(1, name) + _field(2, _field(1, _field(1, elem_type) + _field(2, shape)))


def _tensor(name: str, array, elem_type: int) -> bytes:
    return b"".join(_field(1, d) for d in array.shape) + _field(2, elem_type) + _field(8, name) + _field(9, array.tobytes())


def _matmul_integer_model(weights, dim: int, rows: int) -> bytes:
    """``y = MatMulInteger(q, W, 128)``: q (2, dim) uint8, W (dim, rows) int8 initializer, y int32."""
    import numpy as np

    uint8, int8, int32 = 2, 3, 6  # TensorProto data types
    node = _field(1, "q") + _field(1, "W") + _field(1, "zero") + _field(2, "y") + _field(4, "MatMulInteger")
    graph = (_field(1, node) + _field(2, "prefilter") + _field(5, _tensor("W", weights, int8))
             + _field(5, _tensor("zero", np.array(128, dtype=np.uint8), uint8))
             + _field(11, _value_info("q", uint8, (2, dim))) + _field(12, _value_info("y", int32, (2, rows))))
    return _field(1, 8) + _field(8, _field(1, "") + _field(2, 13)) + _field(7, graph)  # IR 8, opset 13
