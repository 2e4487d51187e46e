"""The ``search-result`` compressor (spec engine-compressors §3.5, cases §7.6)."""

from __future__ import annotations

import os
import re
import subprocess
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors.search_result import _IMPORTANT, SearchResultCompressor

from conftest import expands_markers, lines_doc

MARKER = re.compile(r"^… (\d+) search result lines elided \(caveman\)(?:: all in [^,;]+, lines? [0-9.]+(?:; [^,;]+, lines? [0-9.]+)*)? …\r?$")


def expands_view(out: bytes, original: bytes) -> bool:
    """True when ``out`` reads back to ``original``: markers stand for that many lines, the
    grouped view's path lines name the file of the hits below them (``12:text``), an elided hit
    (``12: …`` or ``path:12: …``) stands for exactly that hit, other lines are verbatim."""
    src = original.decode().split("\n")
    pos, path = 0, None
    for line in out.decode().split("\n"):
        m = MARKER.match(line)
        elided = re.fullmatch(r"(?:(.+):)?(\d+): …\r?", line)
        if m:
            pos += int(m.group(1))
        elif line.startswith("… caveman: elided the text of "):
            continue
        elif pos < len(src) and src[pos] == line:
            pos += 1
        elif pos < len(src) and elided and src[pos].startswith(f"{elided.group(1) or path}:{elided.group(2)}:"):
            pos += 1
        elif pos < len(src) and path is not None and src[pos] in (f"{path}:{line}", f"{path}-{line}"):
            pos += 1
        elif pos < len(src) and src[pos].startswith((line.rstrip("\r") + ":", line.rstrip("\r") + "-")):
            path = line.rstrip("\r")
        else:
            return False
    return pos == len(src)


def visible_locations(out: bytes) -> set[tuple[str, str]]:
    """Every (path, line) the model can read in ``out``, flat or grouped."""
    seen, path = set(), None
    for line in out.decode().split("\n"):
        flat = re.match(r"([^:\s][^:]*):(\d+):", line)
        grouped = re.match(r"(\d+):", line)
        if grouped and path is not None:
            seen.add((path, grouped.group(1)))
        elif flat:
            seen.add((flat.group(1), flat.group(2)))
        elif line and not line.startswith("…"):
            path = line
    return seen


def hits(n: int, special: dict[int, str] | None = None) -> list[str]:
    special = special or {}
    return [f"src/file_{i:02d}.go:{i + 10}:{special.get(i, 'ordinary match')}" for i in range(1, n + 1)]


def marker(n: int, ending: str = "\n") -> str:
    return f"… {n} search result lines elided (caveman) …{ending}"


def test_spec_case_action_hit_kept():
    lines = hits(28, {15: "ACTION investigate credential leak"})
    out = SearchResultCompressor().compress(lines_doc(lines))
    expected = "\n".join(lines[:8]) + "\n" + marker(6) + lines[14] + "\n" + marker(9) + "\n".join(lines[24:]) + "\n"
    assert out.decode() == expected


def test_spec_case_query_keeps_relevant_hit():
    data = lines_doc(hits(40, {23: "checkout websocket reconnect state machine"}))
    comp = SearchResultCompressor()
    out = comp.compress_query(data, "websocket reconnect").decode()
    assert "src/file_23.go:33:checkout websocket reconnect state machine" in out
    assert [int(m) for m in re.findall(r"… (\d+) search", out)] == [14, 13]
    assert comp.compress_query(data, "") == comp.compress(data)


def test_query_keeps_a_hit_the_redundancy_gate_would_drop():
    # hit 23's vocabulary is covered by the (kept) first hit, so only the query saves it
    special = {1: "checkout websocket reconnect state machine ordinary match", 23: "checkout websocket reconnect state machine"}
    data = lines_doc(hits(40, special))
    comp = SearchResultCompressor()
    assert b"src/file_23.go" not in comp.compress(data)
    assert b"src/file_23.go:33:checkout websocket reconnect state machine\n" in comp.compress_query(data, "websocket reconnect")


