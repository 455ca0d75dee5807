"""Operand rules shared by all VALU instructions: constants per operand type, scalar sources, SDWA/op_sel
halves, _e32/_e64 equivalence, uninitialised reads and unmodelled instructions."""
from __future__ import annotations

import numpy as np
import pytest

from semhelpers import RNG, rand_f32, run

F16, F32, F64, U32 = np.float16, np.float32, np.float64, np.uint32


@pytest.mark.parametrize("op", ["v_add_f32", "v_mul_f32", "v_max_f32", "v_sub_u32", "v_lshlrev_b32", "v_cndmask_b32"])
def test_e32_and_e64_forms_agree(op):
    a, b = rand_f32(), rand_f32()
    extra = ", vcc" if op == "v_cndmask_b32" else ""
    extra64 = ", vcc" if op == "v_cndmask_b32" else ""
    r = run(f"{op}_e32 v2, v0, v1{extra}\n{op}_e64 v3, v0, v1{extra64}\n{op} v4, v0, v1{extra}",
            v={0: a, 1: b}, vcc=int(RNG.integers(0, 2**63)))
    assert (r.v(2) == r.v(3)).all() and (r.v(2) == r.v(4)).all()


def test_f16_operand_constants():
    x = (RNG.standard_normal(64) * 4).astype(F16)
    xv = x.view(np.uint16).astype(U32)
    r = run("""v_add_f16 v1, 1.0, v0
v_add_f16 v2, 1.5, v0
v_add_f16 v3, 1, v0
v_mul_f16 v4, 0x4000, v0
v_add_f16 v5, s4, v0""", v={0: xv}, s={4: 0xFFFF3C00})
    one = F16(1.0)
    assert (r.f16(1) == (x + one)).all()
    assert (r.f16(2) == (x.astype(F32) + F32(1.5)).astype(F16)).all(), "1.5 is an f16 literal 0x3e00"
    assert (r.f16(3) == (x.astype(F32) + np.uint16(1).view(F16).astype(F32)).astype(F16)).all(), \
        "integer 1 is the bit pattern 0x0001 (the smallest f16 denormal)"
    assert (r.f16(4) == (x.astype(F32) * 2).astype(F16)).all()
    assert (r.f16(5) == (x + one)).all(), "an SGPR source of a 16-bit op uses its low half"


def test_f64_operand_constants():
    x = RNG.standard_normal(64)
    r = run("""v_add_f64 v[2:3], v[0:1], 1
v_add_f64 v[4:5], v[0:1], -2
v_add_f64 v[6:7], v[0:1], 4.0
v_add_f64 v[8:9], v[0:1], s[10:11]""", v={"v[0:1]": x}, s={"s[10:11]": np.float64(0.25).view(np.uint64)})
    assert (r.f64(2) == x + np.uint64(1).view(F64)).all(), "integer 1 is the 64-bit pattern 1"
    assert np.isnan(r.f64(4)).all(), "integer -2 sign-extends to 0xffff...fe: a NaN"
    assert (r.f64(6) == x + 4.0).all()
    assert (r.f64(8) == x + 0.25).all()


def test_special_scalar_sources():
    r = run("""s_cmp_eq_u32 0, 0
v_mov_b32 v0, src_scc
v_mov_b32 v1, src_vccz
v_mov_b32 v2, src_execz
v_add_u32 v3, m0, v4
v_add_u32 v5, vcc_lo, v4
v_mov_b32 v6, exec_hi""", s={"m0": 5}, vcc=0, exec=(1 << 64) - 1 - 1, v={4: 10})
    act = np.arange(64) != 0
    assert (r.v(0)[act] == 1).all() and (r.v(1)[act] == 1).all() and (r.v(2)[act] == 0).all()
    assert (r.v(3)[act] == 15).all() and (r.v(5)[act] == 10).all()
    assert (r.v(6)[act] == 0xFFFFFFFF).all()


def test_sdwa_f16_halves_and_preserve():
    a = (RNG.standard_normal(64) * 4).astype(F16)
    b = (RNG.standard_normal(64) * 4).astype(F16)
    packed = a.view(np.uint16).astype(U32) | (b.view(np.uint16).astype(U32) << 16)
    old = np.full(64, 0x0000ABCD, U32)
    r = run("v_add_f16_sdwa v1, v0, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0",
            v={0: packed, 1: old})
    assert (r.f16(1, hi=True) == (a.astype(F32) + b.astype(F32)).astype(F16)).all()
    assert (r.v(1) & 0xFFFF == 0xABCD).all()


