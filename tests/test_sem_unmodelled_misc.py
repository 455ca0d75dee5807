"""Messages and cache maintenance run as timing only; the accvgpr alias spellings execute.

s_sendmsg/s_sendmsghalt, s_icache_inv, s_dcache_*, buffer_wbl2, buffer_inv, buffer_invl2 and
buffer_wbinvl1[_vol] change no register and no memory in gcnemu (its memory is coherent): a
program with one of them ends in exactly the state the same program without it ends in. They
still take time, and the vector ones count in vmcnt: an `s_waitcnt vmcnt(0)` after them waits.
"""
from __future__ import annotations

import numpy as np
import pytest

from semhelpers import run

LANE = np.arange(64)

# A little work around the instruction under test: a load, an ALU op, a store, a scalar write.
AROUND = """\
global_load_dword v1, v0, s[4:5]
s_mov_b32 s10, 77
{ins}
s_waitcnt vmcnt(0) lgkmcnt(0)
v_add_u32 v2, v1, v0
global_store_dword v0, v2, s[4:5] offset:256
s_waitcnt vmcnt(0)
"""

CASES = [  # (target, instruction, counted in vmcnt)
    ("gfx90a", "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)", False),
    ("gfx942", "s_sendmsg sendmsg(MSG_INTERRUPT)", False),
    ("gfx90a", "s_sendmsg 3", False),
    ("gfx90a", "s_icache_inv", False),
    ("gfx90a", "s_dcache_wb", False),
    ("gfx942", "s_dcache_inv", False),
    ("gfx90a", "buffer_wbl2", True),
    ("gfx942", "buffer_wbl2 sc0 sc1", True),
    ("gfx950", "buffer_wbl2 sc1", True),
    ("gfx942", "buffer_inv sc1", True),
    ("gfx950", "buffer_inv sc0 sc1", True),
    ("gfx90a", "buffer_invl2", True),
    ("gfx90a", "buffer_wbinvl1", True),
    ("gfx908", "buffer_wbinvl1_vol", True),
]


def state(r):
    w = r.w
    return (w.vgpr[:8].copy(), w.sgpr[:16].copy(), w.scc, r.sim.buffer("M", np.uint32).copy())


@pytest.mark.parametrize("target,ins,vm", CASES)
def test_timing_only_instructions_change_nothing_but_time(target, ins, vm):
    mem = np.arange(128, dtype=np.uint32) * 3
    args = dict(v={0: LANE * 4}, buffers={"M": (mem, "s[4:5]")})
    with_it = run(AROUND.format(ins=ins), target, **args)
    without = run(AROUND.format(ins="s_nop 0"), target, **args)
    for got, want in zip(state(with_it), state(without)):
        assert np.array_equal(got, want)
    assert np.array_equal(with_it.sim.buffer("M", np.uint32)[64:], mem[:64] + LANE * 4)
    assert not with_it.notes or ins.startswith("s_sendmsghalt")
    if vm:  # the instruction occupies the vector memory path and vmcnt
        alone = run(f"{ins}\ns_waitcnt vmcnt(0)", target).sim.cycles
        assert alone > run("s_nop 0\ns_waitcnt vmcnt(0)", target).sim.cycles + 50


def test_sendmsghalt_runs_on_and_says_the_halt_is_not_modelled():
    r = run("s_sendmsghalt sendmsg(MSG_INTERRUPT)\ns_mov_b32 s3, 5")
    assert r.s(3) == 5
    assert any("s_sendmsghalt" in n and "not modelled" in n for n in r.notes)


@pytest.mark.parametrize("target", ["gfx908", "gfx90a", "gfx942"])
def test_accvgpr_alias_spellings_move_data(target):
    vals = (LANE * 1000 + 7).astype(np.uint32)
    r = run("v_accvgpr_write a3, v1\nv_accvgpr_write a4, 5\ns_nop 1\nv_accvgpr_read v2, a3\nv_accvgpr_read v5, a4",
            target, v={1: vals})
    assert np.array_equal(r.a(3), vals) and np.array_equal(r.v(2), vals)
    assert (r.a(4) == 5).all() and (r.v(5) == 5).all()
