"""The debugger speaks the kernel's own names (issue 17): `info symbol`, `info line` and `print`
of register ranges written with `.set` symbols, as generated kernels allocate their registers."""
from __future__ import annotations

from test_debugger import batch, write

SYMBOLS = """\
.set v_c, 4
.set s_p, 2
\tv_mov_b32 v[v_c], 7
\tv_mov_b32 v[v_c+1], 8
\ts_endpgm
"""


def out(steps, command: str) -> str:
    return next(s.output for s in steps if s.command == command)


def test_info_symbol_gives_value_and_where_it_was_set(tmp_path):
    f = write(tmp_path, "sym.s", SYMBOLS)
    code, steps, _ = batch(tmp_path, f, "info symbol v_c", "info symbol", "info symbol v_cc")
    assert code == 1  # the unknown name is an error in a batch
    assert out(steps, "info symbol v_c").strip() == "v_c = 4 (0x4), last set at line 1"
    assert out(steps, "info symbol").splitlines() == ["s_p = 2 (0x2), last set at line 2",
                                                      "v_c = 4 (0x4), last set at line 1"]
    assert "no symbol 'v_cc' (did you mean `v_c`?)" in out(steps, "info symbol v_cc")


def test_info_line_shows_what_a_line_assembles_to(tmp_path):
    f = write(tmp_path, "sym.s", SYMBOLS)
    code, steps, _ = batch(tmp_path, f, "info line 3", "info line 2")
    assert out(steps, "info line 3").splitlines() == [
        "Line 3: 1 instruction", "  #0  v_mov_b32 v4, 7   (written: v_mov_b32 v[v_c], 7) <= the PC of this wave"]
    assert out(steps, "info line 2").strip() == "Line 2 holds no instruction; the next instruction is at line 3."


def test_print_takes_register_ranges_written_with_symbols(tmp_path):
    f = write(tmp_path, "sym.s", SYMBOLS)
    code, steps, _ = batch(tmp_path, f, "step 3", "print v[v_c:v_c+1]", "print v[v_c]", "print/d v[v_c+1][0:1]")
    assert code == 0
    assert out(steps, "print v[v_c:v_c+1]").splitlines() == ["v4 = 0x00000007 (all 64 lanes)",
                                                            "v5 = 0x00000008 (all 64 lanes)"]
    assert out(steps, "print v[v_c]").strip() == "v4 = 0x00000007 (all 64 lanes)"
    assert "[ 0] 8 8" in out(steps, "print/d v[v_c+1][0:1]")
