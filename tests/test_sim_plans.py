"""Issue plans (gcnemu/sim/plans.py) change speed, never results.

Each program runs twice, with the engine's plans and with every instruction on the
general path (Ctx + semantic function); everything the run produces must be the same:
issue records, hazards (values, lanes, spans), notes, pipe use, registers with their
init masks, memory and LDS.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.plans import make_plan
from gcnemu.sim.semantics import SCALAR_OPS, SCC_BRANCHES, SEMANTICS, VECTOR_LANE_OPS, load_all
from gcnemu.simulation import Simulation

PROGRAMS = {
    "planned shapes": """
s_mov_b32 s4, 0xfffffffd
v_mov_b32 v3, s4
v_mov_b32 v4, 7
v_mov_b32 v5, 0x12345678
.Lloop:
v_add_u32 v2, v2, v1
v_sub_u32 v6, v2, 3
v_subrev_u32 v7, s4, v2
v_and_b32 v8, v2, 0xff
v_or_b32 v9, v8, s4
v_xor_b32 v10, v9, v1
v_add3_u32 v11, v10, v9, 5
s_addc_u32 s6, s4, 2
s_sub_u32 s7, s6, s4
s_add_u32 s4, s4, 1
s_cbranch_scc0 .Lloop
s_cbranch_scc1 .Lout
s_nop 0
.Lout:
s_endpgm
""",
    "uninitialised reads fall back": """
v_add_u32 v2, v20, v1
v_mov_b32 v3, s40
s_add_u32 s5, s41, 1
v_mov_b32 v21, v20
s_endpgm
""",
    "exec masked": """
s_mov_b32 exec_lo, 0x0000ffff
v_add_u32 v2, v2, v1
v_mov_b32 v3, 5
s_mov_b64 exec, -1
v_add_u32 v4, v3, v2
s_endpgm
""",
    "in-flight reads": """
global_load_dword v2, v1, s[0:1]
v_add_u32 v3, v2, v1
v_mov_b32 v2, 1
s_waitcnt vmcnt(0)
v_mfma_f32_4x4x1f32 a[0:3], v1, v1, 0
v_mov_b32 v5, a0
s_nop 7
s_endpgm
""",
}


def _build(src: str, waves: int) -> Simulation:
    kernel = resolve(gcnemu.parse(src.strip() + "\n"), "gfx90a", validate_first=False)
    setup = Setup(workgroup_size=(64 * waves, 1, 1), vgprs={"v1": np.arange(64) * 4, "v2": 1})
    setup.buffers.append(BufferSpec("A", np.arange(64, dtype=np.uint32), sgpr="s[0:1]"))
    return Simulation(kernel, setup)


def _facts(sim: Simulation) -> list:
    e = sim.engine
    out = [sim.cycles, e.executed, repr(e.notes), sorted(e.pipe_use.items(), key=str), e.pipe_log,
           repr(sim.error and sim.error.message)]
    out += [(r.wave, r.index, r.ready, r.issue, r.complete, sorted(r.stalls.items()), r.slot) for r in e.records]
    out += [(z.rule, z.wave, z.cycle, z.consumer, z.producer, z.registers, z.message, z.lands, z.lanes,
             repr(z.consumer_span), repr(z.producer_span), z.source,
             sorted((k, np.asarray(v).tobytes()) for k, v in z.values.items())) for z in e.hazards]
    for w in sim.waves:
        out += [getattr(w, a).tobytes() for a in ("sgpr", "vgpr", "agpr", "sgpr_init", "vgpr_init", "agpr_init")]
        out.append((w.scc, w.pc, w.done))
    out += [b.data.tobytes() for b in sim.memory.buffers] + [sim.lds.data.tobytes()]
    return out


@pytest.mark.parametrize("waves", [1, 4])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_plans_change_nothing(name: str, waves: int) -> None:
    src = PROGRAMS[name]
    if name == "planned shapes":
        src = src.replace("0xfffffffd", hex((1 << 32) - 3))
    planned = _build(src, waves)
    general = _build(src, waves)
    general.engine._plans = [None] * len(general.engine._plans)
    planned.run()
    general.run()
    assert _facts(planned) == _facts(general)
    assert any(p is not None for p in planned.engine._plans if callable(p))


def test_every_table_entry_is_its_registered_semantic() -> None:
    """A table entry names an instruction whose semantic function the plan stands for."""
    load_all()
    for name in [*VECTOR_LANE_OPS, *SCALAR_OPS, *SCC_BRANCHES]:
        assert name in SEMANTICS, name


def test_unusual_shapes_take_the_general_path() -> None:
    load_all()
    prog = gcnemu.parse("v_add_u32 v2, v2, v1 clamp\nv_mov_b32 v3, 1.0\nv_add_u32_sdwa v2, v2, v1\n"
                        "s_mov_b32 vcc_lo, s1\nv_add_u32 v2, -v1, v2\n")
    for ins in prog.instructions:
        from gcnemu.isa.opcodes import base_mnemonic
        assert make_plan(ins, SEMANTICS.get(base_mnemonic(ins.mnemonic)[0]), 256, {}) is None, ins.mnemonic
