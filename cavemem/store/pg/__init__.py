"""PostgreSQL (+ pgvector, pg_trgm) backend of the memory and recovery stores (issue 13).

Imported only when a ``postgresql://`` URL is in use (see :mod:`cavemem.store.backend`); needs the
``[postgres]`` extra (psycopg 3). :mod:`.conn` owns connections, transactions, retries, schema
migrations and the translation of the store's SQLite-dialect statements; :mod:`.ccr` and
:mod:`.memory` are the two stores.
"""
