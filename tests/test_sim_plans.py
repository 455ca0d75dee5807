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
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.fp import FloatMode
from gcnemu.sim.plans import make_plan
from gcnemu.sim.semantics import SCALAR_OPS, SCC_BRANCHES, SEMANTICS, VECTOR_F32_OPS, VECTOR_LANE_OPS, load_all
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
    # f32 plans: v1 holds lane*4, as f32 bits tiny denormals (0 in lane 0); NaNs with payloads,
    # infinities, float constants (inline and literal), SGPR sources, a partial EXEC, and
    # v_fmac reading its destination while a load to it is in flight (the stale value is read)
    "f32 shapes": """
v_mov_b32 v10, 0x00000001
v_mov_b32 v11, 0x807fffff
v_mov_b32 v12, 0x7fa12345
v_mov_b32 v13, 0xffc54321
v_mov_b32 v14, 0x7f800000
v_mov_b32 v15, 0xff800000
v_cvt_f32_u32 v16, v1
v_mov_b32 v17, 0x3f800001
v_mov_b32 v26, 0x00000003
s_mov_b32 s4, 0x80000010
s_mov_b32 s5, 0x7f7fffff
v_add_f32 v20, v10, v11
v_add_f32 v21, v1, v1
v_sub_f32 v22, v14, v14
v_subrev_f32 v23, s4, v16
v_mul_f32 v24, v1, 0.5
v_mul_f32 v25, v14, 0
v_mul_f32 v27, 0x00400000, v16
v_mul_f32_e64 v28, s5, 4.0
v_mul_legacy_f32 v29, v14, 0
v_fma_f32 v30, v12, v16, v13
v_fma_f32 v31, v16, v13, v12
v_fma_f32 v32, v16, v17, -1.0
v_fma_f32 v33, v1, v1, v10
v_fma_f32 v34, v15, 0, v14
v_fmac_f32 v26, v16, v10
v_fmac_f32 v26, v1, 2.0
v_fmaak_f32 v35, v16, v17, 0x40490fdb
v_fmamk_f32 v36, v16, 0x40490fdb, v17
v_add_f32 v37, 1.0, v16
s_mov_b32 exec_lo, 0x0000ff0f
v_fmac_f32 v26, v16, v17
v_add_f32 v38, v16, v12
v_fma_f32 v21, v11, v17, v10
s_mov_b64 exec, -1
v_mov_b32 v39, 0x3f000000
global_load_dword v39, v1, s[0:1]
v_fmac_f32 v39, v16, v17
v_add_f32 v40, v39, v16
s_waitcnt vmcnt(0)
v_fmac_f32 v39, v16, v17
v_fmac_f32 v41, v16, v17
v_cvt_f16_f32 v42, v16
v_cvt_f16_f32 v43, v12
v_cvt_f16_f32_e32 v44, v14
v_cvt_f16_f32 v45, v10
v_cvt_f16_f32 v46, 0x477fe000
v_cvt_f16_f32 v47, v11
s_mov_b32 exec_lo, 0x0000ff0f
v_cvt_f16_f32 v48, v17
s_mov_b64 exec, -1
v_cvt_f16_f32 v49, v50
s_endpgm
""",
    # shifts and logic from the tables: VGPR, SGPR and constant sources; v_lshlrev/v_lshrrev
    # read their second source first (two uninitialised sources note in that order; two loads
    # in flight race in that order); SCC from the scalar forms feeds a branch
    "shifts and logic": """
s_mov_b32 s4, 0x80000003
v_mov_b32 v3, 35
v_lshlrev_b32 v5, v3, v1
v_lshlrev_b32 v6, 4, v1
v_lshrrev_b32 v7, s4, v1
v_lshrrev_b32 v8, v1, 0x12345678
v_lshl_add_u32 v9, v1, 3, v6
v_lshl_or_b32 v10, v1, s4, 0xf0000000
v_add_lshl_u32 v11, v1, v6, 33
v_lshlrev_b32 v12, v41, v42
v_lshl_or_b32 v13, v43, v44, v45
global_load_dword v20, v1, s[0:1]
ds_read_b32 v21, v1
v_lshlrev_b32 v22, v20, v21
v_lshrrev_b32 v23, v21, v20
s_waitcnt vmcnt(0) lgkmcnt(0)
s_lshl_b32 s5, s4, 1
s_lshr_b32 s6, s4, 35
s_and_b32 s7, s4, 0xff
s_or_b32 s8, s4, s50
s_xor_b32 s9, s4, s4
s_cbranch_scc1 .Lzero
s_andn2_b32 s10, s4, 3
s_orn2_b32 s11, s4, -1
s_nand_b32 s12, s4, s4
s_nor_b32 s13, 0, 0
s_xnor_b32 s14, s4, 7
.Lzero:
s_lshl_b32 s15, s4, s51
s_endpgm
""",
    # LDS DMA plans (global_load_lds_*): an offset, byte and short forms, a partial EXEC, a DS
    # read of the bytes before vmcnt (a race), and the fallbacks: an uninitialised SGPR pair
    # (under an empty EXEC: its address would fault), an M0 that puts lanes past the LDS, a
    # misaligned address
    "lds dma": """
s_mov_b32 m0, 0x100
s_nop 0
global_load_lds_dword v1, s[0:1]
global_load_lds_ushort v1, s[0:1]
global_load_lds_ubyte v1, s[0:1] offset:3
global_load_lds_sshort v1, s[0:1] offset:2
ds_read_b32 v5, v1 offset:256
s_mov_b64 exec, 0xffff
global_load_lds_dword v1, s[0:1] offset:128
s_mov_b64 exec, 0
global_load_lds_dword v1, s[20:21]
s_mov_b64 exec, -1
s_mov_b32 m0, 0xffc0
s_nop 0
global_load_lds_dword v1, s[0:1]
s_mov_b32 m0, 0x200
v_add_u32 v6, 2, v1
s_mov_b64 exec, 0xffff
global_load_lds_dword v6, s[0:1]
s_mov_b64 exec, -1
s_waitcnt vmcnt(0)
ds_read_b32 v7, v1 offset:256
s_endpgm
""",
    # DS read plans: each width, the extending forms, a d16 form (not planned), a partial EXEC,
    # an AGPR destination, a result read before lgkmcnt (a hazard), and the cases a plan leaves
    # to the general path: an uninitialised address, lanes past the LDS, a misaligned address
    "ds reads": """
v_mov_b32 v30, 0x81828384
v_add_u32 v31, 0x100, v1
v_lshlrev_b32 v50, 2, v1
ds_write_b32 v1, v30
ds_write_b32 v1, v1 offset:256
ds_write_b32 v1, v31 offset:512
s_waitcnt lgkmcnt(0)
ds_read_b32 v2, v1
ds_read_b64 v[4:5], v50 offset:8
ds_read_b128 v[6:9], v50 offset:16
ds_read_b96 v[10:12], v50 offset:256
ds_read_b64 v[16:17], v1 offset:8
ds_read_u8 v20, v1 offset:3
ds_read_i8 v13, v1 offset:1
ds_read_i16 v21, v1 offset:2
ds_read_u16 v14, v1 offset:256
ds_read_u16_d16_hi v22, v1
ds_read_b32 v23, v40
v_lshlrev_b32 v24, 14, v1
ds_read_b32 v25, v24
v_add_u32 v26, 2, v1
ds_read_b32 v27, v26
s_mov_b32 exec_lo, 0xff00ff
ds_read_b32 v32, v1 offset:512
s_mov_b64 exec, -1
ds_read_b32 v33, v1 offset:256
v_add_u32 v34, v33, v1
ds_read_b64 a[0:1], v50
s_waitcnt lgkmcnt(0)
v_accvgpr_read_b32 v35, a1
s_endpgm
""",
    # moves and index arithmetic of compiled kernels: special scalar registers as sources and
    # destinations (m0, vcc_lo/hi, exec_lo), s_mov_b64 of pairs and constants (EXEC too), the
    # scalar and vector multiplies, v_bfe_u32 (offset and width read before the value), AGPR
    # moves both ways under a partial EXEC, s_branch; uninitialised sources fall back and note
    "moves and multiplies": """
s_mov_b32 s4, 0x89abcdef
s_mov_b32 m0, s4
s_mov_b32 vcc_lo, 0x12345678
s_mov_b32 vcc_hi, m0
s_add_u32 s5, vcc_hi, m0
s_mov_b64 s[6:7], vcc
s_mov_b64 s[8:9], -1
s_mov_b64 s[10:11], 0x7fffffff
s_mov_b64 s[12:13], s[40:41]
s_mul_i32 s14, s4, s5
s_mul_hi_u32 s15, s4, -7
s_mul_hi_i32 s16, s4, -7
s_mul_i32 s17, s42, 3
v_mul_lo_u32 v3, v1, s4
v_mul_hi_u32 v4, v1, 0x9e3779b9
v_mov_b32 v5, 8
v_bfe_u32 v6, v4, v5, 12
v_bfe_u32 v7, v4, v50, v51
v_accvgpr_write_b32 a2, v4
v_accvgpr_write_b32 a3, 17
s_mov_b32 exec_lo, 0xff00ff00
v_accvgpr_write_b32 a2, v3
v_accvgpr_read_b32 v8, a2
v_accvgpr_mov_b32 a4, a2
s_mov_b64 exec, s[8:9]
v_accvgpr_read_b32 v9, a4
v_accvgpr_read_b32 v10, a9
s_branch .Lend
s_mov_b32 s18, 1
.Lend:
s_endpgm
""",
    # compares: v_cmp/v_cmpx of u32 and i32 (VGPR, SGPR and constant sources, vcc and an SGPR
    # pair as destination, a partial EXEC, EXEC narrowed by v_cmpx and then read by a VALU op),
    # s_cmp of u32 and i32 (special registers, constants) feeding branches; an uninitialised
    # source falls back and notes
    "compares": """
s_mov_b32 s4, 0x80
s_mov_b32 s5, 0xfffffff0
v_cmp_gt_u32 vcc, v1, s4
v_cmp_lt_i32_e64 s[6:7], s5, v1
v_cmp_eq_u32 vcc, 8, v1
s_mov_b32 exec_lo, 0xf0f0f0f0
v_cmp_ne_u32_e64 s[8:9], v1, 12
v_cmp_t_u32_e64 s[10:11], v1, v1
s_mov_b64 exec, -1
v_cmpx_le_u32 vcc, v1, 0x70
v_add_u32 v3, v1, 1
v_cmpx_ge_i32 vcc, -4, v1
s_mov_b64 exec, -1
v_cmp_gt_u32 vcc, v40, v1
s_cmp_gt_i32 s5, 3
s_cbranch_scc1 .Lskip
s_cmp_lt_u32 s5, m0
s_mov_b32 m0, 9
s_cmp_eq_u32 m0, 9
s_cbranch_scc0 .Lskip
s_mov_b32 s12, 1
.Lskip:
s_cmp_lg_u32 s41, 0
s_endpgm
""",
    # global loads and stores with an SGPR base: each width, sub-dword and d16_hi stores, an
    # offset, partial EXEC, AGPR data, a store of a value still in flight (a race); the general
    # path keeps an uninitialised data register (noted) and a misaligned address (warned)
    "global memory": """
global_load_dword v2, v1, s[0:1]
global_load_ubyte v3, v1, s[0:1] offset:1
global_load_sshort v4, v1, s[0:1] offset:2
s_mov_b64 exec, 0xff
global_load_dwordx2 v[6:7], v1, s[0:1]
global_load_dwordx4 v[8:11], v1, s[0:1] offset:16
global_store_dword v1, v2, s[0:1] offset:4
s_mov_b64 exec, -1
s_waitcnt vmcnt(0)
v_add_u32 v12, v2, 1
global_store_dword v1, v12, s[0:1]
s_mov_b32 exec_lo, 0xf0f0f0f0
global_store_short_d16_hi v1, v1, s[0:1] offset:2
global_store_byte v1, v3, s[0:1] offset:1
s_mov_b64 exec, 0xff
global_store_dwordx2 v1, v[6:7], s[0:1] offset:8
v_accvgpr_write_b32 a0, v2
v_accvgpr_write_b32 a1, v4
s_nop 1
global_store_dwordx2 v1, a[0:1], s[0:1] offset:16
v_add_u32 v13, v1, 2
global_load_dword v14, v13, s[0:1]
s_mov_b64 exec, -1
global_store_dword v1, v40, s[0:1]
s_waitcnt vmcnt(0)
s_endpgm
""",
    # DS writes: each width, the d16_hi forms, offsets, bank conflicts (a stride of 128 bytes),
    # a partial EXEC with data written only in its lanes, AGPR data, a read-back; the general
    # path keeps an uninitialised data register (noted), a lane past the LDS (noted) and a
    # misaligned address (warned)
    "ds writes": """
v_mov_b32 v2, 0x11223344
v_mov_b32 v3, 0x55667788
v_mov_b32 v4, 0x99aabbcc
v_mov_b32 v5, 0xddeeff00
v_lshlrev_b32 v6, 5, v1
ds_write_b8 v1, v2
ds_write_b16 v1, v3 offset:256
ds_write_b32 v1, v4 offset:512
ds_write_b64 v6, v[2:3] offset:1024
ds_write_b96 v6, v[2:4] offset:2048
ds_write_b128 v6, v[2:5] offset:4096
ds_write_b8_d16_hi v1, v2 offset:1
ds_write_b16_d16_hi v1, v5 offset:258
v_mov_b32 v7, 0x12345678
s_mov_b32 exec_lo, 0x0f0f0f0f
ds_write_b32 v1, v7 offset:768
v_mov_b32 v15, 7
ds_write_b32 v1, v15 offset:1536
v_accvgpr_write_b32 a1, v7
ds_write_b32 v1, a1 offset:8192
s_mov_b64 exec, -1
s_waitcnt lgkmcnt(0)
ds_read_b128 v[8:11], v6 offset:4096
ds_read_b32 v12, v1 offset:768
ds_write_b32 v1, v40 offset:12288
v_lshlrev_b32 v13, 12, v1
ds_write_b32 v13, v2
v_add_u32 v14, 2, v1
ds_write_b32 v14, v2 offset:16384
s_waitcnt lgkmcnt(0)
s_endpgm
""",
    # buffer loads through a resource built from the buffer's address: offen (with soffset and an
    # offset), no VGPR address, idxen with a stride, idxen and offen together, lanes past
    # num_records (read as 0), sub-dword and wide forms, a partial EXEC; the general path keeps
    # an unwritten offset VGPR (noted) and a misaligned address (warned)
    "buffer loads": """
s_mov_b32 s4, s0
s_and_b32 s5, s1, 0xffff
s_mov_b32 s6, 0xf0
s_mov_b32 s7, 0x27000
s_mov_b32 s8, 4
buffer_load_dword v2, v1, s[4:7], 0 offen
buffer_load_dword v3, v1, s[4:7], s8 offen offset:8
buffer_load_dwordx4 v[4:7], v1, s[4:7], 0 offen offset:16
buffer_load_ubyte v8, v1, s[4:7], 0 offen offset:1
buffer_load_dword v9, off, s[4:7], 0 offset:12
s_or_b32 s5, s5, 0x40000
v_lshrrev_b32 v10, 2, v1
buffer_load_dword v11, v10, s[4:7], 0 idxen
v_mov_b32 v12, v10
v_mov_b32 v13, 0
buffer_load_dword v14, v[12:13], s[4:7], 0 idxen offen
s_and_b32 s5, s5, 0xffff
s_mov_b32 exec_lo, 0xff00ff
buffer_load_dword v15, v1, s[4:7], 0 offen
s_mov_b64 exec, -1
buffer_load_dword v16, v40, s[4:7], 0 offen
v_add_u32 v17, 2, v1
buffer_load_dword v18, v17, s[4:7], 0 offen
s_waitcnt vmcnt(0)
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


@pytest.mark.parametrize("how", ["launch flushes denormals", "s_setreg flushes denormals"])
def test_f32_plans_under_a_flushing_mode(how: str) -> None:
    """MODE.FP_DENORM = 0 (the kernel descriptor's, or set by s_setreg mid-kernel: the wave's
    Ctx then knows the mode, and its float instructions take the general path)."""
    src = PROGRAMS["f32 shapes"]
    if how.startswith("s_setreg"):
        src = src.replace("v_add_f32 v20, v10, v11", "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0\n"
                          "v_add_f32 v20, v10, v11")
    runs = []
    for planned in (True, False):
        sim = _build(src, 1)
        if how.startswith("launch"):
            sim.engine.float_mode = FloatMode(denorm_f32=False)
        if not planned:
            sim.engine._plans = [None] * len(sim.engine._plans)
        sim.run()
        runs.append(sim)
    assert _facts(runs[0]) == _facts(runs[1])
    assert runs[0].waves[0].vgpr[20][0] == 0  # the two denormals flushed: +0 + -0 = +0


def test_f32_ops_are_planned() -> None:
    """Every f32 instruction of the program (no modifiers) compiles to a plan."""
    sim = _build(PROGRAMS["f32 shapes"], 1)
    sim.run()
    e = sim.engine
    f32 = [(ins.mnemonic, plan) for ins, plan in zip(e._instructions, e._plans)
           if ins.mnemonic.endswith(("f32", "f32_e64")) and not ins.mnemonic.startswith("v_cvt")]
    assert len(f32) > 20 and all(callable(p) for _m, p in f32), f32


def test_every_table_entry_is_its_registered_semantic() -> None:
    """A table entry names an instruction whose semantic function the plan stands for."""
    load_all()
    for name in [*VECTOR_LANE_OPS, *VECTOR_F32_OPS, *SCALAR_OPS, *SCC_BRANCHES]:
        assert name in SEMANTICS, name


def test_unusual_shapes_take_the_general_path() -> None:
    load_all()
    prog = gcnemu.parse("v_add_u32 v2, v2, v1 clamp\nv_mov_b32 v3, 1.0\nv_add_u32_sdwa v2, v2, v1\n"
                        "s_mov_b32 vcc_lo, scc\nv_add_u32 v2, -v1, v2\n"
                        "v_fmac_f32 v2, v1, v3 clamp\nv_add_f32 v2, -v1, v3\nv_mul_f32 v2, |v1|, v3\n"
                        "v_add_f32_e64 v2, v1, v3 mul:2\nv_fma_f32 v2, v1, v3, a4\nv_add_f32_dpp v2, v1, v3 "
                        "quad_perm:[1,0,3,2]\nv_add_f32 v2, v1, s[4:5]\n")
    for ins in prog.instructions:
        from gcnemu.isa.opcodes import base_mnemonic
        assert make_plan(ins, SEMANTICS.get(base_mnemonic(ins.mnemonic)[0]), 256, {}) is None, ins.mnemonic


def test_ds_reads_are_planned_where_nothing_is_left_to_note() -> None:
    """The DS reads of "ds reads" with an initialised, in-range, aligned address run their
    plan; the d16 form has none; an uninitialised address, lanes past the LDS and misaligned
    lanes leave the issue to the general path, whose notes and warnings the run shows."""
    sim = _build(PROGRAMS["ds reads"], 1)
    e = sim.engine
    ran: list[str] = []
    compile_plan = e._plan

    def counting(pc: int, sem):
        plan = compile_plan(pc, sem)
        if plan is None:
            return None
        mnemonic = e._instructions[pc].mnemonic

        def counted(st):
            out = plan(st)
            if out is not None:
                ran.append(mnemonic)
            return out
        return counted
    e._plan = counting
    sim.run()
    assert {"ds_read_b32", "ds_read_b64", "ds_read_b96", "ds_read_b128", "ds_read_u8", "ds_read_i8",
            "ds_read_i16", "ds_read_u16"} <= set(ran)
    assert "ds_read_u16_d16_hi" not in ran
    assert ran.count("ds_read_b32") == 3  # v2, v32 (half EXEC), v33; not v23, v25, v27
    assert ran.count("ds_read_b64") == 2  # v[4:5] and a[0:1]; v[16:17]'s odd lanes are misaligned
    notes = " ".join(str(n) for _, n in e.notes)
    assert "v40" in notes and "0x10000 is outside" in notes
    warnings = " ".join(str(d.message) for d in sim.diagnostics)
    assert "0x2, which is not 4-byte aligned" in warnings and "not 8-byte aligned" in warnings
    v_add = next(i for i, ins in enumerate(e._instructions) if ins.mnemonic == "v_add_u32"
                 and ins.operands[1].text() == "v33")
    assert any(z.consumer == v_add and z.rule == "ds-result-before-lgkmcnt" for z in e.hazards)


def test_shifts_and_logic_are_planned() -> None:
    """The table entries of "shifts and logic" compile to plans (their shapes are the plain ones)."""
    sim = _build(PROGRAMS["shifts and logic"], 1)
    sim.run()
    e = sim.engine
    planned = {e._instructions[i].mnemonic for i, p in enumerate(e._plans) if callable(p)}
    assert {"v_lshlrev_b32", "v_lshrrev_b32", "v_lshl_add_u32", "v_lshl_or_b32", "v_add_lshl_u32", "s_lshl_b32",
            "s_lshr_b32", "s_and_b32", "s_or_b32", "s_xor_b32", "s_andn2_b32", "s_nor_b32"} <= planned
    notes = [str(n) for _, n in e.notes]
    first = next(i for i, n in enumerate(notes) if "v42" in n)
    assert "v41" in notes[first + 1]  # v_lshlrev_b32 v12, v41, v42 reads v42 first


def test_moves_and_multiplies_are_planned() -> None:
    """The instructions of "moves and multiplies" compile to plans, and the issues whose sources
    were never written (in some lane) take the general path, which notes them (the fallbacks
    counted)."""
    sim = _build(PROGRAMS["moves and multiplies"], 1)
    sim.run()
    e = sim.engine
    planned = {e._instructions[i].mnemonic for i, p in enumerate(e._plans) if callable(p)}
    assert {"s_mov_b32", "s_mov_b64", "s_mul_i32", "s_mul_hi_u32", "s_mul_hi_i32", "v_mul_lo_u32", "v_mul_hi_u32",
            "v_bfe_u32", "v_accvgpr_write_b32", "v_accvgpr_read_b32", "v_accvgpr_mov_b32", "s_branch"} <= planned
    notes = " ".join(str(n) for _, n in e.notes)
    for reg in ("s40", "s42", "v50", "v51", "a9", "a4 before anything wrote it (lanes 0-7,16-23)"):
        assert reg in notes, reg
    stats = e.plan_stats()
    assert stats["fallbacks_by_mnemonic"] == {"s_mov_b64": 1, "s_mul_i32": 1, "v_bfe_u32": 1,
                                              "v_accvgpr_read_b32": 2}  # a9, and a4's lanes EXEC left
    assert stats["planned"] + stats["fallbacks"] + stats["engine_ops"] == e.executed
    assert sim.waves[0].sgpr[18] != 1  # s_branch jumped over it


def test_compares_are_planned() -> None:
    """The 32-bit integer compares of "compares" compile to plans; EXEC that v_cmpx narrowed
    holds the compare's lanes; uninitialised sources take the general path, which notes them."""
    sim = _build(PROGRAMS["compares"], 1)
    sim.run()
    e = sim.engine
    planned = {e._instructions[i].mnemonic for i, p in enumerate(e._plans) if callable(p)}
    assert {"v_cmp_gt_u32", "v_cmp_lt_i32_e64", "v_cmpx_le_u32", "v_cmpx_ge_i32", "s_cmp_gt_i32",
            "s_cmp_lt_u32", "s_cmp_eq_u32"} <= planned
    st = sim.waves[0]
    assert list(np.nonzero(st.vgpr_init[3])[0]) == [k for k in range(64) if 4 * k <= 0x70]  # v_cmpx's lanes
    assert e.plan_stats()["fallbacks_by_mnemonic"] == {"v_cmp_gt_u32": 1, "s_cmp_lt_u32": 1, "s_cmp_lg_u32": 1}
    notes = " ".join(str(n) for _, n in e.notes)
    assert "v40" in notes and "m0" in notes and "s41" in notes


