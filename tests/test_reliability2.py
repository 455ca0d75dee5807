"""Defects of the second reliability campaign (issue 25), one regression test per item.

Each test is what a user types: a file and the CLI. The outcome is the right result, or an
llvm-mc style `file:line:col: error:` on the offending text with exit code 1, never a Python
traceback, a hang or a silently changed value. The test names carry the issue's item number.
"""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from gcnemu.cli import main


def write(tmp_path, text: str, name: str = "k.s") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return str(path)


def gcnemu(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


ENGINES = [(), ("--functional",)]
ENGINE_IDS = ["timed", "functional"]


# ---------------------------------------------------------------- 16. a branch to a data label

@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
@pytest.mark.parametrize("branch, data", [
    ("s_branch table", "table:\n  .long 1, 2, 3"),
    ("s_cbranch_scc1 table", ".rodata\ntable:\n  .long 1, 2, 3"),
    ("s_branch table", "table:"),
], ids=["text-data", "rodata", "end-of-code"])
def test_item16_branch_to_data_label_is_reported_at_the_branch(tmp_path, capsys, engine, branch, data):
    path = write(tmp_path, "; gcnemu:\n;   arch: gfx90a\n  s_cmp_eq_u32 s0, s0\n"
                 f"  {branch}\n  s_endpgm\n{data}\n")
    rc, out, err = gcnemu(capsys, "run", *engine, path)
    assert rc == 1
    assert f"{path}:4:3: error:" in err and "the branch target 'table' is data" in err
    assert "ran past the last instruction" not in err


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_item16_a_branch_to_a_code_label_after_data_still_runs(tmp_path, capsys, engine):
    path = write(tmp_path, """
        ; gcnemu:
        ;   arch: gfx90a
        ;   expect s1 = 7
          s_branch go
        table:
          .long 1, 2, 3
        go:
          s_mov_b32 s1, 7
          s_endpgm
        """)
    rc, out, err = gcnemu(capsys, "run", *engine, path)
    assert rc == 0, out + err


# ---------------------------------------------------------------- 6. --functional obeys the instruction limit

ENDLESS = """
    ; gcnemu:
    ;   arch: gfx90a
    ;   vgpr v1 = lane
    ;   expect v2 = lane
    {header}
    loop:
      v_mov_b32 v2, v1
      s_add_u32 s0, s0, 1
      s_branch loop
      s_endpgm
    """


def _stopped_in_the_loop(path: str, err: str, limit: int) -> None:
    line = open(path).read().splitlines().index("  s_branch loop") + 1
    assert f"{path}:{line}:3:" in err  # the loop's backward branch
    assert f"stopped after --max-instructions {limit} instructions: wave 0 is looping: s_branch (line {line})" in err


@pytest.mark.parametrize("how", ["option", "header"])
def test_item06_functional_run_stops_an_endless_loop_at_the_instruction_limit(tmp_path, capsys, how):
    header = ";   max-instructions: 900" if how == "header" else ""
    path = write(tmp_path, ENDLESS.format(header=header))
    option = ("--max-instructions", "900") if how == "option" else ()
    rc, out, err = gcnemu(capsys, "run", "--functional", *option, path)
    assert rc == 1
    _stopped_in_the_loop(path, err, 900)
    rc, out, err = gcnemu(capsys, "run", *option, path)  # the timed engine: the same words
    assert rc == 1
    _stopped_in_the_loop(path, err, 900)


def test_item06_gcnemu_test_of_a_functional_snippet_stops_at_the_header_limit(tmp_path, capsys):
    path = write(tmp_path, ENDLESS.format(header=";   mode: functional\n    ;   max-instructions: 600"))
    rc, out, err = gcnemu(capsys, "test", path)
    assert rc == 1 and "FAIL" in out
    _stopped_in_the_loop(path, out + err, 600)


def test_item06_functional_run_applies_the_default_instruction_limit(tmp_path, capsys, monkeypatch):
    import gcnemu.sim.engine as engine
    monkeypatch.setattr(engine, "DEFAULT_MAX_INSTRUCTIONS", 700)  # the default, small enough to reach fast
    path = write(tmp_path, ENDLESS.format(header=""))
    rc, out, err = gcnemu(capsys, "run", "--functional", path)
    assert rc == 1
    _stopped_in_the_loop(path, err, 700)


def test_item06_a_grid_may_run_the_limit_in_every_workgroup(tmp_path, capsys):
    path = write(tmp_path, """
        ; gcnemu:
        ;   arch: gfx90a
        ;   expect s0 = 100
          s_mov_b32 s0, 0
        loop:
          s_add_u32 s0, s0, 1
          s_cmp_lt_u32 s0, 100
          s_cbranch_scc1 loop
          s_endpgm
        """)
    # 302 instructions per workgroup: under a limit of 350 each, not of 350 for the grid
    rc, out, err = gcnemu(capsys, "run", "--functional", "--grid", "4", "--max-instructions", "350", path)
    assert rc == 0, out + err


# ---------------------------------------------------------------- 5. a float for an integer argument

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
HIPCC = ROOT / "programs" / "hipcc_save_temps_gfx90a.s"
BY_VALUE = "      - .offset:         24\n        .size:           4\n        .value_kind:     by_value\n"


def _hipcc_copy(tmp_path, type_name: str | None = None, args: str | None = None) -> str:
    text = HIPCC.read_text()
    assert BY_VALUE in text
    if type_name is not None:  # hipcc writes .type_name with -fhip-kernel-arg-name; this copy has one
        text = text.replace(BY_VALUE, BY_VALUE + f"        .type_name:      {type_name}\n")
    if args is not None:
        text = text.replace("//   arg: a=A, b=B, c=C, n=100", f"//   arg: {args}")
    path = tmp_path / "hipcc.s"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("command", ["run", "step"])
def test_item05_a_float_for_a_hidden_integer_argument_is_an_error_naming_it(tmp_path, capsys, command):
    path = _hipcc_copy(tmp_path)
    extra = ("--batch", "/dev/null") if command == "step" else ()
    rc, out, err = gcnemu(capsys, command, path, "--arg", "hidden_group_size_x=1.5", *extra)
    assert rc == 1
    assert "<command line>:1:7: error:" in err
    assert "argument 'hidden_group_size_x' is a 2-byte integer (hidden_group_size_x): the float 1.5 is not one" in err


def test_item05_a_float_in_the_header_for_an_integer_argument_is_an_error_at_it(tmp_path, capsys):
    path = _hipcc_copy(tmp_path, args="a=A, b=B, c=C, n=100, hidden_block_count_y=2.0")
    rc, out, err = gcnemu(capsys, "test", path)
    assert rc == 1
    assert f"{path}:28:33: error:" in out + err and "'hidden_block_count_y' is a 4-byte integer" in out + err


@pytest.mark.parametrize("type_name, ok", [("int", False), ("unsigned int", False), ("uint32_t", False),
                                           ("float", True)])
def test_item05_a_typed_by_value_argument_takes_a_float_only_when_its_type_is_one(tmp_path, capsys, type_name, ok):
    path = _hipcc_copy(tmp_path, type_name)
    rc, out, err = gcnemu(capsys, "run", path, "--arg", "n=100.5")
    if ok:  # a float n's bits are a large count: the run goes on (its expectations are another matter)
        assert "is a 4-byte integer" not in err
    else:
        assert rc == 1 and f"argument 'n' is a 4-byte integer ('{type_name}'): the float 100.5 is not one" in err


def test_item05_integer_arguments_given_as_integers_still_run(tmp_path, capsys):
    path = _hipcc_copy(tmp_path, "int")
    rc, out, err = gcnemu(capsys, "run", path, "--arg", "hidden_group_size_x=64", "--arg", "n=100")
    assert rc == 0, out + err


# ---------------------------------------------------------------- 12. a latency above 2^20 in --latency-file

VECTOR_ADD = str(ROOT / "programs" / "vector_add.s")


@pytest.mark.parametrize("command", ["run", "step", "timeline"])
@pytest.mark.parametrize("toml, line, message", [
    ("[latency]\nlds = 32\nvmem = 2000000\n", 3, "latency 'vmem' must be from 0 to 1048576 cycles, got 2000000"),
    ("[latency]\nissue_interval = 0\n", 2, "latency 'issue_interval' must be from 1 to 1048576 cycles, got 0"),
    ('[[memory]]\nbuffer = "A"\nvmem = 5\n[[memory]]\nbuffer = "B"\nvmem = 1048577\n', 6,
     "[[memory]] entry 2: vmem must be from 0 to 1048576 cycles, got 1048577"),
], ids=["latency", "rate", "memory"])
def test_item12_an_out_of_range_latency_file_value_is_a_file_line_error_in_every_command(
        tmp_path, capsys, command, toml, line, message):
    lat = tmp_path / "lat.toml"
    lat.write_text(toml)
    extra = ("--batch", "/dev/null") if command == "step" else ()
    rc, out, err = gcnemu(capsys, command, VECTOR_ADD, "--latency-file", str(lat), *extra)
    assert rc == 1
    assert f"{lat}:{line}:" in err and f"error: {message}" in err


# ---------------------------------------------------------------- 15. .include of /dev/null and other special files

def _including(tmp_path, name: str) -> str:
    return write(tmp_path, f"""
        ; gcnemu:
        ;   arch: gfx90a
        ;   expect s1 = 5
        .include "{name}"
          s_mov_b32 s1, 5
          s_endpgm
        """)


@pytest.mark.parametrize("name", ["/dev/null", "/proc/self/status"], ids=["dev-null", "proc-file"])
def test_item15_include_of_dev_null_is_an_empty_include_as_in_llvm_mc(tmp_path, capsys, name):
    # llvm-mc 22 opens any file but a folder; a /proc file's size is 0, so llvm-mc reads it empty
    import os
    if not os.path.exists(name):
        pytest.skip(f"no {name} here")
    path = _including(tmp_path, name)
    rc, out, err = gcnemu(capsys, "check", path)
    assert rc == 0 and "error" not in out + err
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 0, out + err


def test_item15_include_of_an_endless_device_is_an_error_not_a_hang(tmp_path, capsys):
    import os
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    path = _including(tmp_path, "/dev/zero")  # llvm-mc reads it until it runs out of memory
    rc, out, err = gcnemu(capsys, "check", path)
    assert rc == 1 and f"{path}:4:10: error: cannot read include file '/dev/zero'" in err


def test_item15_include_of_a_folder_is_still_not_found(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    path = _including(tmp_path, "sub")
    rc, out, err = gcnemu(capsys, "check", path)
    assert rc == 1 and "Could not find include file 'sub'" in err


def test_item15_include_of_a_pipe_with_no_writer_is_empty_not_a_hang(tmp_path, capsys):
    import os
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    os.mkfifo(tmp_path / "pipe")
    path = _including(tmp_path, "pipe")
    rc, out, err = gcnemu(capsys, "check", path)
    assert rc == 0, out + err


# ---------------------------------------------------------------- 11. v_dot2 with a NaN or infinite term

QNAN, INF, NINF = 0x7FC00000, 0x7F800000, 0xFF800000
# halves: 1, 2, inf, the largest finite and the smallest normal (big*big + small*small needs more
# than float64's 53 bits: the exact path that once raised on a NaN or infinite accumulator)
HALF = {"f16": {"one": 0x3C00, "two": 0x4000, "inf": 0x7C00, "big": 0x7BFF, "small": 0x0400},
        "bf16": {"one": 0x3F80, "two": 0x4000, "inf": 0x7F80, "big": 0x7F7F, "small": 0x0080}}
DOTS = [("gfx90a", "v_dot2_f32_f16 v3, v1, v2, v4", "f16"), ("gfx90a", "v_dot2c_f32_f16 v4, v1, v2", "f16"),
        ("gfx950", "v_dot2_f32_bf16 v3, v1, v2, v4", "bf16"), ("gfx950", "v_dot2c_f32_bf16 v4, v1, v2", "bf16")]


def _dot(tmp_path, arch: str, instruction: str, a: tuple, b: tuple, c: int, functional: bool) -> int:
    """The f32 bits v_dot2 gives for (a.lo, a.hi) . (b.lo, b.hi) + c, in lane 0."""
    from gcnemu.grid import GridJob, run_functional
    from gcnemu.snippets.runner import load_snippet
    path = write(tmp_path, f"""
        ; gcnemu:
        ;   arch: {arch}
          v_mov_b32 v1, 0x{(a[1] << 16) | a[0]:x}
          v_mov_b32 v2, 0x{(b[1] << 16) | b[0]:x}
          v_mov_b32 v4, 0x{c:x}
          {instruction}
          s_nop 7
          s_endpgm
        """)
    snippet = load_snippet(path)
    if functional:
        sim, _ = run_functional(snippet, snippet.kernel(), None, GridJob(path, None))
    else:
        sim = snippet.simulate()
    assert sim.error is None, sim.error
    dst = 3 if ", v4" in instruction.split(",", 1)[1] else 4
    return int(sim.wave(0).v[dst][0])


@pytest.mark.parametrize("functional", [False, True], ids=ENGINE_IDS)
@pytest.mark.parametrize("arch, instruction, kind", DOTS, ids=[d[1].split()[0] for d in DOTS])
def test_item11_dot2_with_a_nan_or_inf_accumulator_gives_the_ieee_result(tmp_path, arch, instruction, kind, functional):
    h = HALF[kind]
    one, two, inf, big, small = h["one"], h["two"], h["inf"], h["big"], h["small"]

    def dot(a, b, c):
        return _dot(tmp_path, arch, instruction, a, b, c, functional)
    for a, b in (((one, one), (two, two)), ((big, small), (big, small))):  # a plain and a wide sum
        assert dot(a, b, QNAN) == QNAN  # NaN propagates
        assert dot(a, b, INF) == INF
        assert dot(a, b, NINF) == NINF
    assert np.isnan(np.uint32(dot((one, inf), (two, two), NINF)).view(np.float32))  # 2 + inf - inf
    assert np.isnan(np.uint32(dot((big, inf), (big, two), NINF)).view(np.float32))
    assert dot((one, inf), (two, two), INF) == INF  # 2 + inf + inf
    assert dot((one, inf), (two, two), 0x3F800000) == INF  # 2 + inf + 1
    assert dot((one, one), (two, two), 0x3F800000) == 0x40A00000  # 1*2 + 1*2 + 1 = 5: finite sums unchanged


# ---------------------------------------------------------------- 1. a transcendental overwritten by a later VALU op

def _both_engines(path: str, latencies: dict | None = None):
    """(timed, functional) Simulations of one snippet, the timed one with these latencies."""
    from gcnemu.grid import GridJob, run_functional
    from gcnemu.snippets.runner import load_snippet
    snippet = load_snippet(path)
    timed = snippet.simulate(None, latencies)
    functional, _ = run_functional(snippet, snippet.kernel(), None, GridJob(path, None))
    assert timed.error is None and functional.error is None
    return timed, functional


TRANS_OVERWRITES = [  # (transcendental, its destination's first register)
    ("v_sqrt_f32 v10, v26", 10), ("v_rcp_f32 v10, v26", 10), ("v_rsq_f32 v10, v26", 10),
    ("v_exp_f32 v10, v26", 10), ("v_log_f32 v10, v26", 10), ("v_cos_f32 v10, v26", 10),
    ("v_sqrt_f16 v10, v26", 10), ("v_rcp_f16 v10, v26", 10), ("v_exp_f16 v10, v26", 10),
    ("v_sqrt_f64 v[10:11], v[26:27]", 10), ("v_rcp_f64 v[10:11], v[26:27]", 10), ("v_rsq_f64 v[10:11], v[26:27]", 11),
]


@pytest.mark.parametrize("latencies", [None, {"valu_trans": 64, "valu": 1}], ids=["default", "slow-trans"])
@pytest.mark.parametrize("arch", ["gfx90a", "gfx942"])
@pytest.mark.parametrize("trans, reg", TRANS_OVERWRITES, ids=[t.split()[0] for t, _ in TRANS_OVERWRITES])
def test_item01_trans_waw_the_later_valu_write_wins_in_both_engines(tmp_path, arch, trans, reg, latencies):
    path = write(tmp_path, f"""
        ; gcnemu:
        ;   arch: {arch}
        ;   vgpr v26 = lane + 4.0 : f32
        ;   vgpr v27 = 0x40100000
        ;   vgpr v31 = lane * 3 + 1
          {trans}
          v_mov_b32 v{reg}, v31
          s_nop 7
          s_nop 7
          s_endpgm
        """)
    timed, functional = _both_engines(path, latencies)
    later = np.arange(64, dtype=np.uint32) * 3 + 1
    assert np.array_equal(timed.wave(0).v[reg], later), "the transcendental's result replaced the later write"
    assert np.array_equal(functional.wave(0).v[reg], later)
    assert not timed.engine.hazards


def test_item01_alu_write_back_stays_in_program_order_whatever_the_latencies(tmp_path):
    # a VALU result (v_readfirstlane, 30 cycles here) and a younger SALU write of the same SGPR:
    # the SALU value is the one left, as in the functional engine
    path = write(tmp_path, """
        ; gcnemu:
        ;   arch: gfx90a
        ;   vgpr v1 = 3
          v_readfirstlane_b32 s5, v1
          s_mov_b32 s5, 7
          s_nop 7
          s_endpgm
        """)
    timed, functional = _both_engines(path, {"valu": 30})
    assert int(timed.wave(0).sgpr[5]) == int(functional.wave(0).sgpr[5]) == 7
