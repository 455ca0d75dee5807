"""The functional engine (`gcnemu run --functional`) computes what the timed engine computes:
bit-identical registers and global memory on every program in programs/, from the same
semantic functions, with whole grids as one structure of arrays."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gcnemu.cli import main
from gcnemu.grid import GridJob, run_functional, run_grid
from gcnemu.snippets.runner import load_snippet

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
FILES = sorted(PROGRAMS.glob("*.s"))
# the hazard gallery's race-free halves (the *_wrong.s halves pin stale values a race reads)
FIXED = sorted((PROGRAMS / "hazard_gallery").glob("*_fixed.s"))


def _both(path: Path):
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    timed = snippet.simulate(kernel)
    functional, frun = run_functional(snippet, kernel, snippet.header.grid, GridJob(str(path), None))
    return snippet, timed, functional, frun


@pytest.mark.parametrize("path", FILES + FIXED, ids=[p.stem for p in FILES + FIXED])
def test_the_functional_engine_matches_the_timed_engine_bit_for_bit(path):
    snippet, timed, functional, frun = _both(path)
    if snippet.header.grid:
        timed, _ = run_grid(snippet, snippet.kernel(), snippet.header.grid, GridJob(str(path), None), jobs=1)
    assert timed.error is None and not getattr(timed.engine, "halt_reason", None)
    for a, b in zip(timed.memory.buffers, functional.memory.buffers):
        assert a.name == b.name and np.array_equal(a.data, b.data), f"buffer {a.name} differs"
    for i in range(len(timed.waves)):
        t, f = timed.waves[i], functional.waves[i]
        for what in ("vgpr", "agpr", "sgpr"):
            ti, fi = getattr(t, what + "_init"), getattr(f, what + "_init")
            assert np.array_equal(ti, fi), f"wave {i}: {what} written in one engine and not the other"
            assert np.array_equal(getattr(t, what)[ti], getattr(f, what)[fi]), f"wave {i}: {what} values differ"
        assert t.scc == f.scc
    assert frun.instructions > 0


def test_a_grid_runs_every_wave_as_one_array_and_batches_the_table_ops():
    path = PROGRAMS / "sgemm_vector.s"
    snippet = load_snippet(str(path))
    sim, frun = run_functional(snippet, snippet.kernel(), (8, 1, 1), GridJob(str(path), None))
    assert frun.waves == 8 * snippet.setup.num_waves
    assert frun.batched > frun.instructions // 2  # most wave-instructions ran as one numpy call per group


def test_the_cli_runs_functionally_and_leaves_out_timing_expectations(capsys):
    assert main(["run", str(PROGRAMS / "vector_add.s"), "--functional"]) == 0
    out = capsys.readouterr().out
    assert "functional:" in out and "no timing" in out
    assert "2 expectations of timing or hazards not checked" in out and "check: passed (3 expectations)" in out


def test_gcnemu_test_runs_every_program_functionally(capsys):
    """(The hazard gallery's *_wrong.s files are left out on purpose: their expectations pin the
    stale values a race reads, which only the timed engine reproduces.)"""
    assert main(["test", *map(str, FILES), "--functional"]) == 0
    out = capsys.readouterr().out
    assert "functional]" in out and f"{len(FILES)} passed, 0 failed" in out
