"""--hints: waits that buy nothing are pointed out; waits that are needed are not."""
from __future__ import annotations

from gcnemu.analysis.lint import lint
from gcnemu.asm.parse import parse


def hints(body: str, target: str = "gfx90a") -> list[tuple[str, int, str]]:
    text = "\t.text\nk:\n" + body
    return [(d.rule, d.span.line, d.message) for d in lint(parse(text, "h.s"), target, hints=True)
            if d.severity == "hint"]


def test_waitcnt_that_waits_for_nothing():
    (h,) = hints("\tglobal_load_dword v1, v[2:3], off\n\ts_waitcnt vmcnt(1)\n\ts_waitcnt vmcnt(0)\n"
                 "\tv_add_f32 v4, v1, v1\n\ts_endpgm\n")
    assert h[:2] == ("hint-waitcnt-noop", 4) and "vmcnt at most 1" in h[2]


def test_nop_longer_than_needed_and_one_not_needed_at_all():
    found = hints("\tv_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]\n\ts_nop 7\n\tv_add_f32 v10, v1, v11\n"
                  "\ts_nop 3\n\tv_add_f32 v12, v13, v14\n\ts_endpgm\n")
    assert [(r, ln) for r, ln, _ in found] == [("hint-nop-too-long", 4), ("hint-nop-too-long", 6)]
    assert "s_nop 4 is enough" in found[0][2]  # 2-pass MFMA -> VALU read needs 5
    assert "no hazard rule needs it" in found[1][2]


def test_exact_nop_is_not_a_hint():
    assert hints("\tv_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]\n\ts_nop 4\n\tv_add_f32 v10, v1, v11\n"
                 "\ts_endpgm\n") == []


def test_vmcnt_zero_where_a_larger_count_would_do():
    h, noop = hints("\tglobal_load_dword v1, v[2:3], off\n\tglobal_load_dword v5, v[2:3], off\n"
                    "\ts_waitcnt vmcnt(0)\n\tv_add_f32 v4, v1, v1\n\ts_waitcnt vmcnt(0)\n\tv_add_f32 v6, v5, v5\n"
                    "\ts_endpgm\n")
    assert h[:2] == ("hint-vmcnt-zero", 5) and "vmcnt(1) covers every later use" in h[2]
    # each hint is judged with the rest of the program as written: after the first vmcnt(0)
    # the second one has nothing left to wait for
    assert noop[:2] == ("hint-waitcnt-noop", 7)


def test_needed_vmcnt_zero_is_not_a_hint():
    assert hints("\tglobal_load_dword v1, v[2:3], off\n\tglobal_load_dword v5, v[2:3], off\n"
                 "\ts_waitcnt vmcnt(0)\n\tv_add_f32 v6, v5, v5\n\ts_endpgm\n") == []


def test_hints_are_off_by_default():
    text = "\t.text\nk:\n\ts_nop 7\n\ts_endpgm\n"
    assert lint(parse(text, "h.s"), "gfx90a") == []
    assert [d.rule for d in lint(parse(text, "h.s"), "gfx90a", hints=True)] == ["hint-nop-too-long"]