def test_spec_case_crlf_marker():
    lines = hits(30)
    out = SearchResultCompressor().compress(lines_doc(lines, "\r\n")).decode()
    assert out == "\r\n".join(lines[:8]) + "\r\n" + marker(18, "\r\n") + "\r\n".join(lines[26:]) + "\r\n"


def test_keyword_boundaries_are_ascii():
    for text, kept in (
        ("uses the api_key setting", False),  # no boundary at '_'
        ("rotate the KEY now", True),
        ("password reset flow", True),
        ("tokenizer output", False),
        ("\u212aEY rotation", True),  # RE2 (?i) folds the Kelvin sign to k
    ):
        assert bool(_IMPORTANT.search(text)) is kept, text


def test_keyword_hits_survive_the_redundancy_gate():
    # The same text twice: the redundancy gate shows the first copy only, unless it is a keyword hit.
    comp = SearchResultCompressor()
    for text, copies in (("uses the api_key setting", 1), ("rotate the KEY now", 2), ("build FAILED here", 2)):
        out = comp.compress(lines_doc(hits(30, {12: text, 18: text}))).decode()
        assert out.count(text) == copies, text


def test_minimum_and_nothing_dropped_fail_closed():
    comp = SearchResultCompressor()
    assert comp.compress(lines_doc(hits(17))) is None
    distinct = [f"hit {i}: " + " ".join(f"w{i}x{j}" for j in range(6)).replace("0", "zero") for i in range(20)]
    distinct = [re.sub(r"\d", lambda m: "abcdefghij"[int(m.group())], line) for line in distinct]
    assert comp.compress(lines_doc(distinct)) is None  # every hit is unlike the others


def test_single_short_dropped_line_is_shown_verbatim():
    lines = hits(30, {10: "FAIL one", 12: "FAIL two"})
    out = SearchResultCompressor().compress(lines_doc(lines)).decode()
    assert lines[10] in out  # the lone line between two kept hits
    assert marker(1) not in out


def test_invalid_utf8_and_binary_fail_closed():
    comp = SearchResultCompressor()
    assert comp.compress(lines_doc(hits(30)).replace(b"file_05", b"file_\xff5")) is None
    assert comp.compress(os.urandom(1 << 16) + b"\xff") is None


def test_huge_inputs_are_fast():
    comp = SearchResultCompressor()
    lines = hits(99) * 1000 + ["src/x.go:1:FAIL the build"] + hits(20)
    data = lines_doc(lines)
    start = time.monotonic()
    out = comp.compress_query(data, "build failure")
    assert time.monotonic() - start < 5
    assert b"src/x.go:1:FAIL the build" in out and len(out) < len(data) // 100
    assert expands_view(out, data)
    assert visible_locations(out) == visible_locations(data)  # repeats go, no location does
    long_lines = lines_doc(["a:1:" + "x" * (1 << 20)] + hits(20))
    start = time.monotonic()
    out = comp.compress_query(long_lines, "x" * 1000)
    assert time.monotonic() - start < 5
    assert out.startswith(b"a:1:xxxx")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["a.go:1:foo", "b.go:22:foo bar", "c.go:3:error here", "d.go:4:baz", "", "x"]), min_size=18, max_size=60),
    st.sampled_from(["", "bar", "baz qux"]),
)
def test_markers_account_for_every_dropped_line(lines, query):
    data = lines_doc(lines)
    out = SearchResultCompressor().compress_query(data, query)
    if out is None:
        return
    assert expands_view(out, data)
    assert visible_locations(out) == visible_locations(data)
    text = out.decode()
    assert text.count("error here") == lines.count("c.go:3:error here")


