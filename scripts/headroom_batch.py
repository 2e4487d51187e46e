#!/usr/bin/env python3
"""Run the Headroom peer wrapper on many files in one warm process (run with the peer venv's python).

    headroom_batch.py WRAPPER JOBS.json

``JOBS.json`` is a list of ``{"path", "hint", "out"}``; for each job the wrapper's own ``main``
runs exactly as on the command line (``PATH --hint HINT``, best mode), its stdout is written to
``out`` and its one-line JSON report to ``out + ".json"``. Why: a fresh process per file spends
most of its time importing Headroom, which makes a full corpus bench take hours on a loaded
machine; the compressed output and token counts are the same, only the per-file time is warm.
"""

import contextlib
import importlib.util
import io
import json
import sys


def main() -> int:
    spec = importlib.util.spec_from_file_location("headroom_compress", sys.argv[1])
    peer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peer)
    for job in json.loads(open(sys.argv[2]).read()):
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                peer.main([job["path"], "--hint", job["hint"]])
        except Exception as exc:  # one bad file must not stop the batch
            err.write(json.dumps({"error": f"{type(exc).__name__}: {exc}"}) + "\n")
        with open(job["out"], "wb") as fh:
            fh.write(out.getvalue().encode("utf-8", "surrogateescape"))
        with open(job["out"] + ".json", "w") as fh:
            fh.write(err.getvalue().strip().splitlines()[-1] if err.getvalue().strip() else "{}")
        print(job["path"], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
