"""A real under-wait lint keeps reporting in a shipped hipBLASLt kernel (issue 15, item 2).

``gcnemu lint --stats`` over hipBLASLt's 187 Tensile custom kernels leaves 12
``vmem-result-before-vmcnt`` warnings, 6 in each of
``Custom_Cijk_Alik_Bljk_F8BS_BH_BiasSB_AS_SABV_SAV_UserArgs_MT256x256x128_MI16x16x1_SN_K1_MIWT4_16_DTVA.s``
and its ``..._WSGRB2_DTVA.s`` twin (ROCm/hipBLASLt ``tensilelite/Tensile/CustomKernels/``, commit
7d9fb683db25941d38c5f89749a2c26acc493992, MIT licence: ``tests/corpus/tensile/LICENSE.md``).
They are real, not a path artefact:

* the unrolled loop interleaves its local writes of B (``ds_write_b128 ... G2LB+k``) with the next
  iteration's global reads of A (DirectToVgpr) *and* of B, and waits ``vmcnt(11)`` before each
  write; each B read issued between two writes makes that count cover one more old load;
* the "NoGlobalLoadLoop" tails (``label_LoopEndL_even``, ``label_LoopEndL_odd``) keep the A reads
  and the same ``vmcnt(11)`` waits but issue no B reads, so the last three writes
  (``G2LB+20/24/28``) may read registers whose ``buffer_load_dwordx4`` is still in flight: 11
  loads are outstanding there and the one writing ``G2LB+20`` is the oldest of them.  Loads return
  in order, so ``vmcnt(10)``, ``vmcnt(9)``, ``vmcnt(8)`` are needed, which is exactly what the same
  tail counts down to in the sibling kernels (``MT256x224x128 ... F8BS ... DTVA.s``,
  ``MT256x256x64 ... BBS ... DTVA.s``).  It holds on every path into a tail (the loop exit as well
  as ``LoopCounterL == 2`` at entry), so the kernel relies on timing the ISA does not promise.

The excerpt below is lines 1465-1916 (prefetch, first local write, 2nd prefetch, loop guards),
1917-2592 (first half of the unrolled loop) and 3277-3740 (loop back edge, even tail) of the
first file, kept as written except: only the lines that issue or wait for vector memory, write
LDS or branch are kept (MFMAs, LDS reads and ``lgkmcnt`` waits dropped), long trailing comments
are cut, the loop is one half of the kernel's two mirror-image halves (same waits), and the
odd-iteration tail and epilogue become the two labels at the end.
"""
from __future__ import annotations

import pytest

from gcnemu.analysis.lint import lint
from gcnemu.asm.parse import parse
from test_lint_rules import HAVE_MC, _assemble

RULE = "vmem-result-before-vmcnt"