def test_real_grep_output_through_cli(run_cli):
    import cavemem

    pkg = os.path.dirname(cavemem.__file__)
    data = subprocess.run(["grep", "-rn", "--include=*.py", "import", pkg], capture_output=True, check=True).stdout
    lines = data.count(b"\n")
    assert lines > 60
    got = run_cli("cavemem", "compress", "--type", "search-result", "--query", "tree_sitter", input=data)
    assert got.rc == 0, got
    assert got.report["ratio"] > 0
    assert b"hits shown as `N: \xe2\x80\xa6`" in got.stdout  # look-alike hits keep their line numbers
    assert b"import tree_sitter" in got.stdout
    assert visible_locations(got.stdout) == visible_locations(data)
    back = run_cli("cavemem", "retrieve", got.report["recovery_handle"])
    assert back.stdout == data


def test_grep_hits_detected_and_compressed(run_cli):
    lines = [f"/srv/app/handlers/h{i % 7}.py:{i * 3 + 1}:    audit.record(\"handled request %s\", request_id)" for i in range(60)]
    lines[31] = "/srv/app/handlers/h3.py:94:    raise PermissionError(\"SECURITY: token rejected\")"
    data = lines_doc(lines)
    got = run_cli("cavemem", "compress", input=data)
    assert got.rc == 0, got
    assert got.report["content_type"] == "search-result"
    assert b"SECURITY: token rejected" in got.stdout
    # files interleave, so every hit keeps its path: the look-alike texts are what goes
    assert got.report["tokens_after"] < got.report["tokens_before"] * 3 // 4
    assert visible_locations(got.stdout) == visible_locations(data)


# -- per-file bound (query given, the spec's rules keep most hits) ----------------------------------


def token_grep() -> list[str]:
    """grep -rn token over docs: every hit says "token", so the keyword rule keeps them all."""
    lines = []
    for f, count in (("docs/npmrc.md", 7), ("docs/config.md", 30), ("docs/npm-token.md", 25), ("docs/login.md", 2)):
        for k in range(count):
            line_no = 10 + 7 * k
            text = f"paragraph {f[5:-3]} {k} about how the access token {'alpha beta gamma delta'.split()[k % 4]} works {k * 13}"
            if f == "docs/config.md" and k == 17:
                text = "set _authToken=MYTOKEN for the registry"
            lines.append(f"{f}:{line_no}:{text}")
    return lines


def test_query_bounds_hits_per_file_when_a_keyword_is_everywhere():
    lines = token_grep()
    data = lines_doc(lines)
    comp = SearchResultCompressor()
    # no query: the spec's rules keep every keyword hit, so only the paths fold (lossless)
    folded = comp.compress(data).decode()
    assert "…" not in folded and expands_view(folded.encode(), data)
    assert folded.startswith("docs/npmrc.md\n10:paragraph npmrc 0 about how the access token alpha works 0\n")
    out = comp.compress_query(data, "_authToken").decode()
    assert "docs/config.md\n" in out and "\n129:set _authToken=MYTOKEN for the registry\n" in out
    assert expands_view(out.encode(), data)
    # the head and tail, the query hit, and at most three hits per file (the redundancy gate
    # drops look-alikes among those) keep their text; every other hit keeps its line number
    assert visible_locations(out.encode()) == visible_locations(data)
    texts = [line for line in out.split("\n") if re.match(r"\d+:paragraph config", line)]
    assert 1 <= len(texts) <= 2, texts
    assert "\n213: …\n" in out
    assert len(out) < len(data) // 2


def test_alarm_hits_still_survive_the_bound():
    import hashlib

    words = [hashlib.sha1(str(i).encode()).hexdigest()[:12] for i in range(200)]
    lines = [f"src/app.py:{i}:{words[i]} = lookup({words[i + 50]!r}, {words[i + 100]})" for i in range(1, 40)]
    lines[25] = "src/app.py:26:raise RuntimeError('build FAILED here')"
    out = SearchResultCompressor().compress_query(lines_doc(lines), "dispatcher").decode()
    assert "\n26:raise RuntimeError('build FAILED here')\n" in out
    assert "\n30: …\n" in out and visible_locations(out.encode()) == visible_locations(lines_doc(lines))


