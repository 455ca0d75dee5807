"""Register value ranges (gcnemu/analysis/values.py), the facts the LDS-range checks stand on.

Each state maps a register to an unsigned interval covering every lane of every wave;
a register not in the state is TOP (unknown).  The tests read as the specification:
what starts known, what each transfer keeps exact, what must become TOP to stay sound.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from gcnemu.analysis.cfg import build_cfg
from gcnemu.analysis.classify import classify_all
from gcnemu.snippets.launch import launch_facts
from gcnemu.analysis.values import (LdsRanges, ValueAnalysis, band, bor, bxor, initial_state,
                                    overlap)
from gcnemu.asm.parse import parse


def analysis(body: str, target: str = "gfx942", workgroup=(256, 1, 1)) -> tuple[ValueAnalysis, list]:
    text = "\t.text\nk:\n" + body.strip("\n") + "\n\ts_endpgm\n"
    prog = parse(text, "v.s")
    ins = prog.instructions
    facts = classify_all(ins, target)
    va = ValueAnalysis(ins, facts, build_cfg(facts, prog.labels), target, workgroup, prog.symbols).run()
    return va, ins


def at_end(body: str, **kw) -> dict:
    va, ins = analysis(body, **kw)
    return va.before(len(ins) - 1)


# ------------------------------------------------------------------ initial state


def test_workitem_id_is_v0_packed_from_the_workgroup_size():
    assert initial_state("gfx942", (256, 1, 1)) == {("v", 0): (0, 255)}
    # x | y << 10 | z << 20: the hull of the packed ids
    assert initial_state("gfx90a", (16, 4, 2)) == {("v", 0): (0, 15 | 3 << 10 | 1 << 20)}


def test_gfx908_has_one_vgpr_per_dimension():
    assert initial_state("gfx908", (64, 2, 1)) == {("v", 0): (0, 63), ("v", 1): (0, 1), ("v", 2): (0, 0)}


def test_unknown_workgroup_is_a_1d_launch_of_at_most_1024():
    assert initial_state("gfx942", None) == {("v", 0): (0, 1023)}


def test_the_snippet_header_gives_the_workgroup_and_registers_it_sets_are_unknown():
    prog = parse("// gcnemu:\n//   workgroup: 128\n//   vgpr v0 = lane\n\t.text\nk:\n\ts_endpgm\n", "h.s")
    facts = launch_facts(prog)
    assert facts.workgroup == (128, 1, 1) and ("v", 0) in facts.initialised


def test_everything_else_starts_unknown():
    st = at_end("\ts_nop 0")
    assert ("s", 0) not in st and ("s", 124) not in st and ("v", 1) not in st


# ------------------------------------------------------------------ transfer functions


def test_wave_id_and_per_wave_lds_base_are_exact_ranges():
    st = at_end("""
\tv_readfirstlane_b32 s10, v0
\ts_lshr_b32 s10, s10, 6
\ts_lshl_b32 s16, s10, 11
\ts_add_u32 s17, s16, 0x2000
\ts_mov_b32 m0, s17
""")
    assert st[("s", 10)] == (0, 3)  # 4 waves
    assert st[("s", 16)] == (0, 6144)
    assert st[("s", 124)] == (8192, 8192 + 6144)  # M0


def test_lane_address_arithmetic():
    st = at_end("""
\tv_and_b32 v1, 63, v0
\tv_lshlrev_b32 v2, 4, v1
\tv_bfe_u32 v3, v1, 2, 3
\tv_lshl_add_u32 v4, v3, 4, v2
\tv_mul_u32_u24 v5, 3, v1
\tv_mad_u32_u24 v6, v1, 2, 100
\tv_add_lshl_u32 v7, v1, 1, 2
\tv_lshl_or_b32 v8, v1, 8, 5
\tv_lshrrev_b32 v9, 5, v1
\tv_mov_b32 v10, 0x4000
""")
    assert st[("v", 1)] == (0, 63)
    assert st[("v", 2)] == (0, 1008)
    assert st[("v", 3)] == (0, 7)
    assert st[("v", 4)] == (0, 1120)
    assert st[("v", 5)] == (0, 189)
    assert st[("v", 6)] == (100, 226)
    assert st[("v", 7)] == (4, 256)
    assert st[("v", 8)] == (5, 63 * 256 + 5)  # constant bits below the shifted field: disjoint, exact
    assert st[("v", 9)] == (0, 1)
    assert st[("v", 10)] == (0x4000, 0x4000)


def test_or_and_xor_with_constants_keep_the_bits_they_do_not_touch():
    assert bxor((0, 6144), (0x4000, 0x4000)) == (0x4000, 0x4000 + 6144)  # bit above the range: an add
    assert bxor((8192, 16368), (32, 32)) == (8192, 16383)  # low bits shuffle inside the 8 KiB block
    assert bor((0, 63), (0x100, 0x100)) == (0x100, 0x13F)
    assert band((0, 1000), (0xFFFF, 0xFFFF)) == (0, 1000)  # the mask keeps every bit the value has
    assert band((0, 1000), (7, 7)) == (0, 7)


def test_wrap_around_is_unknown():
    st = at_end("""