KERNEL = """	.text
.set vgprValuA_X0_I0_0, 0
.set vgprValuA_X2_I0_0, 16
.set vgprLocalWriteAddrB, 161
.set vgprGlobalReadOffsetA, 162
.set vgprGlobalReadOffsetB, 163
.set vgprG2LB, 164
.set vgprValuA_X0_I0_1, 196
.set vgprValuA_X2_I0_1, 212
.set sgprLoopCounterL, 12
.set sgprSrdA, 48
.set sgprSrdB, 52
.set sgprScalarGlobalReadOffsetA, 66
.set sgprScalarGlobalReadOffsetB, 73
kernel:
s_cmp_eq_u32 s[sgprLoopCounterL], 0                // at last iteration?
s_cbranch_scc1 label_ShadowInitStart               // skip to ShadowInitStart iter b/c numIter==0
buffer_load_dwordx4 v[vgprG2LB+0:vgprG2LB+0+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], 0 offen offset:0
buffer_load_dwordx4 v[vgprG2LB+4:vgprG2LB+4+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+0] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+8:vgprG2LB+8+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+1] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+12:vgprG2LB+12+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+2] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+16:vgprG2LB+16+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+3] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+20:vgprG2LB+20+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+4] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+24:vgprG2LB+24+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+5] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+28:vgprG2LB+28+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+6] offen offset:0
.set vgprValuA_X0_I0, vgprValuA_X0_I0_0
.set vgprValuA_X2_I0, vgprValuA_X2_I0_0
buffer_load_dwordx4 v[vgprValuA_X0_I0+0:vgprValuA_X0_I0+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], 0 offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0+0:vgprValuA_X2_I0+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+3] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X0_I0+4:vgprValuA_X0_I0+4+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+0] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0+4:vgprValuA_X2_I0+4+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+4] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X0_I0+8:vgprValuA_X0_I0+8+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+1] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0+8:vgprValuA_X2_I0+8+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+5] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X0_I0+12:vgprValuA_X0_I0+12+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+2] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0+12:vgprValuA_X2_I0+12+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+6] offen offset:0
label_ShadowInitStart:
s_cmp_eq_u32 s[sgprLoopCounterL], 0                // at last iteration?
s_cbranch_scc0 label_NoBranch_IVWDN609MP1IS66Z_0   // Only branch on scc1
s_getpc_b64 s[28:29]                               // addr of next instr
s_add_i32 s30, label_PrefetchGlobalLastIterEnd, 0x4 // target branch offset
s_add_u32 s28, s28, s30                            // add target branch offset
s_addc_u32 s29, s29, 0                             // add high and carry
s_setpc_b64 s[28:29]                               // branch to label_PrefetchGlobalLastIterEnd
label_NoBranch_IVWDN609MP1IS66Z_0:
s_waitcnt vmcnt(8)                                 // wait for global read B
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+0:vgprG2LB+0+3] offset:0  // lwoB_0_0_0_0
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+4:vgprG2LB+4+3] offset:4160  // lwoB_0_0_1_0
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+8:vgprG2LB+8+3] offset:8320  // lwoB_0_0_2_0
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+12:vgprG2LB+12+3] offset:12480  // lwoB_0_0_3_0
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+16:vgprG2LB+16+3] offset:16640  // lwoB_0_0_4_0
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+20:vgprG2LB+20+3] offset:20800  // lwoB_0_0_5_0
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+24:vgprG2LB+24+3] offset:24960  // lwoB_0_0_6_0
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+28:vgprG2LB+28+3] offset:29120  // lwoB_0_0_7_0
s_cmp_eq_u32 s[sgprLoopCounterL], 0x1              // PGR=2 but only 1 loop
s_cbranch_scc1 label_skipPGR2_0                    // PGR=2 but only 1 loop
buffer_load_dwordx4 v[vgprG2LB+0:vgprG2LB+0+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], 0 offen offset:0
buffer_load_dwordx4 v[vgprG2LB+4:vgprG2LB+4+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+0] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+8:vgprG2LB+8+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+1] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+12:vgprG2LB+12+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+2] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+16:vgprG2LB+16+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+3] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+20:vgprG2LB+20+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+4] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+24:vgprG2LB+24+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+5] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+28:vgprG2LB+28+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+6] offen offset:0
label_skipPGR2_0:
.set vgprValuA_X0_I0, vgprValuA_X0_I0_0
.set vgprValuA_X2_I0, vgprValuA_X2_I0_0
label_openLoopL:
s_cmp_eq_u32 s[sgprLoopCounterL], 0x1              // LoopCounterL < EndCounter
s_cbranch_scc1 label_LoopEndL_odd_NoLoadLoop
s_cmp_le_u32 s[sgprLoopCounterL], 0x2              // LoopCounterL < EndCounter
s_cbranch_scc1 label_LoopEndL_even                 // do not enter LoopL
label_LoopBeginL:
s_waitcnt vmcnt(8)
buffer_load_dwordx4 v[vgprValuA_X0_I0_1+0:vgprValuA_X0_I0_1+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], 0 offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0_1+0:vgprValuA_X2_I0_1+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+3] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X0_I0_1+4:vgprValuA_X0_I0_1+4+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+0] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0_1+4:vgprValuA_X2_I0_1+4+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+4] offen offset:0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+0:vgprG2LB+0+3] offset:0  // lwoB_0_0_0_0
buffer_load_dwordx4 v[vgprValuA_X0_I0_1+8:vgprValuA_X0_I0_1+8+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+1] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0_1+8:vgprValuA_X2_I0_1+8+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+5] offen offset:0
s_waitcnt vmcnt(12)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+4:vgprG2LB+4+3] offset:4160  // lwoB_0_0_1_0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+8:vgprG2LB+8+3] offset:8320  // lwoB_0_0_2_0
buffer_load_dwordx4 v[vgprValuA_X0_I0_1+12:vgprValuA_X0_I0_1+12+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+2] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0_1+12:vgprValuA_X2_I0_1+12+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+6] offen offset:0
s_waitcnt vmcnt(12)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+12:vgprG2LB+12+3] offset:12480  // lwoB_0_0_3_0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+16:vgprG2LB+16+3] offset:16640  // lwoB_0_0_4_0
buffer_load_dwordx4 v[vgprG2LB+0:vgprG2LB+0+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], 0 offen offset:0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+20:vgprG2LB+20+3] offset:20800  // lwoB_0_0_5_0
buffer_load_dwordx4 v[vgprG2LB+4:vgprG2LB+4+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+0] offen offset:0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+24:vgprG2LB+24+3] offset:24960  // lwoB_0_0_6_0
buffer_load_dwordx4 v[vgprG2LB+8:vgprG2LB+8+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+1] offen offset:0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+28:vgprG2LB+28+3] offset:29120  // lwoB_0_0_7_0
buffer_load_dwordx4 v[vgprG2LB+12:vgprG2LB+12+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+2] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+16:vgprG2LB+16+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+3] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+20:vgprG2LB+20+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+4] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+24:vgprG2LB+24+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+5] offen offset:0
buffer_load_dwordx4 v[vgprG2LB+28:vgprG2LB+28+3], v[vgprGlobalReadOffsetB+0], s[sgprSrdB:sgprSrdB+3], s[sgprScalarGlobalReadOffsetB+6] offen offset:0
s_sub_u32 s[sgprLoopCounterL], s[sgprLoopCounterL], 1 // dec counterL
s_cmp_eq_i32 s[sgprLoopCounterL], 0x2              // counterL==2
s_cbranch_scc0 label_LoopBeginL                    // restart LoopL
label_LoopEndL_even:
s_waitcnt vmcnt(8)
buffer_load_dwordx4 v[vgprValuA_X0_I0_1+0:vgprValuA_X0_I0_1+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], 0 offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0_1+0:vgprValuA_X2_I0_1+0+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+3] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X0_I0_1+4:vgprValuA_X0_I0_1+4+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+0] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0_1+4:vgprValuA_X2_I0_1+4+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+4] offen offset:0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+0:vgprG2LB+0+3] offset:0  // lwoB_0_0_0_0
buffer_load_dwordx4 v[vgprValuA_X0_I0_1+8:vgprValuA_X0_I0_1+8+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+1] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0_1+8:vgprValuA_X2_I0_1+8+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+5] offen offset:0
s_waitcnt vmcnt(12)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+4:vgprG2LB+4+3] offset:4160  // lwoB_0_0_1_0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+8:vgprG2LB+8+3] offset:8320  // lwoB_0_0_2_0
buffer_load_dwordx4 v[vgprValuA_X0_I0_1+12:vgprValuA_X0_I0_1+12+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+2] offen offset:0
buffer_load_dwordx4 v[vgprValuA_X2_I0_1+12:vgprValuA_X2_I0_1+12+3], v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], s[sgprScalarGlobalReadOffsetA+6] offen offset:0
s_waitcnt vmcnt(12)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+12:vgprG2LB+12+3] offset:12480  // lwoB_0_0_3_0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+16:vgprG2LB+16+3] offset:16640  // lwoB_0_0_4_0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+20:vgprG2LB+20+3] offset:20800  // lwoB_0_0_5_0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+24:vgprG2LB+24+3] offset:24960  // lwoB_0_0_6_0
s_waitcnt vmcnt(11)
ds_write_b128 v[vgprLocalWriteAddrB], v[vgprG2LB+28:vgprG2LB+28+3] offset:29120  // lwoB_0_0_7_0
s_branch label_PrefetchGlobalLastIterEnd
label_LoopEndL_odd_NoLoadLoop:
label_PrefetchGlobalLastIterEnd:
s_waitcnt vmcnt(0)
s_endpgm
"""

