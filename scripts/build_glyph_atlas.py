#!/usr/bin/env python3
"""Build cavemem's pixel glyph atlas from the Debian font packages (spec pixel-and-mem A2).

Run once on a Debian machine after ``apt-get update && apt-get install -y fonts-spleen unifont``;
the generated files are committed, so cavemem never needs these packages (or any system font)
at run time:

    python scripts/build_glyph_atlas.py            # writes cavemem/pixel/data/glyphs.{bin.gz,json}

What it builds:

- ASCII U+0020..U+007E from Spleen 5x8 (``spleen-5x8.psfu.gz``, a PSF2 console font), with the
  three glyph edits the reference made (backtick, apostrophe, K; A2.2). Coverage is 0 or 255.
- Every other code point of the reference's 31 ranges (35,501 glyphs in all, A2.1) from GNU
  Unifont's ``unifont.hex``, reduced to the 5x8 cell grid by a 2x2 box downsample: an 8x16
  glyph becomes 4x8 drawn in a 5-px cell, a 16x16 glyph 8x8 in a 10-px (wide) cell; the right
  column(s) stay blank. The count of set source pixels (0..4) maps to the grey coverage
  0/136/187/224/255 (about 255*c^(1/2.2)).

File format of ``glyphs.bin.gz`` (gzip, mtime 0, all integers little-endian):
``b"CAVEPXA1"``, u32 N, N x u32 sorted code points, N x u32 sample offsets, N x u8 wide flags,
u32 plane length P, P bytes of grey coverage (row-major, 8 rows of 5 or 10 samples per glyph).
The 1-bit (mono) atlas is ``coverage > 0``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import struct
import subprocess
import sys
from array import array
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "cavemem" / "pixel" / "data"
SPLEEN_PSF = Path("/usr/share/consolefonts/spleen-5x8.psfu.gz")
UNIFONT_HEX = Path("/usr/share/unifont/unifont.hex")

# The code points the reference atlas covers (A2.1): 31 ranges, 35,501 glyphs, all in the BMP.
RANGES = (
    "20-7E A0-AC AE-24F 370-482 48A-4FF 590 5BE 5C0 5C3 5C6 5C8-60F 61B 61D-64A 660-66F 671-6D5 "
    "6DD-6DE 6E5-6E6 6E9 6EE-6FF 2000-200A 2010-2027 202F-205F 2100-214F 2190-23FF 2460-27BF "
    "3000-3029 302E-3098 309B-30FF 4E00-9FFF AC00-D7AF FF00-FFEF"
)
EXPECTED_GLYPHS = 35501

# 2x2 box coverage (number of set source pixels) -> grey level.
GREY_FOR_COVERAGE = (0, 136, 187, 224, 255)

# The reference's edits to Spleen 5x8 (A2.2): rows top to bottom, '#' = ink.
SPLEEN_EDITS = {
    "`": ["#....", ".#...", ".....", ".....", ".....", ".....", ".....", "....."],
    "'": ["...#.", "..#..", ".#...", ".....", ".....", ".....", ".....", "....."],
    "K": [".....", "#..#.", "#.#..", "##...", "##...", "#.#..", "#..#.", "....."],
}


def code_points() -> list[int]:
    cps: list[int] = []
    for part in RANGES.split():
        lo, _, hi = part.partition("-")
        cps.extend(range(int(lo, 16), int(hi or lo, 16) + 1))
    return sorted(cps)


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def package_version(name: str) -> str:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", name], capture_output=True, text=True, check=True
        )
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def read_spleen(path: Path) -> dict[int, list[str]]:
    """PSF2 console font -> {code point: 8 rows of '#'/'.' (5 wide)} for printable ASCII."""
    data = gzip.decompress(path.read_bytes())
    magic, _ver, header_size, flags, count, char_size, height, width = struct.unpack("<8I", data[:32])
    if magic != 0x864AB572 or (height, width) != (8, 5) or char_size != 8:
        raise SystemExit(f"{path}: not a 5x8 PSF2 font")
    if not flags & 1:
        raise SystemExit(f"{path}: PSF2 font has no unicode table")
    bitmaps = [data[header_size + i * char_size : header_size + (i + 1) * char_size] for i in range(count)]
    table = data[header_size + count * char_size :].split(b"\xff")
    glyph_of: dict[int, int] = {}
    for index, entry in enumerate(table[:count]):
        singles = entry.split(b"\xfe")[0].decode("utf-8")
        for ch in singles:
            glyph_of.setdefault(ord(ch), index)
    out: dict[int, list[str]] = {}
    for cp in range(0x20, 0x7F):
        rows = bitmaps[glyph_of[cp]]
        out[cp] = ["".join("#" if byte & (0x80 >> c) else "." for c in range(5)) for byte in rows]
    for ch, rows in SPLEEN_EDITS.items():
        out[ord(ch)] = rows
    return out


def read_unifont(path: Path) -> dict[int, str]:
    glyphs: dict[int, str] = {}
    for line in path.read_text(encoding="ascii").splitlines():
        if line:
            key, _, bits = line.partition(":")
            glyphs[int(key, 16)] = bits
    return glyphs


def downsample_unifont(hexbits: str) -> tuple[bool, bytes]:
    """unifont.hex glyph -> (wide, 8 rows of grey samples, 5 or 10 per row)."""
    wide = len(hexbits) == 64
    if not wide and len(hexbits) != 32:
        raise SystemExit(f"unexpected unifont glyph length {len(hexbits)}")
    src_w = 16 if wide else 8
    digits = src_w // 4
    rows = [int(hexbits[i * digits : (i + 1) * digits], 16) for i in range(16)]
    cell_w = 10 if wide else 5
    out = bytearray()
    for r in range(8):
        top, bottom = rows[2 * r], rows[2 * r + 1]
        for c in range(cell_w):
            if 2 * c + 1 >= src_w:
                out.append(0)
                continue
            shift_left = src_w - 1 - 2 * c
            count = ((top >> shift_left) & 1) + ((top >> (shift_left - 1)) & 1)
            count += ((bottom >> shift_left) & 1) + ((bottom >> (shift_left - 1)) & 1)
            out.append(GREY_FOR_COVERAGE[count])
    return wide, bytes(out)


def build(spleen_path: Path, unifont_path: Path) -> tuple[bytes, dict]:
    spleen = read_spleen(spleen_path)
    unifont = read_unifont(unifont_path)
    cps = code_points()
    offsets = array("I")
    wide_flags = bytearray()
    plane = bytearray()
    wide_count = 0
    for cp in cps:
        offsets.append(len(plane))
        if cp in spleen:
            wide = False
            samples = bytes(255 if px == "#" else 0 for row in spleen[cp] for px in row)
        else:
            if cp not in unifont:
                raise SystemExit(f"unifont.hex has no glyph for U+{cp:04X}")
            wide, samples = downsample_unifont(unifont[cp])
        wide_flags.append(1 if wide else 0)
        wide_count += wide
        plane += samples
    codes = array("I", cps)
    if sys.byteorder != "little":
        codes.byteswap()
        offsets.byteswap()
    blob = b"".join(
        [
            b"CAVEPXA1",
            struct.pack("<I", len(cps)),
            codes.tobytes(),
            offsets.tobytes(),
            bytes(wide_flags),
            struct.pack("<I", len(plane)),
            bytes(plane),
        ]
    )
    meta = {
        "format": "CAVEPXA1: gzip(magic, u32 N, N*u32 code points, N*u32 sample offsets, N*u8 wide, u32 P, P grey bytes)",
        "cell_w": 5,
        "cell_h": 8,
        "glyphs": len(cps),
        "wide_glyphs": wide_count,
        "plane_bytes": len(plane),
        "ranges": RANGES,
        "grey_for_coverage": list(GREY_FOR_COVERAGE),
        "sources": [
            {
                "role": "ASCII U+0020..U+007E",
                "font": "Spleen 5x8",
                "debian_package": "fonts-spleen",
                "package_version": package_version("fonts-spleen"),
                "file": str(spleen_path),
                "sha256": sha256_file(spleen_path),
                "licence": "BSD-2-Clause (SPLEEN_LICENSE.txt)",
                "edits": {k: v for k, v in SPLEEN_EDITS.items()},
            },
            {
                "role": "every other code point, 2x2 box downsample",
                "font": "GNU Unifont",
                "debian_package": "unifont",
                "package_version": package_version("unifont"),
                "file": str(unifont_path),
                "sha256": sha256_file(unifont_path),
                "licence": "SIL OFL 1.1 option of Unifont's dual licence (UNIFONT_LICENSE.txt)",
            },
        ],
    }
    return blob, meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spleen", type=Path, default=SPLEEN_PSF)
    ap.add_argument("--unifont", type=Path, default=UNIFONT_HEX)
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    args = ap.parse_args(argv)
    for path in (args.spleen, args.unifont):
        if not path.exists():
            print(f"missing {path}: apt-get update && apt-get install -y fonts-spleen unifont", file=sys.stderr)
            return 1
    blob, meta = build(args.spleen, args.unifont)
    if meta["glyphs"] != EXPECTED_GLYPHS:
        print(f"expected {EXPECTED_GLYPHS} glyphs, built {meta['glyphs']}", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    packed = gzip.compress(blob, compresslevel=9, mtime=0)
    meta["sha256_uncompressed"] = hashlib.sha256(blob).hexdigest()
    (args.out / "glyphs.bin.gz").write_bytes(packed)
    (args.out / "glyphs.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{meta['glyphs']} glyphs ({meta['wide_glyphs']} wide), {len(packed):,} bytes -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
