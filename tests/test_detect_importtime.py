"""An ``import word:`` line is no import statement of any language: ``python -X importtime``
prints its table with every row opening on ``import time:`` and must not be taken for code."""

import subprocess
import sys

from cavemem.engine.detect import detect

# the first rows of ``python3 -X importtime -c "import json"`` (CPython 3.11 on Debian 12)
IMPORTTIME = b"""import time: self [us] | cumulative | imported package
import time:       133 |        133 |   _io
import time:        29 |         29 |   marshal
import time:       281 |        281 |   posix
import time:       288 |        730 | _frozen_importlib_external
import time:       270 |        270 |   time
import time:        98 |        368 | zipimport
import time:        42 |         42 |     _codecs
import time:       245 |        286 |   codecs
import time:       496 |        496 |   encodings.aliases
import time:       593 |       1374 | encodings
import time:       196 |        196 | encodings.utf_8
import time:        71 |         71 | _signal
import time:        30 |         30 |     _abc
"""


def test_importtime_table_is_tabular_not_code():
    assert detect(IMPORTTIME) == "tabular"


def test_live_importtime_output_is_not_code():
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import json"], capture_output=True).stderr
    assert detect(out) != "code"


def test_python_imports_stay_code():
    src = b"import os\nimport sys\nimport re\n\n\ndef main(argv):\n    return len(argv)\n"
    assert detect(src) == "code"
