"""Committed pixel assets: the glyph atlas (``glyphs.bin.gz`` + ``glyphs.json``, built by
``scripts/build_glyph_atlas.py``) and the two font licences. A package so the files ship in wheels."""
