"""The `cavemem serve` page in a real browser: Debian's headless Chromium driven by Playwright
against `cavemem serve` started as a user would (CLI subprocess, one-time login link from its
stdout). Search, edit (= supersede), forget, bulk-forget dry run; screenshots at 1280 px and
at phone width go to bench-results/serve-browser/ (or $CAVEMEM_ARTIFACTS)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import urllib.request
from pathlib import Path

import pytest
from playwright import sync_api as playwright_sync

from conftest import REPO, cli_argv

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not os.path.exists(CHROMIUM):  # .ci/run installs it through .ci/setup-chromium.sh
    pytest.fail(f"chromium not found at {CHROMIUM}: run .ci/setup-chromium.sh", pytrace=False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(cave_home):
    port = _free_port()
    env = {**os.environ, "CAVEMAN_HOME": str(cave_home)}
    env.pop("CAVEMAN_SERVE_TOKEN", None)
    proc = subprocess.Popen([*cli_argv(), "serve", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True, cwd=str(cave_home))
    try:
        link, printed = None, []
        for _ in range(10):
            line = proc.stdout.readline()
            printed.append(line)
            if not line:
                break
            if line.startswith("open once to log in: "):
                link = line.split(": ", 1)[1].strip()
                break
        assert link and link.startswith(f"http://127.0.0.1:{port}/login?code="), proc.stderr.read() if proc.poll() is not None else link
        token = (cave_home / "serve.token").read_text().strip()
        assert token not in "".join(printed)  # the start banner names the token file, never the token
        assert stat.S_IMODE(os.stat(cave_home / "serve.token").st_mode) == 0o600
        base = f"http://127.0.0.1:{port}"
        _wait_ready(base, token)
        yield {"base": base, "token": token, "link": link, "proc": proc, "home": cave_home}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    logged = proc.stderr.read()
    assert "Traceback" not in logged and "code=" not in logged and token not in logged, logged[-2000:]


def _call(base, token, method, path, body=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def _wait_ready(base, token):
    import time

    deadline = time.monotonic() + 15
    while True:
        try:
            _call(base, token, "GET", "/api/v1/stats")
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _artifacts() -> Path:
    d = Path(os.environ.get("CAVEMEM_ARTIFACTS") or REPO / "bench-results" / "serve-browser")
    d.mkdir(parents=True, exist_ok=True)
    return d


SEED = [
    ("the deploy key lives in vault under ops/deploy", ["ops"]),
    ("we run postgres 16 for the main database", ["db"]),
    ("scratch: the flaky login test is quarantined", ["scratch"]),
    ("scratch: retry the nightly build by hand on fridays", ["scratch"]),
    ("scratch: the staging vm reboots at midnight utc", ["scratch"]),
    ("the team prefers squash merges on the main branch", []),
]


CAPTURED = ("The API server runs on port 8000.", "Let's go with Postgres for the orders database.",
            "The staging host is stage-3.internal.")


def _seed_review(home):
    """Real captures from a transcript and one injected-but-unused memory, written beside the
    running server (SQLite WAL: a second writer process, as the hooks are)."""
    from cavemem import Memory
    from cavemem.memory.capture import feedback

    path = home / "t.jsonl"
    path.write_text("".join(json.dumps({"type": "user", "uuid": f"u{i}", "sessionId": "s1", "cwd": "/tmp/webapp",
                                        "timestamp": "2026-10-01T10:00:00.000Z", "message": {"role": "user", "content": t}}) + "\n"
                            for i, t in enumerate(CAPTURED)))
    m = Memory(cwd=str(home))
    try:
        stored = m.capture.run(str(path), project="webapp").stored
        noisy = m.remember("the office wifi password rotates monthly", project="webapp").id
        feedback.record(m, [{"id": noisy, "text": "the office wifi password rotates monthly"}], "Sure, done.")
        return {m.show(s["id"]).text: s["id"] for s in stored}, noisy
    finally:
        m.close()


def test_search_edit_forget_and_bulk_preview_in_chromium(server):
    base, token = server["base"], server["token"]
    ids = {text: _call(base, token, "POST", "/api/v1/memories", {"text": text, "project": "webapp", "tags": tags})["id"]
           for text, tags in SEED}
    shots = _artifacts()
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
            page.goto(server["link"])
            assert page.url == base + "/"
            page.wait_for_selector(".mem")
            assert page.locator("#count").inner_text() == f"1–{len(SEED)} of {len(SEED)}"
            page.screenshot(path=str(shots / "list-1280.png"), full_page=True)

            # search: "/" focuses the box; ranked hits say why they matched
            page.keyboard.press("/")
            page.keyboard.type("where is the deploy key?")
            page.keyboard.press("Enter")
            page.wait_for_selector("#hits .hit")
            first = page.locator("#hits .hit").first
            assert first.locator(".text").inner_text() == "the deploy key lives in vault under ops/deploy"
            assert first.locator(".why").inner_text() == "matched: deploy, key"
            assert first.locator("mark").count() >= 2
            page.screenshot(path=str(shots / "search-1280.png"), full_page=True)

            # edit = supersede, then the history diff
            first.click()
            page.wait_for_selector("#edittext")
            page.fill("#edittext", "the deploy key moved to vault under ops/keys")
            page.click("#save")
            page.wait_for_selector("#detail .history li:nth-child(2)")
            assert page.locator("#detail .history li").count() == 2
            assert "ops/keys" in page.locator("#detail .history li:nth-child(2) ins").all_inner_texts()[-1]
            page.screenshot(path=str(shots / "history-1280.png"), full_page=True)
            new_id = page.locator("#detail h2").inner_text()
            hist = _call(base, token, "GET", f"/api/v1/memories/{new_id}/history")["history"]
            assert [v["text"] for v in hist] == ["the deploy key lives in vault under ops/deploy",
                                                 "the deploy key moved to vault under ops/keys"]

            # forget one, with the confirmation dialog
            page.keyboard.press("Escape")
            target = ids["we run postgres 16 for the main database"]
            dialogs = []
            page.once("dialog", lambda d: (dialogs.append(d.message), d.accept()))
            page.click(f'#timeline [data-id="{target}"]')
            page.wait_for_selector("#forget")
            page.click("#forget")
            page.wait_for_selector(f'#timeline [data-id="{target}"]', state="detached")
            assert dialogs and target in dialogs[0]
            listed = _call(base, token, "GET", "/api/v1/memories?project=webapp&limit=50")
            assert target not in [m["id"] for m in listed["memories"]]

            # bulk forget: preview count only (dry run) — nothing deleted
            page.click('.tabs button[data-tab="bulk"]')
            page.fill('#bulkform [name="project"]', "webapp")
            page.fill('#bulkform [name="tag"]', "scratch")
            page.click('#bulkform button[type="submit"]')
            playwright_sync.expect(page.locator("#bulkpreview")).to_have_text("Would forget 3 memories in webapp.")
            assert page.locator("#bulkgo").is_visible()
            page.screenshot(path=str(shots / "bulk-1280.png"), full_page=True)
            assert _call(base, token, "GET", "/api/v1/memories?project=webapp&tag=scratch")["count"] == 3

            # review tab: duplicate clusters and seen-once lists come from /api/v1/review
            page.click('.tabs button[data-tab="review"]')
            heads = page.locator("#reviewbody h3")
            playwright_sync.expect(heads).to_have_text(["Low-confidence captures (0)", "Injected, never used (0)",
                                                        "Duplicate clusters (0)", "Seen once, oldest first (4)"])  # 5 current, 1 is an edit

            # review queues: unconfirmed captures (a accept, e edit, x forget) and injected-never-used
            captured, noisy = _seed_review(server["home"])
            filtered = browser.new_page(viewport={"width": 1280, "height": 900})  # the list's confidence filter, from its form
            filtered.context.add_cookies(page.context.cookies())
            filtered.goto(base + "/?project=webapp")
            filtered.fill('#filters [name="max_confidence"]', "0.75")
            filtered.click('#filters button[type="submit"]')
            filtered.wait_for_url("**max_confidence=0.75**")
            assert filtered.locator("#count").inner_text() == "1–2 of 2"
            assert filtered.locator("#timeline .conf").all_inner_texts() == ["conf 0.70", "conf 0.70"]
            filtered.close()
            page.click('.tabs button[data-tab="browse"]')
            page.click('.tabs button[data-tab="review"]')
            low = page.locator('#reviewbody .review[data-queue="low"]')
            playwright_sync.expect(page.locator('#reviewbody h3[data-queue="low"]')).to_have_text("Low-confidence captures (3)")
            playwright_sync.expect(page.locator('#reviewbody h3[data-queue="never"]')).to_have_text("Injected, never used (1)")
            assert low.first.locator(".conf").inner_text() == "conf 0.70"
            page.screenshot(path=str(shots / "review-1280.png"), full_page=True)
            first_id = low.first.get_attribute("data-id")
            low.first.focus()
            page.keyboard.press("a")
            playwright_sync.expect(page.locator('#reviewbody h3[data-queue="low"]')).to_have_text("Low-confidence captures (2)")
            edit_id = page.evaluate("document.activeElement.dataset.id")  # focus moved to the next row
            assert edit_id in captured.values() and edit_id != first_id
            page.keyboard.press("e")
            page.wait_for_selector("#reviewbody textarea.reviewtext")
            page.fill("#reviewbody textarea.reviewtext", "the orders database is Postgres 16")
            page.keyboard.press("Control+Enter")
            playwright_sync.expect(page.locator('#reviewbody h3[data-queue="low"]')).to_have_text("Low-confidence captures (1)")
            dialogs.clear()
            page.once("dialog", lambda d: (dialogs.append(d.message), d.accept()))
            page.keyboard.press("x")
            playwright_sync.expect(page.locator('#reviewbody h3[data-queue="low"]')).to_have_text("Low-confidence captures (0)")
            page.once("dialog", lambda d: d.accept())
            page.click(f'#reviewbody .review[data-id="{noisy}"] button.forget')
            playwright_sync.expect(page.locator('#reviewbody h3[data-queue="never"]')).to_have_text("Injected, never used (0)")
            assert dialogs and dialogs[0].startswith("Forget mem_")
            left = _call(base, token, "GET", "/api/v1/memories?project=webapp&limit=100")["memories"]
            texts = {m["text"]: m["confidence"] for m in left}
            assert texts.get("the orders database is Postgres 16") == 1.0
            assert sum(1 for t in captured if t in texts) == 1 and texts[next(t for t in captured if t in texts)] == 1.0
            assert "the office wifi password rotates monthly" not in texts
            page.screenshot(path=str(shots / "review-done-1280.png"), full_page=True)

            # keyboard: j moves to the first row, Enter opens it, Escape closes
            page.click('.tabs button[data-tab="browse"]')
            page.locator("body").focus()
            page.keyboard.press("j")
            page.keyboard.press("Enter")
            page.wait_for_selector("#detail:not([hidden]) h2")
            assert page.locator("#detail h2").inner_text() == page.locator(".mem:visible").first.get_attribute("data-id")
            page.keyboard.press("Escape")
            assert page.locator("#detail").is_hidden()

            # phone width: the list is readable (no sideways scroll)
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.context.add_cookies(page.context.cookies())
            phone.goto(base + "/")
            phone.wait_for_selector(".mem")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, width
            phone.screenshot(path=str(shots / "list-390.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()
    for name in ("list-1280.png", "search-1280.png", "history-1280.png", "bulk-1280.png", "review-1280.png",
                 "review-done-1280.png", "list-390.png"):
        assert (shots / name).stat().st_size > 5000
