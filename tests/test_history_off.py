"""`gcnemu run` keeps no per-issue history (issue 16/18: memory grew ~280 bytes per executed
instruction without bound). Turning it off must change nothing a run reports: cycles, registers,
memory, hazards and stall totals are the same as with the history the debugger and timeline use."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gcnemu.sim.engine import RECENT_HISTORY
from gcnemu.snippets.runner import load_snippet

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["gemm_lds_dma_gfx942.s", "sgemm_vector.s", "hazard_gallery/15_valu_sgpr_vmem_read_wrong.s"])
def test_a_run_without_history_reports_the_same(name):
    runs = []
    for keep in (True, False):
        snippet = load_snippet(str(ROOT / "programs" / name))
        sim = snippet.simulate(run=False)
        sim.engine.keep_history = keep
        sim.run()
        runs.append(sim)
    with_h, without = runs
    assert len(without.engine.records) <= 2 * RECENT_HISTORY and without.engine.pipe_log == []
    assert len(with_h.engine.records) >= 8
    assert with_h.cycles == without.cycles
    assert [(h.rule, h.consumer) for h in with_h.hazards] == [(h.rule, h.consumer) for h in without.hazards]
    assert name.endswith("_fixed.s") or not name.endswith("_wrong.s") or with_h.hazards  # the monitor still sees it
    for a, b in zip(with_h.engine.waves, without.engine.waves):
        assert np.array_equal(a.state.vgpr, b.state.vgpr) and a.stall_totals == b.stall_totals
    for a, b in zip(with_h.memory.buffers, without.memory.buffers):
        assert np.array_equal(a.data, b.data)


def test_a_long_run_without_history_keeps_only_the_newest_records(tmp_path):
    f = tmp_path / "loop.s"
    f.write_text("loop:\n\ts_add_u32 s0, s0, 1\n\ts_branch loop\n")
    snippet = load_snippet(str(f))
    sim = snippet.simulate(run=False, max_instructions=3 * RECENT_HISTORY)
    sim.engine.keep_history = False
    sim.run()
    assert RECENT_HISTORY <= len(sim.engine.records) <= 2 * RECENT_HISTORY
