"""Infeasible paths (issue 15, item 2): the counter analysis drops CFG edges that contradict
branch conditions already decided on the same path, and names the path of every hazard it keeps.

The excerpts come from the hipBLASLt GEMM in ``tests/corpus/tensile/`` (MIT, see
``tests/corpus/README.md``): ``Custom_Cijk_Alik_Bljk_HHS_BH_UserArgs_MT128x16x128_MI16x16x1_SN_K1_
MIWT2_1_triple_buffer.s``, lines 1214-1470 (prefetch prologue, "PGR=3") and 1461-1885 (the
unrolled loop).  The lines are kept as written; each prefetch batch of 9 ``buffer_load_dwordx4``
is cut to its first A and its B load (2 loads), so the kernel's ``vmcnt(9)``/``vmcnt(17)``
become ``vmcnt(2)``/``vmcnt(3)``.  Before the fix lint reported 27 ``vmem-result-before-vmcnt``
on that kernel, all on paths that need ``LoopCounterL`` to be, e.g., 1 at line 1253 and not 1 at
line 1380.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from gcnemu.analysis.lint import analyze_program, lint
from gcnemu.analysis.paths import TOP, PathFacts, assume, join
from gcnemu.asm.parse import parse
from test_lint_rules import HAVE_MC, _assemble

CORPUS = Path(__file__).parent / "corpus" / "tensile" / \
    "Custom_Cijk_Alik_Bljk_HHS_BH_UserArgs_MT128x16x128_MI16x16x1_SN_K1_MIWT2_1_triple_buffer.s"

HEADER = """\t.text
.set sgprLoopCounterL, 12
.set sgprSrdA, 48
.set sgprSrdB, 52
.set vgprLocalWriteAddrA, 48
.set vgprLocalWriteAddrB, 49
.set vgprGlobalReadOffsetA, 50
.set vgprGlobalReadOffsetB, 51
.set vgprG2LA, 52
.set vgprG2LB, 84
.set vgprG2LA1, 92
.set vgprG2LB1, 124
kernel:
"""

LOAD_SET0 = """\
buffer_load_dwordx4 v[vgprG2LA+0:vgprG2LA+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], 0 offen offset:0 nt // G -> Reg 0_0_0_0
buffer_load_dwordx4 v[vgprG2LB+0:vgprG2LB+0+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], 0 offen offset:0 // G -> Reg 0_0_0_0
"""
LOAD_SET1 = LOAD_SET0.replace("G2LA+", "G2LA1+").replace("G2LB+", "G2LB1+")

# lines 1214-1254, 1291-1296, 1367-1422 (the s_setpc_b64 jump of 1371-1375 becomes an s_branch)
PROLOGUE = f"""\
s_cmp_eq_u32 s[sgprLoopCounterL], 0                // at last iteration?
s_cbranch_scc1 label_ShadowInitStart               // skip to ShadowInitStart iter b/c numIter==0
{LOAD_SET0}
/* 2nd set of PGR */
s_cmp_eq_u32 s[sgprLoopCounterL], 0x1              // PGR=3 but only 1 loop
s_cbranch_scc1 label_skipPGR1_0                    // PGR=3 but only 1 loop
{LOAD_SET1}
label_skipPGR1_0:
label_ShadowInitStart:
s_cmp_eq_u32 s[sgprLoopCounterL], 0                // at last iteration?
s_cbranch_scc0 label_NoBranch_LMI4T0VTC74OFN9W_0   // Only branch on scc1
s_branch label_PrefetchGlobalLastIterEnd
label_NoBranch_LMI4T0VTC74OFN9W_0:
/* 2nd set of PGR */
s_cmp_eq_u32 s[sgprLoopCounterL], 0x1              // PGR=3 but only 1 loop
s_cbranch_scc1 label_PGR1_vmcnt0                    // PGR=3 but only 1 loop
s_waitcnt vmcnt(2)                                 // 8wait for global read
s_branch label_1st_local_write
label_PGR1_vmcnt0:
s_waitcnt vmcnt(0)                                 // 8wait for global read
label_1st_local_write:
ds_write_b128 v[vgprLocalWriteAddrA], v[vgprG2LA+0:vgprG2LA+0+3] offset:0 // lwoA_0_0_0_0
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+0:vgprG2LB+0+3] offset:0 // lwoB_0_0_0_0
s_cmp_le_u32 s[sgprLoopCounterL], 0x2              // PGR=3 but only 2 loop
s_cbranch_scc1 label_skipPGR2_0                    // PGR=3 but only 2 loop
{LOAD_SET0}
label_skipPGR2_0:
s_waitcnt lgkmcnt(0)                               // 0prefetch wait for local write
s_barrier
"""

# lines 1461-1470, 1571-1605, 1676-1678, 1778-1812, 1883-1890 and the exits
LOOP = f"""\
label_openLoopL:
s_cmp_eq_u32 s[sgprLoopCounterL], 0x1              // LoopCounterL < EndCounter
s_cbranch_scc1 label_last_NLL                      // PGR=3 but only 1 loop iterations
s_cmp_eq_u32 s[sgprLoopCounterL], 0x2              // LoopCounterL < EndCounter
s_cbranch_scc1 label_oddexit_2ndNLL                // PGR=3 but only 2 loop iterations
s_cmp_le_u32 s[sgprLoopCounterL], 0x3              // LoopCounterL < EndCounter
s_cbranch_scc1 label_LoopEndL_evenexit             // do not enter LoopL
label_LoopBeginL:
s_waitcnt vmcnt(3)                                 // wait for global read before writing to local
ds_write_b128 v[vgprLocalWriteAddrA], v[vgprG2LA1+0:vgprG2LA1+0+3] offset:0 // lwoA_0_0_0_0
buffer_load_dwordx4 v[vgprG2LA1+0:vgprG2LA1+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], 0 offen offset:0 nt // G -> Reg 0_0_0_0
s_waitcnt vmcnt(3)                                 // wait for global read before writing to local
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB1+0:vgprG2LB1+0+3] offset:0 // lwoB_0_0_0_0
buffer_load_dwordx4 v[vgprG2LB1+0:vgprG2LB1+0+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], 0 offen offset:0 // G -> Reg 0_0_0_0
s_sub_u32 s[sgprLoopCounterL], s[sgprLoopCounterL], 1 // dec counterL
s_cmp_eq_i32 s[sgprLoopCounterL], 0x3              // counterL==2
s_cbranch_scc1 label_LoopEndL_oddexit              // exit LoopL
s_waitcnt vmcnt(3)                                 // wait for global read before writing to local
ds_write_b128 v[vgprLocalWriteAddrA], v[vgprG2LA+0:vgprG2LA+0+3] offset:0 // lwoA_0_0_0_0
buffer_load_dwordx4 v[vgprG2LA+0:vgprG2LA+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], 0 offen offset:0 nt // G -> Reg 0_0_0_0
s_waitcnt vmcnt(3)                                 // wait for global read before writing to local
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+0:vgprG2LB+0+3] offset:0 // lwoB_0_0_0_0
buffer_load_dwordx4 v[vgprG2LB+0:vgprG2LB+0+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], 0 offen offset:0 // G -> Reg 0_0_0_0
s_sub_u32 s[sgprLoopCounterL], s[sgprLoopCounterL], 1 // dec counterL
s_cmp_eq_i32 s[sgprLoopCounterL], 0x3              // counterL==2
s_cbranch_scc0 label_LoopBeginL                    // restart LoopL
label_LoopEndL_evenexit:  /// unroll loop eveniter exit
s_waitcnt vmcnt(3)                                 // wait for global read before writing to local
ds_write_b128 v[vgprLocalWriteAddrA], v[vgprG2LA1+0:vgprG2LA1+0+3] offset:0 // lwoA_0_0_0_0
s_waitcnt vmcnt(2)                                 // wait for global read before writing to local
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB1+0:vgprG2LB1+0+3] offset:0 // lwoB_0_0_0_0
s_branch label_PrefetchGlobalLastIterEnd
label_LoopEndL_oddexit:  /// unroll loop odditer exit
label_oddexit_2ndNLL:
s_waitcnt vmcnt(0)
label_last_NLL:
s_waitcnt vmcnt(0)
label_PrefetchGlobalLastIterEnd:
s_waitcnt vmcnt(0)
s_endpgm
"""

KERNEL = HEADER + PROLOGUE + LOOP


def _warnings(text: str, rule: str = "vmem-result-before-vmcnt", target: str = "gfx942"):
    return [d for d in lint(parse(text, "tensile.s"), target) if d.severity == "warning" and d.rule == rule]


def _line(text: str, needle: str, nth: int = 0) -> int:
    return [i for i, ln in enumerate(text.splitlines(), 1) if needle in ln][nth]


# --------------------------------------------------------------------------- the Tensile excerpts


def test_tensile_prologue_and_loop_are_clean():
    """Every warning the excerpt used to get was on a path with LoopCounterL == 1 and != 1 (or
    <= 2 and > 3) at once."""
    assert _warnings(KERNEL) == []
    assert [d for d in lint(parse(KERNEL, "tensile.s"), "gfx942") if d.severity == "warning"] == []


@pytest.mark.skipif(not HAVE_MC, reason="llvm-mc 22 not installed")
def test_excerpt_assembles():
    assert _assemble("gfx942", [("kernel", KERNEL)]) == []


def test_deleting_the_pgr1_wait_is_still_found_and_the_path_is_named():
    """Without the vmcnt(0) of the one-iteration case the first local write really is early; the
    note says which way each branch went (LoopCounterL == 1: skip the 2nd prefetch)."""
    text = KERNEL.replace("label_PGR1_vmcnt0:\ns_waitcnt vmcnt(0)", "label_PGR1_vmcnt0:\ns_nop 0")
    ws = _warnings(text)
    assert [d.span.line for d in ws] == [_line(text, "lwoA_0_0_0_0"), _line(text, "lwoB_0_0_0_0")]
    note = ws[0].notes[-1].message
    skip = _line(text, "s_cbranch_scc1 label_skipPGR1_0")
    pgr1 = _line(text, "s_cbranch_scc1 label_PGR1_vmcnt0")
    assert f"takes the branch to label_skipPGR1_0 at line {skip}" in note
    assert f"takes the branch to label_PGR1_vmcnt0 at line {pgr1}" in note


def test_weakening_the_loop_wait_is_still_found():
    text = KERNEL.replace("s_waitcnt vmcnt(3)", "s_waitcnt vmcnt(4)", 1)
    ws = _warnings(text)
    assert [d.span.line for d in ws] == [_line(text, "lwoA_0_0_0_0", 1)]
    loop_entry = _line(text, "s_cbranch_scc1 label_LoopEndL_evenexit")
    assert f"falls through the branch at line {loop_entry}" in ws[0].notes[-1].message


def test_loop_exit_path_is_kept():
    """LoopCounterL == 3 goes to the even exit, where the 2nd and 3rd prefetch are outstanding:
    that path is feasible, so a weaker wait there is found."""
    text = KERNEL.replace("s_waitcnt vmcnt(2)                                 // wait for global read before writing",
                          "s_waitcnt vmcnt(3)                                 // wait for global read before writing")
    ws = _warnings(text)
    assert [d.span.line for d in ws] == [_line(text, "lwoB_0_0_0_0", 3)]


def test_without_the_repeated_test_the_path_is_real():
    """Control: when the second test reads another register, nothing ties the branches and the
    warning must stay (the pruning needs a certain contradiction)."""
    text = KERNEL.replace("s_cmp_eq_u32 s[sgprLoopCounterL], 0x1              // PGR=3 but only 1 loop\n"
                          "s_cbranch_scc1 label_PGR1_vmcnt0",
                          "s_cmp_eq_u32 s13, 0x1              // PGR=3 but only 1 loop\n"
                          "s_cbranch_scc1 label_PGR1_vmcnt0")
    assert len(_warnings(text)) == 2


def test_counter_written_between_the_tests_keeps_the_path():
    text = KERNEL.replace("label_skipPGR1_0:\n", "label_skipPGR1_0:\ns_load_dword s[sgprLoopCounterL], s[0:1], 0x0\n"
                          "s_waitcnt lgkmcnt(0)\n")
    assert len(_warnings(text)) == 2


def test_corpus_kernel_has_no_counter_warning_and_lints_fast():
    text = CORPUS.read_text()
    t0 = time.perf_counter()
    diags = lint(parse(text, str(CORPUS)), "gfx942")
    elapsed = time.perf_counter() - t0
    counter = [d for d in diags if d.rule and "cnt" in d.rule]
    assert counter == []
    assert elapsed < 5.0


def test_corpus_kernel_deleted_wait_is_found():
    """Sanity on the full kernel: the vmcnt(0) of the LoopCounterL == 1 case (line 1387) matters."""
    lines = CORPUS.read_text().splitlines()
    assert lines[1386].startswith("s_waitcnt vmcnt(0)")
    lines[1386] = "s_nop 0"
    ws = _warnings("\n".join(lines) + "\n")
    assert [d.span.line for d in ws][:1] == [1393]
    assert "takes the branch to label_skipPGR1_0 at line 1254" in ws[0].notes[-1].message


# --------------------------------------------------------------------------- the remaining warnings are real


def test_remaining_wait_state_warnings_are_straight_line():
    """The kernel's other warnings are no path artefact: producer and consumer are in one block.
    v_cmp vcc -> v_addc_co_u32 reading vcc needs 2 wait states on gfx942 (llc-22 inserts s_nop 1);
    v_cmpx exec -> v_readfirstlane needs 4 even with s_mov_b64 exec, -1 between (LLVM's
    getWaitStatesSinceDef(EXEC, isVALU) skips the SALU write)."""
    an = analyze_program(parse(CORPUS.read_text(), str(CORPUS)), "gfx942")
    assert {h.rule.id for h in an.wait_hazards} == {"valu-sgpr-valu-read", "valu-exec-lane-op"}
    for h in an.wait_hazards:
        assert h.path == ()
        assert an.cfg.block_of[h.producer] == an.cfg.block_of[h.consumer]


# --------------------------------------------------------------------------- small programs


def _prog(body: str) -> str:
    return "\t.text\nkernel:\n" + body.strip("\n") + "\n"


TRIP = """
s_mov_b32 s4, {n}
buffer_load_dword v1, v0, s[8:11], 0 offen
s_cmp_eq_u32 s4, 0
s_cbranch_scc1 skip
loop:
s_waitcnt vmcnt(0)
v_add_u32 v2, v1, v2
buffer_load_dword v1, v0, s[8:11], 0 offen
s_sub_u32 s4, s4, 1
s_cmp_lg_u32 s4, 0
s_cbranch_scc1 loop
s_waitcnt vmcnt(0)
skip:
v_add_u32 v3, v1, v3
s_endpgm
"""


def test_loop_with_known_trip_count_is_entered():
    """The loop counter is 4: the guard that skips the loop cannot be taken."""
    assert _warnings(_prog(TRIP.format(n=4))) == []


@pytest.mark.parametrize("n", ["0", "s5"])
def test_loop_that_may_be_skipped_is_flagged(n):
    ws = _warnings(_prog(TRIP.format(n=n)))
    assert len(ws) == 1 and "takes the branch to skip" in ws[0].notes[-1].message


def test_scc_clobbered_between_compare_and_branch_keeps_both_edges():
    text = _prog("""
