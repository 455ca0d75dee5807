"""`print` of a register whose newest write has not landed yet (issue 17).

A VALU result lands some cycles after issue. Stopped in between, the register is not "never
written": its value is on its way, and a VALU reader gets it through the interlock. `print`
shows that pending value with the producing line and landing cycle, and the old value that a
reader without the interlock (a VMEM/LDS address, an MFMA too soon) would still see.
"""
from __future__ import annotations

from test_debugger import batch, write

STRAIGHT = """\
\tv_mov_b32 v1, 5
\tv_lshlrev_b32 v2, 2, v0
\tv_mul_u32_u24 v1, v1, 3
\tv_add_u32 v3, v1, v2
\ts_endpgm
"""

LOAD = """\
// gcnemu:
//   buffer X: u32[64] = i * 10
//   arg: X
\ts_load_dwordx2 s[4:5], s[0:1], 0x0
\tv_lshlrev_b32 v2, 2, v0
\ts_waitcnt lgkmcnt(0)
\tglobal_load_dword v4, v2, s[4:5]
\tv_mov_b32 v5, 1
\ts_waitcnt vmcnt(0)
\ts_endpgm
"""


def output_of(steps, command: str) -> str:
    return next(s.output for s in steps if s.command == command)


def test_a_result_in_flight_shows_its_value_producer_and_landing_cycle(tmp_path):
    f = write(tmp_path, "straight.s", STRAIGHT)
    code, steps, _ = batch(tmp_path, f, "break 4", "continue", "print v3", "step", "print v3")
    assert code == 0
    # stopped at line 4 (cycle 8): line 2's v2 has landed, line 3's v1 is in flight
    out = output_of(steps, "print v3").splitlines()
    assert out[0] == "v3 = never written (poison) (all 64 lanes)"  # nothing writes v3 yet
    text = steps[-1].output
    assert text.startswith("v3: [in flight from line 4, lands @")
    assert "  [ 0] 0x0000000f 0x00000013 0x00000017" in text  # 15 + 4 * lane
    assert "a reader without the interlock" in text and "sees: never written (poison) (all 64 lanes)" in text


def test_the_old_value_is_shown_beside_the_pending_one_and_formats_apply_to_both(tmp_path):
    f = write(tmp_path, "straight.s", STRAIGHT)
    code, steps, _ = batch(tmp_path, f, "break 4", "continue", "print v1", "print/d v1[0:3]")
    assert code == 0
    pending, old = output_of(steps, "print v1").splitlines()
    assert pending.startswith("v1 = [in flight from line 3, lands @") and pending.endswith("0x0000000f (all 64 lanes)")
    assert old.endswith("sees: 0x00000005 (all 64 lanes)")
    lanes = output_of(steps, "print/d v1[0:3]")
    assert "[ 0] 15 15 15 15" in lanes and "sees:\n  [ 0] 5 5 5 5" in lanes


def test_once_it_lands_the_register_prints_plainly(tmp_path):
    f = write(tmp_path, "straight.s", STRAIGHT)
    code, steps, _ = batch(tmp_path, f, "break 5", "continue", "print v1")
    assert output_of(steps, "print v1").strip() == "v1 = 0x0000000f (all 64 lanes)"


def test_a_load_in_flight_says_its_value_comes_from_memory_when_it_lands(tmp_path):
    f = write(tmp_path, "load.s", LOAD)
    code, steps, _ = batch(tmp_path, f, "break 8", "continue", "print v4", "print v[4:5]", "step 2", "print v4")
    assert code == 0
    first = output_of(steps, "print v4").splitlines()
    assert first[0].startswith("v4 = [in flight from line 7, lands @")
    assert first[0].endswith("a load: its value is read from memory when it lands")
    assert first[1].endswith("sees: never written (poison) (all 64 lanes)")
    both = output_of(steps, "print v[4:5]")
    assert "v5" in both and "in flight from line 7" in both
    landed = steps[-1].output
    assert "in flight" not in landed and "[ 0] 0x00000000 0x0000000a 0x00000014" in landed