def test_global_loads_and_stores_are_planned() -> None:
    """The global loads and stores of "global memory" with written sources and aligned addresses
    run their plan; the uninitialised store data and the misaligned load take the general path,
    which notes and warns about them."""
    sim = _build(PROGRAMS["global memory"], 1)
    sim.run()
    e = sim.engine
    assert sim.error is None
    assert e.plan_stats()["fallbacks_by_mnemonic"] == {"global_load_dword": 1, "global_store_dword": 1}
    assert "v40" in " ".join(str(n) for _, n in e.notes)
    assert any("not 4-byte aligned" in d.message for d in sim.diagnostics)


def test_ds_writes_are_planned_where_nothing_is_left_to_note() -> None:
    """The DS writes of "ds writes" with written sources, lanes inside the LDS and aligned
    addresses run their plan (a partial EXEC's data need only be written in its lanes); the
    three others take the general path, which notes or warns about them."""
    sim = _build(PROGRAMS["ds writes"], 1)
    sim.run()
    e = sim.engine
    assert sim.error is None
    assert e.plan_stats()["fallbacks_by_mnemonic"] == {"ds_write_b32": 3}
    notes = " ".join(str(n) for _, n in e.notes)
    assert "v40" in notes and "outside the" in notes
    assert any("aligned" in d.message for d in sim.diagnostics)


