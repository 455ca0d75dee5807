"""Without numba, the engines give the pinned results too: the numpy paths are the fallback.

Why: numba is an optional extra (`gcnemu[fast]`); a user without it, or with
GCNEMU_NO_NUMBA=1, runs the numpy paths for the fp32 fma and the MFMA exact sum. The test
session uses the numba kernels from the first call when numba is installed (tests/conftest.py),
so this file switches them off in-process and replays the cases of
tests/test_engine_equivalence.py that lean on those two numerics (MFMA kernels, FMA loops) on
the timed engine, plus a functional-engine grid against the timed one.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from gcnemu.sim import accel

HERE = Path(__file__).resolve().parent


def _equivalence():
    spec = importlib.util.spec_from_file_location("_equivalence", HERE / "test_engine_equivalence.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("_equivalence", mod)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def numpy_only(monkeypatch):
    """The accel module as it is without numba: every kernel lookup answers None."""
    monkeypatch.setitem(accel._STATE, "kernels", None)
    assert not accel.enabled()


NUMERIC_CASES = ["programs/gemm_lds_dma_gfx942.s", "programs/mfma_16x16x4f32.s", "programs/mfma_4x4x4f64_4blocks.s",
                 "programs/batched_hgemm_4x4.s", "programs/sgemm_vector.s", "mfma-loop@4", "igemm"]


@pytest.mark.parametrize("case", NUMERIC_CASES)
def test_the_numpy_paths_reproduce_the_pinned_results(numpy_only, case):
    eq = _equivalence()
    got, want = eq.observe(case), eq.EXPECTED[case]
    for key in ("error", "cycles", "instructions", "registers", "memory", "hazards"):
        assert got[key] == want[key], f"{case}: {key} differs without numba"


def test_the_functional_engine_without_numba_matches_the_timed_one(numpy_only):
    from gcnemu.grid import GridJob, run_functional
    from gcnemu.snippets.runner import load_snippet
    path = str(HERE.parent / "programs" / "sgemm_vector.s")
    snippet = load_snippet(path)
    functional, _ = run_functional(snippet, snippet.kernel(), None, GridJob(path, None))
    timed = snippet.simulate()
    assert functional.error is None and timed.error is None
    for a, b in zip(functional.memory.buffers, timed.memory.buffers):
        assert a.name == b.name and np.array_equal(a.data, b.data), a.name
