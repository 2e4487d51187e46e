"""The ``log`` compressor's second pass (``log_fold``): more trouble kept, look-alike noise let go."""

from __future__ import annotations

from cavemem.compressors.log import LogCompressor

from conftest import lines_doc

C = LogCompressor()


def unittest_run(tests: int) -> list[str]:
    out = []
    for k in range(tests):
        verdict = "FAIL" if k % 10 == 3 else "ok"
        out.append(f"test_case_{k} (suite_{k}.Case{k}.test_case_{k}) ... {verdict}")
    out += ["", "=" * 70]
    for k in range(3, tests, 10):
        out += [f"FAIL: test_case_{k} (suite_{k}.Case{k}.test_case_{k})", "-" * 70, "Traceback (most recent call last):",
                f'  File "/srv/app/suite_{k}.py", line 9, in test_case_{k}', "    self.assertTrue(check(value))",
                '  File "/srv/app/checks.py", line 41, in check', "    raise ValueError(value)",
                "           ^^^^^^^^^^^^^^^^^^", "ValueError: 7", ""]
    return out + ["-" * 70, f"Ran {tests} tests in 0.012s", "", f"FAILED (failures={len(range(3, tests, 10))})"]


def test_passing_lines_repeated_frames_and_carets_go_failures_stay():
    lines = unittest_run(60)
    out = C.compress(lines_doc(lines)).decode()
    for k in range(3, 60, 10):
        assert f"test_case_{k} (suite_{k}.Case{k}.test_case_{k}) ... FAIL\n" in out
        assert f'  File "/srv/app/suite_{k}.py", line 9, in test_case_{k}\n' in out
    assert "test_case_20 (suite_20.Case20.test_case_20) ... ok" not in out
    assert out.count('  File "/srv/app/checks.py", line 41, in check\n') == 1  # shown once, then elided
    assert out.count("ValueError: 7\n") == 6  # every failure keeps its exception line
    # carets and rules between kept lines go (the others are inside elided runs), counted in one note
    assert "^^^^" not in out and "-" * 70 not in out and "=" * 70 not in out
    assert out.endswith("FAILED (failures=6)\n… caveman: elided 8 caret, underline and rule lines …\n")


def test_trouble_without_an_error_word_is_kept():
    filler = [f"step {k}: copied shard {k * 7} of the archive to the mirror" for k in range(40)]
    special = ["test_mod3.py:9: AssertionError", "\u2716 case 0.4 (9.899645ms)",
               "invoke-rc.d: policy-rc.d denied execution of start.", "cp: cannot stat 'x': No such file"]
    lines = filler[:10] + special[:2] + filler[10:30] + special[2:] + filler[30:]
    out = C.compress(lines_doc(lines)).decode()
    for line in special:
        assert line + "\n" in out


def test_a_caret_line_in_the_tail_stays():
    lines = [f"src/m{k}.c:{k}:5: warning: unused variable 'v{k}'" for k in range(12)] + ["   12 |     int v;", "      |         ^"]
    out = C.compress(lines_doc(lines))
    assert out is None or out.endswith(b"      |         ^\n")


def test_a_repeated_warning_leaves_its_location_in_the_marker():
    lines = ["src/gz.c: In function 'gzscan':"]
    for k, col in enumerate((21, 17, 60, 29, 27, 26)):
        lines += [f"src/gz.c:{211 + k}:{col}: warning: ISO C++ forbids converting a string constant to 'char*' [-Wwrite-strings]",
                  f"  {211 + k} |     bye(\"seeking {k}\", in->name);", "      |         ^~~~~~~~~"]
    lines += ["src/gz.c:272:20: error: invalid conversion from 'void*' to 'unsigned char*' [-fpermissive]", "1 error generated."]
    out = C.compress(lines_doc(lines)).decode()
    assert "src/gz.c:211:21: warning: ISO C++ forbids converting" in out  # the first one, whole
    assert "warning repeated at gz.c:212:17, gz.c:213:60, gz.c:214:29, gz.c:215:27, gz.c:216:26 …" in out
    assert "src/gz.c:272:20: error: invalid conversion" in out and out.count("warning: ISO C++") == 1