def test_buffer_loads_are_planned_where_nothing_is_left_to_note() -> None:
    """The buffer loads of "buffer loads" run their plan but for the unwritten offset VGPR and
    the misaligned address, which the general path notes and warns about; lanes past
    num_records read 0."""
    sim = _build(PROGRAMS["buffer loads"], 1)
    sim.run()
    e = sim.engine
    assert sim.error is None
    assert e.plan_stats()["fallbacks_by_mnemonic"] == {"buffer_load_dword": 2}
    assert "v40" in " ".join(str(n) for _, n in e.notes)
    assert any("aligned" in d.message for d in sim.diagnostics)
    w = sim.waves[0]
    assert list(w.vgpr[2][:60]) == list(range(60))  # offen: lane k reads dword k ...
    assert w.vgpr[2][63] == 0 and w.vgpr[7][63] == 0  # ... and 0 past num_records (0xf0 bytes)


def test_lds_dma_is_planned_where_nothing_is_left_to_note() -> None:
    """The LDS DMAs of "lds dma" with initialised sources, destinations inside the LDS and
    aligned addresses run their plan; the others leave the issue to the general path."""
    sim = _build(PROGRAMS["lds dma"], 1)
    e = sim.engine
    ran: list[int] = []
    compile_plan = e._plan

    def counting(pc: int, sem):
        plan = compile_plan(pc, sem)
        if plan is None:
            return None

        def counted(st):
            out = plan(st)
            if out is not None:
                ran.append(pc)
            return out
        return counted
    e._plan = counting
    sim.run()
    dma = [i for i, ins in enumerate(e._instructions) if ins.mnemonic.startswith("global_load_lds")]
    assert [i for i in ran if i in dma] == dma[:5]  # not s[20:21], not M0 0xffc0 (lanes past the LDS), not v6 (misaligned)
    assert any(z.rule == "lds-dma-read-before-vmcnt" for z in e.hazards)