\tv_and_b32 v1, 63, v0
\tv_sub_u32 v2, v1, 1
\ts_mov_b32 s1, 0xffffff00
\ts_add_u32 s2, s1, 0x200
\tv_lshlrev_b32 v3, 30, v1
""")
    assert ("v", 2) not in st  # 0 - 1 wraps
    assert ("s", 2) not in st  # carry out
    assert ("v", 3) not in st  # shifted past bit 31


def test_anything_else_that_writes_a_register_makes_it_unknown():
    st = at_end("""
\ts_mov_b32 s5, 12
\tv_mov_b32 v5, 12
\ts_load_dword s5, s[0:1], 0x0
\tv_cvt_f32_u32 v5, v5
\ts_mov_b32 s6, 1
\ts_mov_b32 s7, 2
\ts_mov_b64 s[6:7], 0
""")
    assert ("s", 5) not in st and ("v", 5) not in st
    assert ("s", 6) not in st and ("s", 7) not in st  # a 64-bit write the table does not model


def test_valu_result_joins_the_old_value_when_exec_may_be_partial():
    st = at_end("""
\tv_mov_b32 v1, 100
\tv_cmpx_gt_u32 vcc, 64, v0
\tv_mov_b32 v0, 1000
""")
    assert st[("v", 0)] == (0, 1000)  # inactive lanes keep their workitem id
    assert ("v", 1) not in st  # and a VGPR that was unknown stays unknown in them


# ------------------------------------------------------------------ joins and loops


def test_join_takes_the_hull():
    st = at_end("""
\ts_mov_b32 s1, 16
\ts_cbranch_scc1 other
\ts_mov_b32 s1, 4
other:
\ts_nop 0
""")
    assert st[("s", 1)] == (4, 16)


def test_loop_invariants_stay_exact_and_induction_variables_go_unknown():
    st = at_end("""
\ts_mov_b32 s16, 0x4000
\ts_mov_b32 s11, 0
\tv_mov_b32 v16, 32
loop:
\ts_mov_b32 m0, s16
\ts_add_u32 s11, s11, 1
\tv_xor_b32 v17, 0x4000, v16
\ts_cmp_lg_u32 s11, 4
\ts_cbranch_scc1 loop
""")
    assert st[("s", 16)] == (0x4000, 0x4000) and st[("s", 124)] == (0x4000, 0x4000)
    assert st[("v", 16)] == (32, 32) and st[("v", 17)] == (0x4020, 0x4020)
    assert ("s", 11) not in st  # 0, 1, 2, ... widened


def test_a_toggle_around_a_loop_covers_both_values():
    st = at_end("""
\ts_mov_b32 s16, 0
loop:
\ts_xor_b32 s16, s16, 0x4000
\ts_cbranch_scc1 loop
""")
    s16 = st.get(("s", 16))
    assert s16 is None or (s16[0] <= 0 and s16[1] >= 0x4000)  # never just one buffer


# ------------------------------------------------------------------ LDS byte ranges


def lds(body: str, target: str = "gfx942") -> tuple[LdsRanges, list]:
    va, ins = analysis(body, target)
    return LdsRanges(va, target), ins


def test_lds_dma_writes_64_lanes_from_m0_plus_the_offset():
    r, _ = lds("""
