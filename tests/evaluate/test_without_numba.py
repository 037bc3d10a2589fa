"""The library without its ``fast`` extra: numba's absence simulated by an import blocker.

numba stays installed (the workspace needs it); each command runs in a process
whose ``sys.meta_path`` refuses ``numba`` and ``llvmlite`` as an install
without them would.  The inputs count as large (``COMPILED_MIN_BYTES`` set to
1 byte in that process), so with numba they would be read by the compiled
scanner: without it they are read column-wise, stderr says once how to get
the compiled reader, and every output is the same bytes.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evalkit.formats._columns import NO_NUMBA_NOTE
from evalkit.paths import EXAMPLES
from evalkit.stats import hsd
from evalkit.stats._hsd_numpy import null_range_sums

sys.path.insert(0, str(Path(__file__).parent))
from numba_blocker import BLOCK  # noqa: E402

RUNS = sorted(str(p) for p in (EXAMPLES / "runs").glob("*.txt"))
RATINGS = str(EXAMPLES / "ratings.txt")

_BLOCK = BLOCK

_RUN = '''
import sys
from evalkit.formats import _columns
_columns.COMPILED_MIN_BYTES = 1
from evalkit.workspace.cli import main
status = main(sys.argv[1:])
print("numba loaded:", "numba" in sys.modules, file=sys.stderr)
sys.exit(status)
'''


def _evalkit(*argv, numba: bool):
    code = ("" if numba else _BLOCK) + _RUN
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)


@pytest.mark.integration
@pytest.mark.parametrize("argv", [
    ["score", "--ratings", RATINGS, "--gain", "ug", "--measure", "nERR@10", "--measure", "Q",
     "--per-topic", "--format", "csv", *RUNS],
    ["compare", "--ratings", RATINGS, "--gain", "raw", "--gain", "ug", "--measure", "nERR@10",
     "--trials", "2000", "--seed", "1", *RUNS],
    ["compare", "--ratings", RATINGS, "--gain", "ug", "--measure", "Q", "--trials", "2000",
     "--format", "json", "--test", "hsd", "--out", "{out}", *RUNS],
])
def test_large_inputs_without_numba_give_the_same_bytes_and_one_note(argv, tmp_path):
    argv = [a.replace("{out}", str(tmp_path / "report")) for a in argv]
    fast = _evalkit(*argv, numba=True)
    slow = _evalkit(*argv, numba=False)
    assert fast.returncode == 0 and slow.returncode == 0, slow.stderr
    assert slow.stdout == fast.stdout and slow.stdout
    assert "numba loaded: True" in fast.stderr and NO_NUMBA_NOTE not in fast.stderr
    assert "numba loaded: False" in slow.stderr
    assert slow.stderr.count(NO_NUMBA_NOTE) == 1
    assert "pip install 'evalkit-assessors[fast]'" in NO_NUMBA_NOTE


@pytest.mark.parametrize("shape, trials", [((5, 3, 1), 100), ((20, 7, 2), 5000),
                                           ((30, 12, 1), 9000), ((7, 2, 3), 10)])
def test_the_numpy_hsd_kernel_is_the_compiled_one_bit_for_bit(shape, trials):
    x = np.ascontiguousarray(np.random.default_rng(sum(shape)).random(shape))
    seed = np.uint64(hsd.seed_to_int(5))
    assert null_range_sums(x, trials, seed).tobytes() == hsd._null_range_sums(x, trials, seed).tobytes()


def test_numba_is_the_fast_extra_and_the_workspace_takes_it():
    import tomllib

    from evalkit.paths import ROOT

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not [d for d in project["dependencies"] if d.startswith(("numba", "llvmlite"))]
    extras = project["optional-dependencies"]
    assert extras["fast"] == ["numba>=0.60"]
    assert f"{project['name']}[fast]" in extras["workspace"]
