"""Memory ids of the vector sidecar as 64-bit keys: ``mem_`` + 16 hex digits is one uint64, so a
generation's ids sort once into an array that :meth:`.vectors.VectorIndex.locate` searches with
``np.searchsorted`` instead of building a dict or comparing 20-byte strings."""

from __future__ import annotations

ID_BYTES = 20  # ``mem_`` + 16 hex digits, ASCII: one row of ``ids.G.bin``


def _hex_table(np):
    table = np.full(256, 255, dtype=np.uint8)
    for i, ch in enumerate(b"0123456789abcdef"):
        table[ch] = i
    return table


def _ids_to_keys(np, raw):
    """(N, 20) uint8 rows of ``mem_`` + 16 hex digits → their N uint64 values; None if any row is not one."""
    if len(raw) == 0:
        return np.zeros(0, dtype=np.uint64)
    if not (raw[:, :4] == np.frombuffer(b"mem_", dtype=np.uint8)).all():
        return None
    nib = _hex_table(np)[raw[:, 4:]]
    if (nib == 255).any():
        return None
    packed = np.ascontiguousarray((nib[:, 0::2] << 4) | nib[:, 1::2])
    return packed.view(">u8").reshape(-1).astype(np.uint64)


def _sorted_keys(np, ids):
    """(row order, sorted keys) of an ids array, or (None, None) when some id is not ``mem_`` + hex."""
    keys = _ids_to_keys(np, np.frombuffer(ids, dtype=np.uint8).reshape(-1, ID_BYTES))
    if keys is None:
        return None, None
    order = np.argsort(keys, kind="stable")
    return order, keys[order]


def _keys_of(np, memory_ids):
    raw = b"".join(m.encode("ascii", "replace") if len(m) == ID_BYTES else b"?" * ID_BYTES for m in memory_ids)
    return _ids_to_keys(np, np.frombuffer(raw, dtype=np.uint8).reshape(-1, ID_BYTES))


class RowMap:
    """``{memory id: first row}`` of an index, kept by a long-lived process once it has asked
    :data:`AFTER` lookups of one index (a dict answers a recall's few hundred ids in microseconds,
    where the sorted-key search costs ~15 numpy calls a lookup); grown in place when rows are
    appended, so a server's writes do not rebuild it. It holds the id rows it was built from and
    is kept across a reopen only while the new view starts with exactly those rows (a compaction,
    a rebuilt sidecar or another writer's new generation drops it). The first row of a duplicated
    id wins, as in the sorted-key search (a stable sort)."""

    AFTER = 8

    def __init__(self):
        self.ids = None  # the id rows taken in so far
        self.first: dict[str, int] = {}

    @property
    def rows(self) -> int:
        return 0 if self.ids is None else len(self.ids)

    def holds(self, ids) -> bool:
        """Whether ``ids`` (a view's whole id array, or None) starts with the rows taken in."""
        n = self.rows
        return ids is not None and len(ids) >= n and bool((ids[:n] == self.ids).all())

    def extend(self, ids) -> None:
        """Take in the rows of ``ids`` (a view's whole id array, starting with those taken in) past them."""
        first = self.first
        for row, raw in enumerate(ids[self.rows:].tolist(), self.rows):
            first.setdefault(raw.decode("ascii", "replace"), row)
        self.ids = ids
