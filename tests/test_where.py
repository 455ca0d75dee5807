"""Where time went: the per-instruction-class breakdown of `timeline` and `run` (views.where)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import gcnemu
from gcnemu.views.where import COLUMNS, column_of, render, time_by_class

ROOT = Path(__file__).resolve().parent.parent

MFMA_EXP = """
    .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
    v_mov_b32 v40, 1.0
    v_mov_b32 v41, 1.0
    v_mfma_f32_16x16x16_bf16 a[0:3], v[40:41], v[40:41], 0
    v_exp_f32 v2, v41
    v_mfma_f32_16x16x16_bf16 a[4:7], v[40:41], v[40:41], 0
    v_add_f32 v3, v2, v2
    s_endpgm
"""


def _run(src: str, target: str = "gfx942"):
    kernel = gcnemu.resolve(gcnemu.parse(src), target)
    sim = gcnemu.Simulation(kernel, gcnemu.Setup(workgroup_size=(64, 1, 1)), monitor=False)
    sim.run()
    return sim


def test_reasons_map_to_the_columns():
    assert column_of("dependency") == "dependency"
    assert column_of("waitcnt vmcnt") == column_of("counter full") == "counter wait"
    assert column_of("co-issue conflict") == "co-issue conflict"
    assert column_of("pipe busy") == "pipe busy"
    assert column_of("barrier") == column_of("nop") == "other"


def test_mfma_behind_a_transcendental_is_a_co_issue_conflict():
    sim = _run(MFMA_EXP)
    data = time_by_class(sim.engine)
    # MFMA at t, v_exp_f32 at t+4 (holds the VALU to t+20); the second MFMA tries at t+8 and
    # issues at t+20: 8 cycles behind the first MFMA's busy time, 4 behind the transcendental
    assert data["mfma"]["instructions"] == 2
    assert (data["mfma"]["pipe busy"], data["mfma"]["co-issue conflict"]) == (8, 4)
    assert data["mfma"]["co-issue conflict"] > 0
    # the v_add reads the exp's result: interlocked, and the exp also holds the VALU
    assert data["valu"]["instructions"] == 3
    # every stall cycle of every wave is in exactly one column
    per_wave = sum(sum(w.stall_totals.values()) for w in sim.engine.waves)
    assert sum(r[c] for r in data.values() for c in COLUMNS if c != "issue") == per_wave
    text = render(sim.engine)
    assert text.startswith("Where time went") and "co-issue conflict" in text and "\n  all " in text


def test_cache_levels_are_counted_per_class():
    """The memory model names the level of each load in `memtiming.last_level`; the breakdown
    counts them: the first load of the lines comes from HBM, the same load again hits L1."""
    import numpy as np
    from gcnemu.setup import BufferSpec
    setup = gcnemu.Setup(workgroup_size=(64, 1, 1))
    setup.buffers.append(BufferSpec("A", np.zeros(64, dtype=np.uint32), sgpr="s[4:5]"))
    kernel = gcnemu.resolve(gcnemu.parse("""
    .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
    v_lshlrev_b32 v1, 2, v0
    global_load_dword v2, v1, s[4:5]
    s_waitcnt vmcnt(0)
    global_load_dword v3, v1, s[4:5]
    s_waitcnt vmcnt(0)
    s_endpgm
    """), "gfx90a")
    sim = gcnemu.Simulation(kernel, setup, monitor=False)
    sim.run()
    assert sim.error is None, sim.error
    assert time_by_class(sim.engine)["vmem"]["cache"] == {"HBM": 1, "L1": 1}
    assert "HBM 1" in render(sim.engine) and "L1 1" in render(sim.engine)


def test_timeline_and_run_show_it(tmp_path):
    f = tmp_path / "k.s"
    f.write_text(MFMA_EXP)
    env = {"PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "gcnemu", "timeline", str(f), "--format", "json"],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert json.loads(out)["time_by_class"]["mfma"]["co-issue conflict"] > 0
    out = subprocess.run([sys.executable, "-m", "gcnemu", "run", str(f)], capture_output=True, text=True, env=env,
                         check=True).stdout
    assert "Where time went" in out and "co-issue conflict" in out
    out = subprocess.run([sys.executable, "-m", "gcnemu", "run", str(f), "--format", "json"], capture_output=True,
                         text=True, env=env, check=True).stdout
    assert set(json.loads(out)["time_by_class"]["trans"]) >= set(COLUMNS) | {"instructions", "cache", "total"}
