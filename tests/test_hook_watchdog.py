"""The hooks' in-process deadline (cli/watchdog.py): past it the process prints nothing and exits 0,
also while the work holds the GIL in one long regex call; finished in time, it changes nothing."""

from __future__ import annotations

import subprocess
import sys
import time

PRELUDE = "import os, re, sys, time\nfrom cavemem.cli.watchdog import Deadline\n"


def _run(body: str, timeout: float = 60):
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", PRELUDE + body], capture_output=True, timeout=timeout)
    return proc, time.monotonic() - t0


def _startup() -> float:
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-c", PRELUDE], check=True, capture_output=True)
    return time.monotonic() - t0


def test_deadline_ends_a_regex_that_never_releases_the_gil():
    startup = _startup()
    proc, wall = _run(
        "Deadline(0.3, lambda: os.write(2, b'expired\\n'))\n"
        "re.compile(r'(a+)+$').match('a' * 40 + 'b')  # catastrophic backtracking: minutes in one C call\n"
        "print('not reached')\n"
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"expired\n")
    assert wall < startup + 0.3 + 0.5, (wall, startup)


def test_deadline_ends_a_blocking_read_on_a_pipe_nobody_closes():
    startup = _startup()
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", PRELUDE + "Deadline(0.3, lambda: os.write(2, b'expired\\n'))\n"
                             "sys.stdin.buffer.read()\nprint('not reached')\n"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    rc = proc.wait(timeout=60)
    wall = time.monotonic() - t0
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdin.close()
    assert (rc, out, err) == (0, b"", b"expired\n")
    assert wall < startup + 0.3 + 0.5, (wall, startup)


def test_finished_work_is_not_cut_short_and_the_alarm_handler_is_restored():
    proc, _ = _run(
        "import signal\n"
        "d = Deadline(0.2, lambda: os.write(2, b'expired\\n'))\n"
        "d.finish()\n"
        "time.sleep(0.5)\n"
        "print(signal.getsignal(signal.SIGALRM) is signal.SIG_DFL, signal.getitimer(signal.ITIMER_REAL))\n"
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"True (0.0, 0.0)\n", b"")


def test_off_the_main_thread_the_watchdog_thread_alone_keeps_the_time():
    proc, _ = _run(
        "import threading\n"
        "def work():\n"
        "    Deadline(0.2, lambda: os.write(2, b'expired\\n'))\n"
        "    time.sleep(30)\n"
        "t = threading.Thread(target=work)\nt.start()\nt.join()\nprint('not reached')\n"
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"expired\n")
