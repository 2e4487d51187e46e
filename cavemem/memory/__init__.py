"""Durable agent memory: remember, recall, supersede, history, forget (see :mod:`.api`).

Modules, each one concern: ``model`` (the record, the row filter, write limits), ``ids``
(content-addressed ids, Go-style times, user dates), ``privacy`` (``<private>`` spans, secret
redaction), ``project`` (git-root scoping), ``analyze`` + ``stem`` (index terms), ``when`` (dates
mentioned in a query), ``store`` (schema, migrations, rows, FTS5 + trigram indexes), ``rank``
(lexical candidates, context signals, fusion, refusal gate; pluggable extra scorers), ``dedup``
(near-duplicate merge), ``pack`` (engine compression, token budget), ``transfer`` (JSONL
export/import), ``render`` (tables, the agent context block), ``api`` (:class:`Memory`) and
``cli`` (the commands).
"""