TAIL = KERNEL.index("label_LoopEndL_even:")


def _warnings(text: str) -> list:
    return [d for d in lint(parse(text, "tensile.s"), "gfx942") if d.severity == "warning"]


def _line(text: str, needle: str, nth: int = 0) -> int:
    return [i for i, ln in enumerate(text.splitlines(), 1) if needle in ln][nth]


def _tail_waits(text: str, counts: list[int]) -> str:
    """The tail with its last three B waits set to ``counts`` (the loop body is left alone)."""
    head, tail = text[:TAIL], text[TAIL:]
    for k, n in zip(("lwoB_0_0_5_0", "lwoB_0_0_6_0", "lwoB_0_0_7_0"), counts):
        i = tail.index(k)
        w = tail.rindex("s_waitcnt vmcnt(11)", 0, i)
        tail = tail[:w] + f"s_waitcnt vmcnt({n})" + tail[w + len("s_waitcnt vmcnt(11)"):]
    return head + tail


@pytest.mark.skipif(not HAVE_MC, reason="llvm-mc 22 not installed")
def test_excerpt_assembles():
    assert _assemble("gfx942", [("kernel", KERNEL)]) == []


def test_the_three_last_b_writes_of_the_tail_are_reported_with_the_count_they_need():
    ws = _warnings(KERNEL)
    assert {d.rule for d in ws} == {RULE}
    tail_writes = [_line(KERNEL, f"lwoB_0_0_{k}_0", 2) for k in (5, 6, 7)]
    assert [d.span.line for d in ws] == tail_writes
    # each names the 2nd-prefetch load of the register it reads, and the wait that would cover it
    loads = [_line(KERNEL, f"v[vgprG2LB+{r}:vgprG2LB+{r}+3], v[vgprGlobalReadOffsetB+0]", 1) for r in (20, 24, 28)]
    for d, load, need in zip(ws, loads, (10, 9, 8)):
        assert f"(line {load})" in d.message
        assert f"use vmcnt({need})" in d.notes[-1].message