s_cmp_eq_u32 s4, 1
s_cbranch_scc1 a
buffer_load_dword v1, v0, s[8:11], 0 offen
a:
s_cmp_eq_u32 s4, 1
s_add_u32 s6, s6, 1
s_cbranch_scc1 b
v_add_u32 v3, v1, v3
b:
s_waitcnt vmcnt(0)
s_endpgm
""")
    assert len(_warnings(text)) == 1


def test_same_register_pair_compared_twice():
    text = _prog("""
s_cmp_eq_u32 s4, s5
s_cbranch_scc1 a
buffer_load_dword v1, v0, s[8:11], 0 offen
a:
s_cmp_lg_u32 s5, s4
s_cbranch_scc1 b
v_add_u32 v3, v1, v3
b:
s_waitcnt vmcnt(0)
s_endpgm
""")
    assert _warnings(text) == []


def test_signed_compare_of_unknown_values_prunes_nothing():
    text = _prog("""
s_cmp_lt_i32 s4, 1
s_cbranch_scc1 a
buffer_load_dword v1, v0, s[8:11], 0 offen
a:
s_cmp_gt_u32 s4, 5
s_cbranch_scc0 b
v_add_u32 v3, v1, v3
b:
s_waitcnt vmcnt(0)
s_endpgm
""")
    # s4 >=s 1 (not taken) says nothing certain about s4 >u 5
    assert len(_warnings(text)) == 1


def test_domain_basics():
    k = ("k", ("s", 4))
    one = assume(TOP, ("eq", False, k, ("c", 1)), True)
    assert one.val(("s", 4)) == (1, 1)
    assert assume(one, ("eq", False, k, ("c", 1)), False) is None
    assert assume(one, ("le", False, k, ("c", 2)), True) is one
    ge3 = assume(TOP, ("le", False, k, ("c", 2)), False)
    assert ge3.val(("s", 4)) == (3, 0xFFFFFFFF)
    assert assume(ge3, ("eq", False, k, ("c", 2)), True) is None
    assert join(one, ge3).val(("s", 4)) == (1, 0xFFFFFFFF)
    assert join(one, TOP) == PathFacts()
