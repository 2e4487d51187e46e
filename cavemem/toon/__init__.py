"""TOON (Token-Oriented Object Notation): JSON re-encoded for models, losslessly and provably.

- :mod:`.codec` — the API: ``encode_json`` / ``decode_json`` (caveman dialect, round-trip
  proven), ``encode_json_standard`` / ``decode_json_standard`` (standard TOON v4).
- :mod:`.jsonvalue` — the strict JSON value model (literal numbers, no duplicate keys).
- :mod:`.dialect` — the caveman dialect encoder/decoder (spec engine-compressors §4).
- :mod:`.standard` — python-toon wrapper and the independent cross-check.
- ``cavemem toon`` and ``caveman-engine toon`` live in :mod:`cavemem.cli.commands.toon`.

Nothing is imported here so importing the toon command stays cheap.
"""