def test_sdwa_and_dpp_modifiers_select_their_encoding_without_the_suffix():
    """llvm-mc encodes `v_cvt_f32_f16 v1, v0 src0_sel:WORD_1` as v_cvt_f32_f16_sdwa and
    `v_mov_b32 v3, v0 row_shr:1` as v_mov_b32_dpp; MIOpen's fp16-alt iGEMM kernels spell them so.
    They ran as plain VOP1 before (the high half ignored, no lane shift)."""
    lo = (RNG.standard_normal(64) * 4).astype(F16)
    hi = (RNG.standard_normal(64) * 4).astype(F16)
    packed = lo.view(np.uint16).astype(U32) | (hi.view(np.uint16).astype(U32) << 16)
    r = run("v_cvt_f32_f16 v1, v0 src0_sel:WORD_1\n"
            "v_cvt_f32_f16_sdwa v2, v0 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1\n"
            "v_mov_b32 v3, v0 row_shr:1\n"
            "v_mov_b32_dpp v4, v0 row_shr:1 row_mask:0xf bank_mask:0xf\n"
            "v_pack_b32_f16 v5, v1, v1 op_sel:[1,0]", v={0: packed, 3: 7, 4: 7})
    assert (r.f32(1) == hi.astype(F32)).all() and (r.v(1) == r.v(2)).all()
    assert (r.v(3) == r.v(4)).all() and (r.v(3)[1:16] == packed[0:15]).all()
    # op_sel is VOP3, not SDWA: the pack keeps its own encoding (high half of src0, low of src1)
    assert (r.v(5) == ((r.v(1) >> 16) | (r.v(1) << 16))).all()


def test_abs_neg_on_f16_and_f64_use_their_sign_bit():
    x16 = (RNG.standard_normal(64)).astype(F16)
    x64 = RNG.standard_normal(64)
    r = run("v_add_f16_e64 v1, -|v0|, 0\nv_add_f64 v[4:5], -|v[2:3]|, 0",
            v={0: x16.view(np.uint16).astype(U32) | 0x80000000, "v[2:3]": x64})
    assert (r.f16(1) == -np.abs(x16)).all()
    assert (r.f64(4) == -np.abs(x64)).all()


def test_uninitialised_vgpr_read_is_noted_for_active_lanes_only():
    r = run("v_add_u32 v2, v7, v1", v={1: 1})  # v0 holds the workitem id at launch; v7 nothing
    notes = [n for n in r.notes if "v7" in n]
    assert notes and "poison" in notes[0] and "0-63" in notes[0]
    assert (r.v(2) == 0xBADC0DE5 + 1).all()
    r = run("v_add_u32 v2, v7, v1", v={1: 1}, exec=0)
    assert not [n for n in r.notes if "v7" in n], "lanes EXEC disables do not matter"


def test_partially_initialised_register_names_the_lanes():
    r = run("v_mov_b32 v7, 0\nv_mov_b32 v1, v7", exec=(1 << 10) - 1)
    assert not r.notes
    r = run("s_mov_b64 exec, 0x3ff\nv_mov_b32 v7, 0\ns_mov_b64 exec, -1\nv_mov_b32 v1, v7")
    assert any("lanes 10-63" in n for n in r.notes)


def test_unmodelled_instruction_stops_the_run():
    run("v_cubeid_f32 v0, v1, v2, v3", v={1: 1.0, 2: 1.0, 3: 1.0},
        expect_error="instruction not modelled yet: v_cubeid_f32")


@pytest.mark.parametrize("target", ["gfx908", "gfx90a", "gfx942", "gfx950"])
def test_vector_add_loop_on_every_target(target):
    """A small end-to-end kernel: load, add, store, with the lane-id idiom forming addresses."""
    a = np.arange(64, dtype=np.float32)
    b = np.full(64, 0.5, dtype=np.float32)
    r = run("""v_mbcnt_lo_u32_b32 v0, -1, 0
v_mbcnt_hi_u32_b32 v0, -1, v0
v_lshlrev_b32 v0, 2, v0
global_load_dword v1, v0, s[0:1]
global_load_dword v2, v0, s[2:3]
s_waitcnt vmcnt(0)
v_add_f32 v1, v1, v2
global_store_dword v0, v1, s[4:5]
s_waitcnt vmcnt(0)""", target=target, buffers={"A": (a, "s[0:1]"), "B": (b, "s[2:3]"),
                                               "C": (np.zeros(64, np.float32), "s[4:5]")})
    assert (r.sim.buffer("C", np.float32) == a + b).all()