def test_context_lines_and_separators_are_left_to_the_spec_rules():
    lines = []
    for k in range(30):
        lines += [f"lib/mod.py:{100 + 4 * k}:value = compute_{k}(alpha)", f"lib/mod.py-{101 + 4 * k}-    return value_{k}", "--"]
    data = lines_doc(lines)
    out = SearchResultCompressor().compress_query(data, "compute_7").decode()
    assert expands_markers(out.encode(), data, MARKER)
    assert "lib/mod.py:128:value = compute_7(alpha)" in out
    for line in out.split("\n"):
        if "all in" in line:  # a file summary only ever stands for hit lines
            assert "lib/mod.py" in line


def test_bound_is_fast_on_100k_hits():
    lines = [f"src/f{i % 10}.py:{i}:{i * 7919 % 100003} value {i * 31 % 977} row" for i in range(100_000)]
    data = lines_doc(lines)
    start = time.monotonic()
    out = SearchResultCompressor().compress_query(data, "value f3")
    assert time.monotonic() - start < 10
    # files interleave hit by hit: every hit keeps its path:line, look-alike texts go
    assert out is not None and len(out) < len(data) * 2 // 3
    assert expands_view(out, data)
    assert visible_locations(out) == visible_locations(data)


# grep -rn -A2 output: a path holding '-', a blank context line, ``--`` separators
GREP_A2 = """./sslproto-v2.py:477:        except Exception:
./sslproto-v2.py-478-            self._transport.close()
./sslproto-v2.py-479-
--
./sslproto-v2.py:577:        except Exception as exc:
./sslproto-v2.py-578-            self._set_state(SSLProtocolState.UNWRAPPED)
./sslproto-v2.py-579-            if isinstance(exc, ssl.CertificateError):
--
./base_events.py:582:        except Exception as ex:
./base_events.py-583-            if not self.is_closed():
./base_events.py-584-                self.call_soon_threadsafe(future.set_exception, ex)
--
./proactor_events.py:541:        except Exception as exc:
./proactor_events.py-542-            self._fatal_error(exc, 'Fatal write error on datagram transport')
./proactor_events.py-543-        else:
--
./taskgroups.py:211:            #        except Exception:
./taskgroups.py-212-            #            # Ignore any exceptions raised in the TaskGroup
./taskgroups.py-213-            #            pass
--
./selector_events.py:1022:        except Exception as exc:
./selector_events.py-1023-            self._fatal_error(exc, 'Fatal read error on socket transport')
./selector_events.py-1024-            return
"""


def test_context_lines_join_their_hits_group():
    """``grep -A``: context lines (``path-N-text``) are shown under their block's path as
    ``N-text``; every hit keeps its text and location; the view reads back to the input."""
    data = GREP_A2.encode()
    out = SearchResultCompressor().compress(data)
    assert out is not None and len(out) < len(data)
    text = out.decode()
    assert "./sslproto-v2.py\n477:        except Exception:\n478-            self._transport.close()\n479-\n--\n" in text
    assert "1023-            self._fatal_error(exc, 'Fatal read error on socket transport')" in text
    assert "./sslproto-v2.py-" not in text and "caveman" not in text  # nothing needed eliding
    assert expands_view(out, data)
    assert {("./sslproto-v2.py", "477"), ("./sslproto-v2.py", "577"), ("./taskgroups.py", "211")} <= visible_locations(out)


def test_a_dash_line_is_context_only_after_its_blocks_path():
    """``a-1-b`` is a context line of path ``a`` only when ``a`` has a hit in the same block."""
    from cavemem.compressors.search_fold import context_paths
    from cavemem.compressors.search_result import _HIT

    lines = ["lib/a-b.js:3:x = 1", "lib/a-b.js-4-y = 2", "lib/a-5-z", "--", "lib/a-b.js-9-w", "lib/c.js:2:q"]
    assert context_paths(lines, [_HIT.match(x) for x in lines]) == [None, "lib/a-b.js", None, None, None, None]
