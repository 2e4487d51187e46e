"""The o200k rank table as one file a cold process maps instead of parsing (the storage half of
:mod:`cavemem.tokens`, which alone counts).

Why this shape: a short CLI call needs the ranks of a few hundred byte strings, not 200k of them.
Unmarshalling even a sharded dict touched ~40% of the vocabulary for 1 KB of English; an
open-addressing hash table (``zlib.crc32``, linear probing, load < 0.4) in an ``mmap`` answers
each lookup by reading a few bytes, and the pages a process never touches are never read.

Layout (native byte order, recorded in the magic): header, ``n + 1`` uint32 token offsets,
``2**SLOT_BITS`` uint32 slots (rank + 1, 0 = empty), 65536 bytes of "longest token that starts
with these two bytes" (prunes substring scans), then the token bytes back to back.
"""

from __future__ import annotations

import struct
import sys
from array import array
from zlib import crc32

MAGIC = b"CAVEMEM-O200K-TABLE-1" + (b"-le" if sys.byteorder == "little" else b"-be")
_HEADER = struct.Struct("=24sIII")  # magic, token count, slot count, token bytes
_HEADER_SIZE = 40  # the header padded so every uint32 array is 4-byte aligned
SLOT_BITS = 19
_PREFIXES = 1 << 16


class TableError(ValueError):
    pass


def build(tokens: list[bytes]) -> bytes:
    """The table file for ``tokens`` (indexed by rank)."""
    size = 1 << SLOT_BITS
    mask = size - 1
    slots = array("I", bytes(4 * size))
    offsets = array("I", [0])
    longest = bytearray(_PREFIXES)
    end = 0
    for rank, tok in enumerate(tokens):
        h = crc32(tok) & mask
        while slots[h]:
            h = (h + 1) & mask
        slots[h] = rank + 1
        end += len(tok)
        offsets.append(end)
        if len(tok) >= 2:
            k = tok[0] << 8 | tok[1]
            longest[k] = max(longest[k], min(len(tok), 255))
    header = _HEADER.pack(MAGIC, len(tokens), size, end).ljust(_HEADER_SIZE, b"\0")
    return b"".join((header, offsets.tobytes(), slots.tobytes(), bytes(longest), *tokens))


class RankTable:
    """Read-only lookups over a table file's bytes (an ``mmap`` or ``bytes``)."""

    def __init__(self, buf):
        if len(buf) < _HEADER_SIZE:
            raise TableError("rank table is truncated")
        magic, n, size, nbytes = _HEADER.unpack_from(buf, 0)
        if magic != MAGIC or size & (size - 1):
            raise TableError("bad rank table header")
        off = _HEADER_SIZE
        view = memoryview(buf)
        need = off + 4 * (n + 1) + 4 * size + _PREFIXES + nbytes
        if len(buf) != need:
            raise TableError("rank table is truncated")
        self.n = n
        self._offsets = view[off : off + 4 * (n + 1)].cast("I")
        off += 4 * (n + 1)
        self._slots = view[off : off + 4 * size].cast("I")
        off += 4 * size
        self._longest = view[off : off + _PREFIXES]
        off += _PREFIXES
        self._buf, self._base, self._mask = buf, off, size - 1

    def rank(self, tok: bytes) -> int | None:
        slots, offsets, buf, base, mask = self._slots, self._offsets, self._buf, self._base, self._mask
        h = crc32(tok) & mask
        while True:
            r = slots[h]
            if not r:
                return None
            r -= 1
            if buf[base + offsets[r] : base + offsets[r + 1]] == tok:
                return r
            h = (h + 1) & mask

    def longest(self, first: int, second: int) -> int:
        """Length of the longest token starting with these two bytes (0: none)."""
        return self._longest[first << 8 | second]

    def token(self, rank: int) -> bytes:
        return bytes(self._buf[self._base + self._offsets[rank] : self._base + self._offsets[rank + 1]])

    def everything(self) -> dict[bytes, int]:
        """Every token → rank (the full encoder's input)."""
        buf, base, offs = self._buf, self._base, self._offsets
        blob = bytes(buf[base : base + offs[self.n]])
        return {blob[offs[r] : offs[r + 1]]: r for r in range(self.n)}