\ts_mov_b32 m0, 0x4000
\ts_nop 0
\tglobal_load_lds_dword v[2:3], off offset:256
\tbuffer_load_dword v1, s[4:7], 0 offen offset:512 lds
""")
    assert r.dma(2) == [(0x4000 + 256, 0x4000 + 256 + 256)]
    assert r.dma(3) == [(0x4000 + 512, 0x4000 + 512 + 256)]


def test_global_load_lds_drops_the_two_low_bits_of_m0():
    r, _ = lds("\ts_mov_b32 m0, 0x4003\n\ts_nop 0\n\tglobal_load_lds_dword v[2:3], off")
    assert r.dma(2) == [(0x4000, 0x4100)]


def test_gfx950_wide_lds_dma_uses_16_byte_lane_slots():
    r, _ = lds("\ts_mov_b32 m0, 0\n\ts_nop 0\n\tglobal_load_lds_dwordx4 v[2:3], off", "gfx950")
    assert r.dma(2) == [(0, 1024)]


def test_unknown_m0_still_stays_inside_the_bits_the_hardware_uses():
    r, _ = lds("\ts_load_dword s1, s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n\ts_mov_b32 m0, s1\n\ts_nop 0\n"
               "\tbuffer_load_dword v1, s[4:7], 0 offen lds", "gfx90a")
    assert r.dma(4) == [(0, 0xFFFF + 256)]


def test_ds_read_ranges_include_offset_and_size():
    r, _ = lds("""
\tv_and_b32 v1, 63, v0
\tv_lshlrev_b32 v1, 4, v1
\tds_read_b128 v[4:7], v1 offset:16384
\tds_read2_b32 v[8:9], v1 offset0:1 offset1:32
\tds_read2st64_b64 v[8:11], v1 offset1:2
\tds_read_b32 v2, v20
""")
    assert r.reads(2) == [(16384, 16384 + 1008 + 16)]
    assert r.reads(3) == [(4, 1008 + 8), (128, 1008 + 132)]
    assert r.reads(4) == [(0, 1008 + 8), (1024, 1008 + 1032)]
    assert r.reads(5) is None  # v20 unknown


def test_overlap_is_half_open_and_unknown_overlaps_everything():
    assert not overlap([(0, 16384)], [(16384, 32768)])
    assert overlap([(0, 16385)], [(16384, 32768)])
    assert overlap(None, [(0, 1)]) and overlap([(0, 1)], None)


def test_writes_the_operands_do_not_name_make_registers_unknown():
    # a call may clobber anything; s_movreld writes s[0 + M0]
    st = at_end("\ts_mov_b32 s5, 3\n\tv_mov_b32 v5, 3\n\ts_swappc_b64 s[30:31], s[4:5]\n\ts_nop 0")
    assert ("s", 5) not in st and ("v", 5) not in st and ("v", 0) not in st
    st = at_end("\ts_mov_b32 s5, 3\n\tv_mov_b32 v5, 3\n\ts_mov_b32 m0, 1\n\ts_movreld_b32 s4, s9")
    assert ("s", 5) not in st and st[("v", 5)] == (3, 3)


def test_indirect_jumps_leave_nothing_known():
    st = at_end("\ts_mov_b32 s5, 3\n\ts_setpc_b64 s[0:1]\nafter:\n\ts_nop 0")
    assert st == {}


@pytest.mark.parametrize("target", ["gfx90a", "gfx942"])
def test_flagship_m0_and_read_bases_are_bounded(target):
    # the double-buffered GEMMs: every LDS DMA and ds_read is bounded, DMAs of the next stage
    # and ds_reads of this one in different 16 KiB buffers (what lets them lint clean)
    import gcnemu
    from gcnemu.analysis.lint import analyze_program
    prog = gcnemu.parse_file(Path(__file__).resolve().parent.parent / "programs" / f"gemm_lds_dma_{target}.s")
    an = analyze_program(prog, target, launch=launch_facts(prog))  # the header says 256 work-items
    dmas = [i for i, f in enumerate(an.facts) if f.mem is not None and f.mem.kind == "lds-dma"]
    reads = [i for i, f in enumerate(an.facts) if f.mem is not None and f.mem.reads_lds]
    assert dmas and reads
    assert all(an.lds.dma(i) is not None for i in dmas)
    assert all(an.lds.reads(i) is not None for i in reads)
    # everything stays inside the two 16 KiB buffers
    assert max(hi for i in dmas + reads for _, hi in (an.lds.dma(i) if i in dmas else an.lds.reads(i))) <= 32768
