"""A single wave's runs of ALU instructions (Engine._run_alu) and the monitor's quiet issues
give what the per-instruction paths give, also when a run is cut short.

Why: `Engine.run` issues a wave's planned SALU/VALU instructions in one loop and keeps their
writes in flight to itself; `Simulation.step` (the debugger) goes cycle by cycle through the
per-instruction path. A user must see the same cycles, registers, records, writes in flight
and hazards from both, wherever a limit stops the run.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.engine import wave_summary
from gcnemu.simulation import Simulation

# ALU runs broken by a load and its wait and by instructions without a plan (v_exp_f32,
# s_bfe_u32) whose results the run then waits for, two writes of v2 in flight at once, SGPRs
# and SCC read by the next instruction (dependency stalls inside the run once the SALU latency
# exceeds the issue interval, see LATENCIES)
LOOP = """
s_mov_b32 s4, 0xfffffffc
.Lloop:
v_exp_f32 v6, v2
v_add_u32 v2, v2, v1
v_mov_b32 v2, v3
v_add_u32 v8, v6, v2
s_bfe_u32 s7, s4, 0x10000
s_mov_b32 s8, s7
v_mov_b32 v9, s8
s_mov_b32 s9, s8
global_load_dword v7, v1, s[0:1]
v_add_u32 v3, v3, v1
s_mov_b32 s5, s4
s_add_u32 s6, s5, 3
s_waitcnt vmcnt(0)
v_add_u32 v4, v7, v3
s_add_u32 s4, s4, 1
s_cbranch_scc0 .Lloop
s_endpgm
"""


LATENCIES = [None, {"salu": 7, "valu": 6}]


def _sim(max_instructions: int = 100_000, latencies: dict | None = None) -> Simulation:
    kernel = resolve(gcnemu.parse(LOOP), "gfx90a", validate_first=False)
    setup = Setup(workgroup_size=(64, 1, 1), vgprs={"v1": np.arange(64) * 4, "v2": 1, "v3": 0})
    setup.buffers.append(BufferSpec("A", np.arange(64, dtype=np.uint32), sgpr="s[0:1]"))
    return Simulation(kernel, setup, latencies=latencies, max_instructions=max_instructions)


def _seen(sim: Simulation) -> dict:
    eng = sim.engine
    w = sim.waves[0]
    return {
        "cycles": sim.cycles, "instructions": sim.instructions_executed,
        "registers": (w.sgpr.tobytes(), w.vgpr.tobytes(), w.sgpr_init.tobytes(), w.vgpr_init.tobytes(),
                      int(w.scc), int(w.pc)),
        "records": [(r.index, r.ready, r.issue, r.complete, sorted(r.stalls.items()), r.slot) for r in eng.records],
        "in flight": [(reg, p.land, p.index, p.seq, p.pipe) for reg, p in eng.waves[0].pending.items()],
        "events": sorted((e[0], e[1], e[3]) for e in eng.events),
        "pipes": (dict(eng.pipe_free), dict(eng.pipe_use), list(eng.pipe_log)),
        "summary": wave_summary(eng, 0),
        "hazards": [(h.rule, h.cycle, h.consumer, h.producer) for h in eng.hazards],
    }


@pytest.mark.parametrize("latencies", LATENCIES)
@pytest.mark.parametrize("limit", [3, 6, 9, 14, 23, 100_000])
def test_a_run_and_a_stepped_run_agree_wherever_the_limit_stops_them(limit: int, latencies):
    ran = _sim(limit, latencies)
    ran.run()
    stepped = _sim(limit, latencies)
    while stepped.step():
        pass
    assert _seen(ran) == _seen(stepped)


@pytest.mark.parametrize("latencies", LATENCIES)
def test_the_loop_goes_through_alu_runs(latencies):
    sim = _sim(latencies=latencies)
    sim.run()
    assert sim.error is None
    runs, issued, _ = sim.engine.alu_runs
    assert runs > 0 and issued > runs  # runs of several instructions, not one at a time
    assert sim.engine.plan_stats()["alu_runs"]["issues"] == issued


@pytest.mark.parametrize("program", ["programs/hazard_gallery/15_valu_sgpr_vmem_read_wrong.s",
                                     "programs/hazard_gallery/01_mfma_result_valu_read_wrong.s",
                                     "programs/loop_sum.s"])
def test_the_monitor_finds_the_same_hazards_with_quiet_issues_noted(program: str):
    from gcnemu.snippets.runner import load_snippet

    def hazards(note_quiet: bool) -> list:
        sim = load_snippet(program).simulate(run=False)
        mon = sim.engine.monitor
        if not note_quiet:  # every issue checked one by one
            mon._quiet = [False] * len(mon._quiet)
        sim.run()
        return [(h.rule, h.wave, h.cycle, h.consumer, h.producer, h.message) for h in sim.engine.hazards]

    assert hazards(True) == hazards(False)
