"""Pixel compression (spec pixel-and-mem part A): large, mostly static text drawn as PNG pages
in a 5x8 bitmap font, because vision models bill images by area rather than by characters.

Modules, in pipeline order: ``atlas`` (committed glyph atlas), ``prepare`` (reflow, tabs),
``wrap`` (cell measuring and hard wrap), ``geometry``/``density`` (page sizes, density levels
gated by reader model), ``raster``/``render`` (pages), ``pricing``/``profit`` (image tokens per
provider, when imaging pays), ``transforms`` (request rewriting), ``simulate``, ``export``
(``pixel render`` files and metrics), ``gate`` (the evals density checks), ``cli``.
Rendering and encoding need only the standard library.
"""
