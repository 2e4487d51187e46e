"""The committed glyph atlas (spec pixel-and-mem A2): 35,501 bitmap glyphs on a 5x8 cell grid.

Loaded once per process from ``data/glyphs.bin.gz`` (built by ``scripts/build_glyph_atlas.py``
from Debian's Spleen 5x8 and GNU Unifont), so rendering needs no system font. Each glyph is 8
rows of grey coverage, 5 samples wide (narrow, one cell) or 10 (wide, two cells). The mono
(1-bit) atlas is ``coverage > 0``. A code point that is not in the atlas has no glyph: callers
count it as *dropped* and advance one cell.
"""

from __future__ import annotations

import struct
import threading
from array import array
from bisect import bisect_left
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
ATLAS_FILE = DATA_DIR / "glyphs.bin.gz"
MAGIC = b"CAVEPXA1"
CELL_W = 5
CELL_H = 8

# Ink is kept as a "thermometer" code so that max(ink a, ink b) is a bitwise OR: the atlas has
# only the coverage levels 0/136/187/224/255, coded 0/1/3/7/15 (a higher level has every bit of
# a lower one). The 1-bit atlas draws every inked sample at full ink (code 15).
GREY_LEVELS = (0, 136, 187, 224, 255)
THERMO_CODES = (0, 1, 3, 7, 15)
FULL_INK = 15
_THERMO = bytes(THERMO_CODES[sum(1 for lv in GREY_LEVELS[1:] if v >= lv)] for v in range(256))
_MONO = bytes([0] + [FULL_INK] * 255)


class Glyph:
    """One glyph: ``cells`` (1 or 2), ``width`` in px (5 or 10), and its 8 rows of samples as
    thermometer-coded ink, from the grey atlas (``aa_rows``) and the 1-bit atlas (``mono_rows``)."""

    __slots__ = ("cp", "cells", "width", "aa_rows", "mono_rows", "has_ink")

    def __init__(self, cp: int, wide: bool, samples: bytes):
        self.cp = cp
        self.cells = 2 if wide else 1
        self.width = CELL_W * self.cells
        w = self.width
        grey = tuple(samples[r * w : (r + 1) * w] for r in range(CELL_H))
        self.aa_rows = tuple(row.translate(_THERMO) for row in grey)
        self.mono_rows = tuple(row.translate(_MONO) for row in grey)
        self.has_ink = any(samples)


class AtlasError(RuntimeError):
    pass


class Atlas:
    def __init__(self, blob: bytes):
        if blob[:8] != MAGIC:
            raise AtlasError("glyph atlas: bad magic")
        (n,) = struct.unpack_from("<I", blob, 8)
        pos = 12
        self.codepoints = _u32_array(blob[pos : pos + 4 * n])
        pos += 4 * n
        self.offsets = _u32_array(blob[pos : pos + 4 * n])
        pos += 4 * n
        self.wide = blob[pos : pos + n]
        pos += n
        (plane_len,) = struct.unpack_from("<I", blob, pos)
        pos += 4
        self.plane = blob[pos : pos + plane_len]
        if len(self.plane) != plane_len or len(self.codepoints) != n:
            raise AtlasError("glyph atlas: truncated")
        self._glyphs: dict[int, Glyph | None] = {}
        self._widths: dict[str, int] = {}
        self._wide_re = None

    def __len__(self) -> int:
        return len(self.codepoints)

    def index(self, cp: int) -> int:
        """Rank of ``cp`` in the sorted code-point table, or -1 when there is no glyph."""
        i = bisect_left(self.codepoints, cp)
        if i < len(self.codepoints) and self.codepoints[i] == cp:
            return i
        return -1

    def glyph(self, cp: int) -> Glyph | None:
        try:
            return self._glyphs[cp]
        except KeyError:
            pass
        i = self.index(cp)
        g = None
        if i >= 0:
            wide = self.wide[i] == 1
            size = CELL_H * CELL_W * (2 if wide else 1)
            off = self.offsets[i]
            g = Glyph(cp, wide, self.plane[off : off + size])
        self._glyphs[cp] = g
        return g

    def has_wide(self, text: str) -> bool:
        """Whether any character of ``text`` takes two cells (a C-speed regex scan)."""
        if text.isascii():
            return False
        if self._wide_re is None:
            import re

            ranges, start, prev = [], None, None
            for i, cp in enumerate(self.codepoints):
                if self.wide[i] != 1:
                    continue
                if start is not None and cp == prev + 1:
                    prev = cp
                    continue
                if start is not None:
                    ranges.append((start, prev))
                start = prev = cp
            if start is not None:
                ranges.append((start, prev))
            self._wide_re = re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges) + "]")
        return self._wide_re.search(text) is not None

    def cell_width(self, ch: str) -> int:
        """Cells a character occupies: 2 for a wide glyph, else 1 (a missing glyph counts 1)."""
        if ch < "\x80":
            return 1
        try:
            return self._widths[ch]
        except KeyError:
            i = self.index(ord(ch))
            w = 2 if i >= 0 and self.wide[i] == 1 else 1
            self._widths[ch] = w
            return w


def _u32_array(raw: bytes) -> array:
    arr = array("I")
    if arr.itemsize != 4:  # pragma: no cover - every supported platform has 4-byte unsigned int
        arr = array("L")
    arr.frombytes(raw)
    import sys

    if sys.byteorder != "little":  # pragma: no cover
        arr.byteswap()
    return arr


_lock = threading.Lock()
_atlas: Atlas | None = None


def get_atlas() -> Atlas:
    """The process-wide atlas (decompressed on first use, ~20 ms)."""
    global _atlas
    if _atlas is None:
        with _lock:
            if _atlas is None:
                import gzip

                try:
                    blob = gzip.decompress(ATLAS_FILE.read_bytes())
                except OSError as exc:
                    raise AtlasError(f"glyph atlas unavailable: {exc}") from exc
                _atlas = Atlas(blob)
    return _atlas
