"""Shared test fixtures and helpers: every test gets its own CAVEMAN_HOME; the token-rank cache
is shared across the session so subprocess CLI calls do not rebuild it each time. Test modules
import the plain helpers (``from conftest import cli_argv, expands_markers``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
CAVEMAN_EVALS = SHARED / "corpus" / "caveman-evals"


def eval_fixture(name: str) -> bytes:
    """A reference eval fixture from ``../shared`` (not redistributable, so not in the repo): the
    test skips with a reason in a plain clone that has no ``../shared`` beside it."""
    path = CAVEMAN_EVALS / name
    if not CAVEMAN_EVALS.is_dir():
        pytest.skip(f"the reference eval fixtures are absent ({CAVEMAN_EVALS})")
    return path.read_bytes()
BIN = Path(sys.executable).parent


@pytest.fixture(scope="session")
def token_cache_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("token-cache")
    return d


@pytest.fixture(autouse=True)
def cave_home(tmp_path, monkeypatch, token_cache_dir) -> Path:
    home = tmp_path / "caveman-home"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("CAVEMAN_HOME", str(home))
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(token_cache_dir))
    for var in ("CAVEMAN_CCR_DB", "CAVEMAN_CCR_MAX_BYTES", "CAVEMAN_MEM_DB", "CAVE_ENGINE_TOON"):
        monkeypatch.delenv(var, raising=False)
    # Semantic recall is on by default for users; most tests pin the lexical ranking (and would
    # each load the model), so it is off here unless a test takes the `semantic_default` fixture
    # (tests/test_embed_*.py, the README example in tests/test_embed_default.py).
    monkeypatch.setenv("CAVEMAN_EMBED", "0")
    monkeypatch.setenv("CAVEMAN_WARM", "0")  # no warm recall process unless a test opts in (tests/test_warm*.py)
    return home


@pytest.fixture
def semantic_default(monkeypatch) -> None:
    """The environment of a plain install: CAVEMAN_EMBED unset, so semantic recall is on."""
    monkeypatch.delenv("CAVEMAN_EMBED", raising=False)


def cli_argv(name: str = "cavemem") -> list[str]:
    """The command that runs console script ``name`` (``cavemem`` or ``caveman-engine``) of this venv."""
    script = BIN / name
    if script.exists():
        return [str(script)]
    module = {"cavemem": "cavemem", "caveman-engine": "cavemem.cli.engine_cli"}[name]
    return [sys.executable, "-m", module]


def lines_doc(lines: list[str], ending: str = "\n") -> bytes:
    """``lines`` as a document, each ended by ``ending``."""
    return (ending.join(lines) + ending).encode()


def expands_markers(out: bytes, original: bytes, marker: re.Pattern) -> bool:
    """True when replacing every ``marker`` line of ``out`` (group 1 = how many lines it hides) by
    that many lines gives ``original`` back: the kept lines are verbatim and in order."""
    src = original.decode().split("\n")
    pos = 0
    for line in out.decode().split("\n"):
        m = marker.match(line)
        if m:
            pos += int(m.group(1))
        else:
            if pos >= len(src) or src[pos] != line:
                return False
            pos += 1
    return pos == len(src)


class CLIResult:
    def __init__(self, proc: subprocess.CompletedProcess):
        self.rc = proc.returncode
        self.stdout: bytes = proc.stdout
        self.stderr: bytes = proc.stderr

    @property
    def report(self) -> dict:
        """The last stderr line parsed as JSON."""
        import json

        return json.loads(self.stderr.decode().strip().splitlines()[-1])

    @property
    def json(self):
        """stdout parsed as JSON."""
        import json

        return json.loads(self.stdout)

    def __repr__(self) -> str:
        return f"CLIResult(rc={self.rc}, stdout={self.stdout[:200]!r}, stderr={self.stderr[:400]!r})"


def _run_process(prog: str, *args: str, input: bytes = b"", env: dict | None = None, timeout: float = 60,
                 cwd: Path | None = None) -> CLIResult:
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    proc = subprocess.run(cli_argv(prog) + list(args), input=input, capture_output=True, env=full_env,
                          timeout=timeout, cwd=cwd)
    return CLIResult(proc)


def cli_in_process(args, *, input: bytes = b"", env: dict | None = None, cwd=None, timeout: float = 60,
                   prog: str = "cavemem") -> subprocess.CompletedProcess:
    """``subprocess.run(cli_argv(prog) + args, env=env, ...)`` done in this process (the console
    script's ``main`` on in-memory streams: tests/cli_inprocess.py); ``env`` is the whole environment,
    as for subprocess. An environment that sets the interpreter up (``PYTHON*`` differing from this
    one's) needs a new interpreter, so such a call runs as a process."""
    env = dict(os.environ) if env is None else env
    if any(env.get(k) != os.environ.get(k) for k in {*env, *os.environ} if k.startswith("PYTHON")):
        return subprocess.run(cli_argv(prog) + list(args), input=input, capture_output=True, env=env, cwd=cwd,
                              timeout=timeout)
    from cli_inprocess import run_in_process

    return subprocess.CompletedProcess(list(args), *run_in_process(prog, tuple(args), input, env, cwd, whole_env=True))


def run_cli_in_process(prog: str, *args: str, input: bytes = b"", env: dict | None = None, timeout: float = 60,
                       cwd: Path | None = None) -> CLIResult:
    """``run_cli`` in this process (see :func:`cli_in_process`)."""
    return CLIResult(cli_in_process(args, input=input, env={**os.environ, **(env or {})}, cwd=cwd, timeout=timeout,
                                    prog=prog))


@pytest.fixture
def run_cli(request):
    """run_cli("cavemem", "compress", input=b"...", env={...}, cwd=...) -> CLIResult. In this process
    (the console script's ``main`` on in-memory streams: tests/cli_inprocess.py) unless the test or
    its module is marked ``cli_process``: those check the process itself (start-up, fds, exit)."""
    return _run_process if request.node.get_closest_marker("cli_process") else run_cli_in_process


@pytest.fixture
def run_cli_process():
    """``run_cli`` in a fresh ``cavemem`` / ``caveman-engine`` process, always."""
    return _run_process


def opened_page(src):
    """A page's decoded pixels: pages are indexed PNGs, read back as grey ("L") when every
    pixel is grey, else RGB - the colours a viewer shows, compared pixel for pixel."""
    from PIL import Image

    im = Image.open(src)
    im.load()
    if im.mode != "P":
        return im
    rgb = im.convert("RGB")
    r, g, b = rgb.split()
    return r if r.tobytes() == g.tobytes() == b.tobytes() else rgb


# -- the store backends: SQLite files and a real PostgreSQL server (issue 13) -------------------------

def _pg_base_url() -> str | None:
    """The test server: ``CAVEMAN_TEST_PG_URL``, else the URL ``.ci/setup-postgres.sh`` wrote."""
    url = os.environ.get("CAVEMAN_TEST_PG_URL", "").strip()
    if not url:
        f = Path(os.environ.get("PGCI", "/tmp/pgci")) / "url"
        url = f.read_text().strip() if f.is_file() else ""
    return url or None


@pytest.fixture(scope="session")
def pg_base_url():
    """A reachable PostgreSQL server with pgvector, or the reason there is none."""
    url = _pg_base_url()
    if url is None:
        return None, "no PostgreSQL test server (run .ci/setup-postgres.sh or set CAVEMAN_TEST_PG_URL)"
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except Exception as exc:  # noqa: BLE001 - any failure means "no usable server"
        return None, f"PostgreSQL test server {url} unusable: {str(exc).strip().splitlines()[0] if str(exc).strip() else exc}"
    return url, ""


def pg_schema_url(base: str, schema: str) -> str:
    """``base`` confined to ``schema`` (extensions stay reachable in ``public``)."""
    from urllib.parse import quote

    return base + ("&" if "?" in base else "?") + "options=" + quote(f"-c search_path={schema},public", safe="")


@pytest.fixture(params=["sqlite", "postgres"])
def db_backend(request, monkeypatch, pg_base_url):
    """Run the test once on SQLite (yields None: the default files) and once on PostgreSQL
    (yields the URL of a fresh schema, also exported as ``CAVEMAN_DB_URL`` so CLI subprocesses
    use it). Without a server the postgres run skips with the reason, unless
    ``CAVEMAN_TEST_PG_REQUIRED=1`` (CI), where it fails."""
    if request.param == "sqlite":
        monkeypatch.delenv("CAVEMAN_DB_URL", raising=False)
        yield None
        return
    yield from _fresh_pg_schema(monkeypatch, pg_base_url)


@pytest.fixture
def pg_url(monkeypatch, pg_base_url):
    """PostgreSQL-only tests: the URL of a fresh schema (exported as ``CAVEMAN_DB_URL``)."""
    yield from _fresh_pg_schema(monkeypatch, pg_base_url)


def _fresh_pg_schema(monkeypatch, pg_base_url):
    base, reason = pg_base_url
    if base is None:
        if os.environ.get("CAVEMAN_TEST_PG_REQUIRED") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    import uuid

    import psycopg

    schema = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = pg_schema_url(base, schema)
    monkeypatch.setenv("CAVEMAN_DB_URL", url)
    try:
        yield url
    finally:
        from cavemem.store.pg import conn as pgconn

        pgconn.close_all()
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only: SQLite file behaviour (paths, locks, damaged files); "
                            "db_backend does not run it on PostgreSQL")
    config.addinivalue_line("markers", "cli_process: run_cli starts a real process (the process contract: "
                            "exit codes, closed stdout, start-up, concurrent processes)")


def pytest_collection_modifyitems(config, items):
    """Drop the postgres run of tests marked ``sqlite_only`` (deselected, not skipped)."""
    keep, drop = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        (drop if params.get("db_backend") == "postgres" and item.get_closest_marker("sqlite_only") else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
