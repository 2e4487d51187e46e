#!/usr/bin/env bash
# PostgreSQL 15 + pgvector on 127.0.0.1 for the postgres-backed test params (recipe: ../shared/spec/deps.md §8).
# Debian 12 has no postgresql-15-pgvector, so pgvector is built from Debian 13's source package.
# Writes the server's URL to $PGCI/url; .ci/run exports it as CAVEMAN_TEST_PG_URL. Idempotent: a running
# cluster is reused, an installed pgvector is not rebuilt. Runs as root (CI).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PGBIN=/usr/lib/postgresql/15/bin
W=${PGCI:-/tmp/pgci}
PORT=${PGCI_PORT:-55432}
URL="postgresql://postgres@127.0.0.1:$PORT/postgres"
SHAREDIR=$("$PGBIN/pg_config" --sharedir 2>/dev/null || echo /usr/share/postgresql/15)

if ! [ -x "$PGBIN/postgres" ] || ! [ -x "$PGBIN/pg_config" ] || ! [ -d /usr/include/postgresql/15/server ]; then
  apt-get update -q && apt-get install -y -q postgresql-15 postgresql-server-dev-15 dpkg-dev
  SHAREDIR=$("$PGBIN/pg_config" --sharedir)
fi
if ! [ -f "$SHAREDIR/extension/vector.control" ]; then
  URI=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  URI=${URI:-http://deb.debian.org/debian}
  mkdir -p "$W/apt/lists/partial" "$W/apt/cache/archives/partial" "$W/src"
  echo "deb-src $URI trixie main" > "$W/apt/sources.list"
  A=(-o Dir::Etc::sourcelist="$W/apt/sources.list" -o Dir::Etc::sourceparts=/dev/null
     -o Dir::State::Lists="$W/apt/lists" -o Dir::Cache="$W/apt/cache")
  apt-get "${A[@]}" update -q && (cd "$W/src" && apt-get "${A[@]}" source pgvector)
  SRC=$(ls -d "$W"/src/pgvector-*/ | head -1)
  make -C "$SRC" PG_CONFIG="$PGBIN/pg_config" OPTFLAGS="" && make -C "$SRC" PG_CONFIG="$PGBIN/pg_config" install
fi
if ! "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
  rm -rf "$W/data"
  install -d -o postgres -g postgres "$W/data"
  runuser -u postgres -- "$PGBIN/initdb" -D "$W/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$W/data" -l "$W/data/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -c unix_socket_directories=$W/data -c fsync=off -c max_connections=200" start
fi
psql "$URL" -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS vector" -c "CREATE EXTENSION IF NOT EXISTS pg_trgm"
echo "$URL" > "$W/url"
echo "postgres ready at $URL" >&2