def test_the_loop_body_with_the_same_waits_is_clean():
    """The same vmcnt(11) before the same writes is right in the loop, where a B read sits
    between each pair of writes: no warning lands before the tail."""
    assert all(d.span.line > _line(KERNEL, "label_LoopEndL_even:") for d in _warnings(KERNEL))


def test_the_reported_path_is_feasible_and_named():
    """LoopCounterL == 2: not 0 (prefetch done), not 1 (2nd prefetch issued), <= 2 (the tail)."""
    note = _warnings(KERNEL)[0].notes[-1].message
    assert f"takes the branch to label_NoBranch_IVWDN609MP1IS66Z_0 at line {_line(KERNEL, 's_cbranch_scc0 label_NoBranch')}" in note
    assert f"falls through the branch at line {_line(KERNEL, 's_cbranch_scc1 label_skipPGR2_0')}" in note
    assert f"takes the branch to label_LoopEndL_even at line {_line(KERNEL, 's_cbranch_scc1 label_LoopEndL_even')}" in note


def test_the_loop_exit_alone_has_the_same_under_wait():
    """Not a path artefact: with the short-cut into the tail removed, only the loop exit reaches
    it, and the same three writes are reported, now on the path through the loop."""
    text = KERNEL.replace("s_cbranch_scc1 label_LoopEndL_even                 // do not enter LoopL\n", "")
    ws = _warnings(text)
    assert [d.span.line for d in ws] == [_line(text, f"lwoB_0_0_{k}_0", 2) for k in (5, 6, 7)]
    back_edge = _line(text, "s_cbranch_scc0 label_LoopBeginL")
    assert all(f"falls through the branch at line {back_edge}" in d.notes[-1].message for d in ws)


def test_counting_down_as_the_sibling_kernels_do_is_clean():
    assert _warnings(_tail_waits(KERNEL, [10, 9, 8])) == []


@pytest.mark.parametrize("counts", [[11, 9, 8], [10, 10, 8], [10, 9, 9]])
def test_each_of_the_three_waits_is_needed(counts):
    text = _tail_waits(KERNEL, counts)
    k = [c == w for c, w in zip(counts, (10, 9, 8))].index(False)
    assert [d.span.line for d in _warnings(text)] == [_line(text, f"lwoB_0_0_{k + 5}_0", 2)]
