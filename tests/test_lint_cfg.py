"""Hazards across basic blocks: branches, joins, loop back edges, unknown control flow.

The wait states between producer and consumer are counted on every path; the
worst path is the one reported, and the diagnostic says which edge it takes.
"""
from __future__ import annotations

from gcnemu.analysis.cfg import build_cfg
from gcnemu.analysis.classify import classify_all
from gcnemu.analysis.fix import fix_text
from gcnemu.analysis.lint import lint
from gcnemu.asm.parse import parse


def warnings(text: str, target: str = "gfx90a"):
    return [d for d in lint(parse(text, "k.s"), target) if d.severity == "warning"]


def cfg_of(text: str):
    prog = parse(text, "k.s")
    return build_cfg(classify_all(prog.instructions, "gfx90a"), prog.labels)


BRANCH = """\t.text
k:
\tv_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]
\ts_cbranch_scc1 short
\ts_nop 4
short:
\tv_add_f32 v10, v1, v11
\ts_endpgm
"""


def test_cfg_shape_of_a_conditional_branch():
    cfg = cfg_of(BRANCH)
    assert [(b.start, b.end) for b in cfg.blocks] == [(0, 2), (2, 3), (3, 5)]
    assert sorted(cfg.graph.edges) == [(0, 1), (0, 2), (1, 2)]
    assert cfg.edge_kind(0, 2) == "branch" and cfg.edge_kind(1, 2) == "fallthrough"


def test_worst_path_is_the_taken_branch_and_is_named():
    (d,) = warnings(BRANCH)
    assert d.rule == "xdl-result-valu-read" and d.span.line == 7
    # 2-pass MFMA needs 5: the fall-through path has 1 + 5 = 6, the taken branch only 1
    assert (d.extra["required_wait_states"], d.extra["provided_wait_states"]) == (5, 1)
    assert "the branch at line 4" in d.notes[-1].message


def test_enough_on_every_path_is_clean():
    assert warnings(BRANCH.replace("\ts_cbranch_scc1 short\n", "\ts_cbranch_scc1 short\n\ts_nop 0\n")
                    .replace("\ts_cbranch_scc1 short", "\ts_nop 3\n\ts_cbranch_scc1 short", 1)) == []


LOOP = """\t.text
k:
\ts_mov_b32 s2, 4
loop:
\tv_add_f32 v20, v1, v21
\tv_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]
\ts_sub_u32 s2, s2, 1
\ts_cmp_lg_u32 s2, 0
\ts_cbranch_scc1 loop
\ts_nop 15
\ts_nop 3
\tv_add_f32 v20, v1, v21
\ts_endpgm
"""


def test_loop_back_edge_hazard_is_found_and_named():
    (d,) = warnings(LOOP)
    assert d.span.line == 5 and d.rule == "xdl-result-valu-read"
    assert (d.extra["required_wait_states"], d.extra["provided_wait_states"]) == (19, 3)
    assert "loop back edge at line 9" in d.notes[-1].message
    assert d.notes[0].span.line == 6  # the producer is later in the file: the previous iteration


def test_loop_fix_puts_the_nop_inside_the_loop_even_with_the_label_on_the_line():
    text = LOOP.replace("loop:\n\tv_add_f32 v20, v1, v21", "loop:\tv_add_f32 v20, v1, v21")
    res = fix_text(text, "gfx90a", "k.s")
    assert res.remaining == []
    assert "loop:\ts_nop 15\n" in res.text  # after the label, so every iteration runs it
    assert warnings(res.text) == []


def test_single_block_loop_sees_its_own_instruction_from_the_last_iteration():
    text = """\t.text
k:
loop:
\tv_mfma_f32_4x4x1f32 v[0:3], v0, v80, v[8:11]
\ts_cbranch_scc1 loop
\ts_endpgm
"""
    (d,) = warnings(text)
    # the MFMA reads v0 (SrcA) that it wrote itself one iteration ago: 1 wait state of 5
    assert d.rule == "xdl-result-mfma-srcab" and d.span.line == 4 and d.notes[0].span.line == 4
    assert d.extra["provided_wait_states"] == 1


def test_counter_state_merges_at_joins():
    text = """\t.text
k:
\tglobal_load_dword v4, v[10:11], off
\ts_cbranch_scc1 skip
\ts_waitcnt vmcnt(0)
skip:
\tv_add_f32 v5, v4, v4
\ts_endpgm
"""
    (d,) = warnings(text)
    assert d.rule == "vmem-result-before-vmcnt" and d.span.line == 7


def test_counter_fixpoint_around_a_prefetch_loop():
    """Load for iteration i+1 is issued at the bottom; vmcnt(0) at the top covers it on both edges."""
    good = """\t.text
k:
\tglobal_load_dword v4, v[10:11], off
loop:
\ts_waitcnt vmcnt(0)
\tv_add_f32 v5, v4, v4
\tglobal_load_dword v4, v[10:11], off
\ts_cbranch_scc1 loop
\ts_waitcnt vmcnt(0)
\ts_endpgm
"""
    assert warnings(good) == []
    bad = good.replace("loop:\n\ts_waitcnt vmcnt(0)\n", "loop:\n\ts_waitcnt vmcnt(1)\n")
    (d,) = warnings(bad)
    assert d.rule == "vmem-result-before-vmcnt" and "use vmcnt(0)" in d.notes[-1].message


def test_indirect_jump_and_unknown_label_end_the_walk_without_error():
    text = """\t.text
k:
\ts_setpc_b64 s[0:1]
\tv_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]
\ts_branch external_symbol
\tv_add_f32 v10, v1, v11
\ts_endpgm
"""
    cfg = cfg_of(text)
    assert cfg.blocks[0].unknown_exit and cfg.succs(0) == []
    # the MFMA is not a predecessor of the v_add (s_branch to an unknown label), so no hazard
    assert warnings(text) == []


def test_two_kernels_in_one_file_do_not_leak_into_each_other():
    text = """\t.text
a:
\tv_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]
\ts_endpgm
b:
\tv_add_f32 v10, v1, v11
\ts_endpgm
"""
    assert warnings(text) == []