def test_a_second_engine_of_the_same_kernel_reuses_its_plans() -> None:
    """Two workgroups of one kernel (a grid run makes an engine per workgroup): the second
    runs the plans the first compiled, with the same results as its own would give."""
    kernel = resolve(gcnemu.parse(PROGRAMS["planned shapes"].strip() + "\n"), "gfx90a", validate_first=False)
    setup = Setup(workgroup_size=(64, 1, 1), vgprs={"v1": np.arange(64) * 4, "v2": 1})
    first, second = Simulation(kernel, setup), Simulation(kernel, setup)
    first.run()
    second.run()
    shared = [p for p, q in zip(first.engine._plans, second.engine._plans) if callable(p)]
    assert shared and all(p is q for p, q in zip(first.engine._plans, second.engine._plans) if callable(p))
    assert _facts(first) == _facts(second)
    other = resolve(gcnemu.parse(PROGRAMS["planned shapes"].strip() + "\n"), "gfx90a", validate_first=False)
    third = Simulation(other, setup)
    third.run()
    assert not any(p is q for p, q in zip(first.engine._plans, third.engine._plans) if callable(p))


def test_shared_plans_follow_the_engines_float_mode() -> None:
    """Engines of one kernel share plans only under the same MODE: a second workgroup that
    flushes denormals gets the results its general path gives, not the first one's plans."""
    kernel = resolve(gcnemu.parse(PROGRAMS["f32 shapes"].strip() + "\n"), "gfx90a", validate_first=False)
    setup = Setup(workgroup_size=(64, 1, 1), vgprs={"v1": np.arange(64) * 4, "v2": 1})
    setup.buffers.append(BufferSpec("A", np.arange(64, dtype=np.uint32), sgpr="s[0:1]"))
    Simulation(kernel, setup).run()
    runs = []
    for planned in (True, False):
        sim = Simulation(kernel, setup)
        sim.engine.float_mode = FloatMode(denorm_f32=False)
        if not planned:
            sim.engine._plans = [None] * len(sim.engine._plans)
        sim.run()
        runs.append(sim)
    assert _facts(runs[0]) == _facts(runs[1])
    assert runs[0].waves[0].vgpr[20][0] == 0  # the two denormals flushed: +0 + -0 = +0
