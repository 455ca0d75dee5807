"""Snippet headers: how a header becomes a Setup, and how expectations judge a run.

Each test writes a small snippet, so the header syntax it relies on is visible in the test.
"""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from gcnemu import parse
from gcnemu.asm.diagnostics import GcnemuError, render
from gcnemu.setup import buffer_descriptor
from gcnemu.snippets.expectations import check
from gcnemu.snippets.runner import load_snippet
from gcnemu.snippets.header import scan_directives
from gcnemu.snippets.launch import setup_from_program


def write(tmp_path, text: str, name: str = "k.s") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return str(path)


def run(tmp_path, text: str, **kw):
    snippet = load_snippet(write(tmp_path, text), **kw)
    sim = snippet.simulate()
    return snippet, sim, check(snippet, sim)


def header_error(tmp_path, text: str) -> tuple[str, object]:
    path = write(tmp_path, text)
    with pytest.raises(GcnemuError) as info:
        load_snippet(path)
    d = info.value.diagnostics[0]
    lines = open(path).read().split("\n")
    return render(d, lines), d.span


# ---------------------------------------------------------------- the block rules


def test_block_opens_at_gcnemu_and_ends_at_the_first_non_comment_line():
    prog = parse(textwrap.dedent("""
        ; a prose comment mentioning buffer A: ignored, no block is open
        ; gcnemu: arch: gfx942
        ;   workgroup: 128     # a note
        ;   # a note line
        ;
        ;   waves: 2
        s_endpgm
        ; expect this is prose again: the block ended at s_endpgm
        // gcnemu:
        //   expect s5 = 1
        ;   end
        ; end closed nothing here, prose again
          s_nop 0 ; gcnemu: expect hazards: none
    """).lstrip("\n"), "k.s")
    ds = scan_directives(prog.lines, "k.s")
    assert [(d.key, d.line, d.trailing) for d in ds] == [
        ("arch", 2, False), ("workgroup", 3, False), ("waves", 6, False), ("expect", 10, False),
        ("expect", 13, True)]
    assert ds[1].src.text == "workgroup: 128"
    assert ds[1].src.col == 5


def test_end_closes_a_block():
    prog = parse("; gcnemu:\n;   waves: 1\n; end\n; waves: nonsense\n s_endpgm\n", "k.s")
    assert [d.key for d in scan_directives(prog.lines, "k.s")] == ["waves"]


def test_unknown_statement_is_an_error_at_its_column(tmp_path):
    text, span = header_error(tmp_path, """
        ; gcnemu:
        ;   expct v1 = 0
          s_endpgm
    """)
    assert (span.line, span.column) == (2, 5)
    assert "unknown header statement 'expct'; did you mean 'expect'?" in text
    assert text.splitlines()[1:] == [";   expct v1 = 0", "    ^~~~~"]


def test_bad_expression_points_into_the_expression(tmp_path):
    text, span = header_error(tmp_path, """
        ; gcnemu:
        ;   buffer A: f32[64] = rnd(seed=1) -> s[4:5]
          s_endpgm
    """)
    assert text.startswith(f"{tmp_path}/k.s:2:25: error: unknown function 'rnd'; did you mean 'rand'?")
    assert text.splitlines()[2] == " " * 24 + "^~~~~~~~~~~"


@pytest.mark.parametrize("line, words, col", [
    ("buffer v1: f32[4]", "cannot name a buffer", 12),
    ("buffer A: f31[4]", "expected a type", 15),
    ("buffer A: f32[4] -> s[5:6]", "aligned SGPR pair", 25),
    ("buffer A: f32[4] -> rsrc s[8:10]", "four aligned SGPRs", 25),
    ("vgpr s5 = 1", "is not a VGPR", 10),
    ("vgpr v300 = 1", "out of range", 10),
    ("workgroup: 2000", "at most 1024", 16),
    ("arch: gfx1100", "unknown target", 11),
    ("expect v1 = lane : lanes 0..70", "lanes are 0..63", 30),
    ("expect v1 = lane : f33", "unknown option 'f33'", 24),
    ("expect cycles: lots", "cycles: expected N", 20),
    ("expect hazards: some", "expect hazards: none", 21),
    ("latency: vram=3", "unknown latency 'vram'", 14),
    ("arg: n=__import__('os')", "cannot run Python code", 12),
    ("expect C = A.T", "attribute access", 17),
    ("vgpr v1 = 9**9**9", "exponent too large", 15),
    ("buffer A: f32[4] = zeros(10**12)", "larger than the limit", 24),
    ("buffer B: f32[100000,1000]", "limited to 4194304 elements", 19),
])
def test_bad_header_lines_give_llvm_mc_style_errors(tmp_path, line, words, col):
    text, span = header_error(tmp_path, f"; gcnemu:\n;   buffer A: f32[4]\n;   {line}\n  s_endpgm\n")
    assert words in text
    assert (span.line, span.column) == (3, col)


# ---------------------------------------------------------------- setup


def test_setup_from_program_builds_buffers_args_registers_and_lds():
    prog = parse(textwrap.dedent("""
        ; gcnemu:
        ;   workgroup: 16x8
        ;   workgroup-id: 3
        ;   buffer A: f32[2,3] = i * 0.5 -> s[4:5]
        ;   buffer B: u32[4] = -1 -> rsrc s[8:11] stride 16
        ;   arg: A, B, n=7, alpha=0.25
        ;   sgpr s20 = 0x100
        ;   sgpr s[22:23] = 0x1_0000_0002
        ;   sgpr m0 = 0x10000
        ;   vgpr v5 = lane * 4
        ;   vgpr v6 = lane * 0.5
        ;   vgpr v[8:9] = 0x1_0000_0003
        ;   lds[8]: u16[2] = [1, 2]
        s_endpgm
    """), "k.s")
    setup = setup_from_program(prog, "gfx90a")
    assert setup.workgroup_size == (16, 8, 1) and setup.num_waves == 2
    assert setup.workgroup_id == (3, 0, 0)
    a, b = setup.buffers
    assert a.name == "A" and a.sgpr == "s[4:5]" and a.data.dtype == np.float32
    assert a.data.tolist() == [[0, 0.5, 1], [1.5, 2, 2.5]]
    assert b.rsrc == "s[8:11]" and b.stride == 16 and b.data.tolist() == [0xFFFFFFFF] * 4
    assert setup.args == [("A", "A"), ("B", "B"), ("n", 7), ("alpha", 0.25)]
    assert setup.sgprs == {"s20": 0x100, "s[22:23]": 0x100000002, "s124": 0x10000}
    assert setup.vgprs["v5"].tolist() == list(range(0, 256, 4))
    assert setup.vgprs["v6"].view(np.float32)[3] == 1.5
    assert setup.vgprs["v8"].tolist() == [3] * 64 and setup.vgprs["v9"].tolist() == [1] * 64
    assert setup.lds_init.tolist() == [0] * 8 + [1, 0, 2, 0]


def test_the_launch_puts_addresses_and_descriptors_where_the_header_says(tmp_path):
    snippet, sim, failures = run(tmp_path, """
        ; gcnemu:
        ;   buffer A: u32[16] = i -> s[4:5]
        ;   buffer B: u8[40] -> rsrc s[8:11]
        ;   arg: B, A, n=5
          s_endpgm
    """)
    w = sim.wave(0)
    base_a, base_b = sim.buffer_address("A"), sim.buffer_address("B")
    assert w.scalar64(4) == base_a
    assert list(w.sgpr[8:12]) == buffer_descriptor(base_b, 40)
    kernarg = w.scalar64(0)
    raw = sim.memory.read_scalar(kernarg, 20)
    assert int.from_bytes(raw[0:8].tobytes(), "little") == base_b
    assert int.from_bytes(raw[8:16].tobytes(), "little") == base_a
    assert int.from_bytes(raw[16:20].tobytes(), "little") == 5


def test_values_that_depend_on_the_wave_reach_each_wave(tmp_path):
    snippet, sim, failures = run(tmp_path, """
        ; gcnemu:
        ;   workgroup: 192
        ;   vgpr v3 = tid
        ;   sgpr s9 = wave * 10
        ;   agpr a2 = lane + wave
        ;   expect v3 = tid
        ;   expect s9 = wave * 10
        ;   expect a2 = lane + wave
          s_endpgm
    """)
    assert failures == []
    assert sim.wave(2).v[3][5] == 133 and sim.wave(1).s[9] == 10 and sim.wave(2).a[2][1] == 3


def test_later_statements_override_earlier_ones(tmp_path):
    snippet = load_snippet(write(tmp_path, """
        ; gcnemu:
        ;   buffer A: u32[4] = 1
        ;   arg: A, n=1
        ;   vgpr v1 = 1
        ; gcnemu:
        ;   buffer A: u32[8] = 2
        ;   arg: n=2
        ;   vgpr v1 = 2
          s_endpgm
    """))
    assert len(snippet.setup.buffers) == 1 and snippet.setup.buffers[0].data.tolist() == [2] * 8
    assert snippet.setup.args == [("A", "A"), ("n", 2)]
    assert snippet.setup.vgprs["v1"][0] == 2


def test_target_choice_arch_option_then_header_then_directive(tmp_path):
    body = '; gcnemu: arch: gfx942\n.amdgcn_target "amdgcn-amd-amdhsa--gfx908"\n  s_endpgm\n'
    path = write(tmp_path, body)
    assert load_snippet(path).target == "gfx942"
    assert load_snippet(path, arch="gfx950").target == "gfx950"
    path2 = write(tmp_path, '; gcnemu: waves: 1\n.amdgcn_target "amdgcn-amd-amdhsa--gfx908"\n  s_endpgm\n', "j.s")
    assert load_snippet(path2).target == "gfx908"


def test_npy_sidecar_contents(tmp_path):
    np.save(tmp_path / "w.npy", np.arange(8, dtype=np.float32))
    snippet, sim, failures = run(tmp_path, """
        ; gcnemu:
        ;   buffer W: f32[8] = npy("w.npy")
        ;   expect W = arange(8)
        ;   expect W = npy("w.npy")
          s_endpgm
    """)
    assert failures == []


# ---------------------------------------------------------------- checking


COPY = """
    ; gcnemu:
    ;   buffer A: u32[64] = i * 3 -> s[4:5]
    ;   buffer C: u32[64] = 0 -> s[6:7]
    ;   vgpr v1 = lane * 4
    ;   expect v2 = lane * 3
    ;   expect v3 = lane * 3 + 5
    ;   expect C = A + 5
    ;   expect C[0:4] = [5, 8, 11, 14]
    ;   expect s8 = 12
    ;   expect vmcnt: 1
    ;   expect hazards: none
      global_load_dword v2, v1, s[4:5]
      s_mov_b32 s8, 12
      s_waitcnt vmcnt(0)
      v_add_u32 v3, 5, v2
      global_store_dword v1, v3, s[6:7]
      s_endpgm
"""


def test_a_correct_snippet_passes(tmp_path):
    snippet, sim, failures = run(tmp_path, COPY)
    assert sim.error is None
    assert [f.message for f in failures] == []


def test_a_broken_snippet_fails_with_a_readable_diff(tmp_path):
    broken = COPY.replace("v_add_u32 v3, 5, v2", "v_add_u32 v3, 6, v2")
    snippet, sim, failures = run(tmp_path, broken)
    text = "\n".join(f.render(snippet.program.lines) for f in failures)
    assert [f.message for f in failures] == [
        "v3 (u32): 64 of 64 lanes differ",
        "C (u32): 64 of 64 elements differ",
        "C[0:4] (u32): 4 of 4 elements differ",
    ]
    assert f"{tmp_path}/k.s:6:5: error: v3 (u32): 64 of 64 lanes differ" in text
    assert "\n".join(failures[0].details[:3]) == "\n".join([
        "lane  expected  actual",
        "   0         5       6",
        "   1         8       9",
    ])
    assert failures[1].details[1].split() == ["[0]", "5", "6"]


def test_typed_views_and_tolerance(tmp_path):
    text = """
        ; gcnemu:
        ;   vgpr v1 = lane * 0.1 : f32
        ;   vgpr v2 = lane * 0.5 : f16
        ;   vgpr v3 = -lane : i32
        ;   vgpr v[4:5] = lane * 2**40 : u64
        ;   vgpr v6 = 1.5 : bf16
        ;   expect v1 = lane * 0.1 + 1e-4 : f32, tol 1e-3
        ;   expect v2 = lane * 0.5 : f16
        ;   expect v3 = -lane : i32
        ;   expect v3 = 2**32 - lane : u32, lanes 1..63
        ;   expect v[4:5] = lane * 2**40 : u64
        ;   expect v5 = lane * 256
        ;   expect v6 = 1.5 : bf16
          s_endpgm
    """
    snippet, sim, failures = run(tmp_path, text)
    assert failures == []
    snippet, sim, failures = run(tmp_path, text.replace("tol 1e-3", "tol 1e-5"))
    assert [f.message for f in failures] == ["v1 (f32): 64 of 64 lanes differ"]


def test_lanes_waves_and_the_inactive_lanes_of_a_partial_wave(tmp_path):
    snippet, sim, failures = run(tmp_path, """
        ; gcnemu:
        ;   workgroup: 96
        ;   expect v0 = tid
        ;   expect exec = 2**32 - 1 : waves 1
        ;   expect exec = 2**64 - 1 : wave 0
        ;   expect v0 = 7 : lanes 7, wave 0
          s_endpgm
    """)
    assert failures == []  # wave 1's lanes 32..63 hold no work-item and are not checked


def test_lds_and_counter_expectations(tmp_path):
    snippet, sim, failures = run(tmp_path, """
        ; gcnemu:
        ;   lds: u32[64] = i + 100
        ;   vgpr v1 = lane * 4
        ;   expect v2 = lane + 100
        ;   expect lds[0x100]: u32[64] = i + 100
        ;   expect lgkmcnt: 1
        ;   expect instructions: 4
          ds_read_b32 v2, v1
          s_waitcnt lgkmcnt(0)
          ds_write_b32 v1, v2 offset:256
          s_endpgm
    """)
    assert [f.message for f in failures] == []


def test_expected_hazards_exactly_and_their_absence(tmp_path):
    base = """
        ; gcnemu:
        ;   buffer A: u32[64] = i -> s[4:5]
        ;   vgpr v1 = lane * 4
        ;   EXPECT
          global_load_dword v2, v1, s[4:5]
          v_add_u32 v3, v2, v2
          s_endpgm
    """
    ok = base.replace("EXPECT", "expect hazard vmem-result-before-vmcnt at 7\n;   "
                                "expect hazard vmem-result-before-vmcnt at 7")
    assert run(tmp_path, ok)[2] == []
    any_line = base.replace("EXPECT", "expect hazard vmem-result-before-vmcnt\n;   "
                                      "expect hazard vmem-result-before-vmcnt")
    assert run(tmp_path, any_line)[2] == []
    none = [f.message for f in run(tmp_path, base.replace("EXPECT", "expect hazards: none"))[2]]
    assert "unexpected hazard 'vmem-result-before-vmcnt' at line 6" in none
    guard = [f.message for f in run(tmp_path, base.replace("EXPECT", "expect no hazard vmem-result-before-vmcnt"))[2]]
    assert guard == ["hazard 'vmem-result-before-vmcnt' at line 6 was expected to be absent"]
    wrong_line = base.replace("EXPECT", "expect hazard vmem-result-before-vmcnt at 5")
    msgs = [f.message for f in run(tmp_path, wrong_line)[2]]
    assert "expected hazard 'vmem-result-before-vmcnt' at line 5 was not found" in msgs


def test_trailing_hazard_expectation_means_this_line(tmp_path):
    snippet, sim, failures = run(tmp_path, """
        ; gcnemu:
        ;   buffer A: u32[64] = i -> s[4:5]
        ;   vgpr v1 = lane * 4
        ;   expect hazard vmem-result-before-vmcnt at 6
          global_load_dword v2, v1, s[4:5]
          v_add_u32 v3, v2, v2      ; gcnemu: expect hazard vmem-result-before-vmcnt
          s_endpgm
    """)
    assert failures == []


def test_cycle_expectations(tmp_path):
    text = "; gcnemu:\n;   expect cycles: CYC\n  s_nop 3\n  s_endpgm\n"
    c = run(tmp_path, text.replace("CYC", "0..100000"))[1].cycles
    assert run(tmp_path, text.replace("CYC", str(c)))[2] == []
    assert run(tmp_path, text.replace("CYC", f"<= {c}"))[2] == []
    msgs = [f.message for f in run(tmp_path, text.replace("CYC", f"{c + 1}..{c + 5}"))[2]]
    assert msgs == [f"cycles: {c}, expected {c + 1}..{c + 5}"]


def test_runtime_errors_fail_unless_expected(tmp_path):
    text = """
        ; gcnemu:
        ;   buffer A: u32[4] -> s[4:5]
        ;   vgpr v1 = lane * 4
        ;   EXPECT
          global_load_dword v2, v1, s[4:5]
          s_endpgm
    """
    msgs = [f.message for f in run(tmp_path, text.replace("EXPECT", "expect v1 = 0"))[2]]
    assert len(msgs) == 1 and msgs[0].startswith("the run stopped with an error: ")
    assert run(tmp_path, text.replace("EXPECT", "expect error: is not in any allocated buffer"))[2] == []


def test_never_written_registers_are_marked(tmp_path):
    snippet, sim, failures = run(tmp_path, "; gcnemu:\n;   expect v9 = 0\n  s_endpgm\n")
    assert failures[0].details[1].endswith("(never written)")
    assert failures[0].details[1].split()[0] == "0..63"


def test_timing_figures_are_expectations_with_ranges(tmp_path):
    """MFMA utilisation and stall cycles per wave can be pinned to ranges like cycles."""
    from gcnemu.snippets.expectations import check
    from gcnemu.snippets.runner import load_snippet
    src = """; gcnemu:
;   arch: gfx90a
;   expect mfma-utilisation: 0.9..1.0
;   expect stall waitcnt vmcnt: 0..10
;   expect stall nop: <= 100
v_mov_b32 v1, 1.0
v_mov_b32 v2, 1.0
s_nop 1
v_mfma_f32_32x32x2f32 a[0:15], v1, v2, 0
s_nop 15
s_nop 2
s_endpgm
"""
    path = tmp_path / "t.s"
    path.write_text(src)
    sn = load_snippet(str(path))
    failures = check(sn, sn.simulate())
    messages = [f.message for f in failures]
    # 64 busy cycles of ~97: the nops after the MFMA leave the matrix core idle a third of the time
    assert len(messages) == 1 and messages[0].startswith("mfma-utilisation: 0.6")
    path.write_text(src.replace("0.9..1.0", "0.5..0.8"))
    sn = load_snippet(str(path))
    assert check(sn, sn.simulate()) == []


def test_a_stall_expectation_needs_a_reason_and_a_range(tmp_path):
    from gcnemu.asm.diagnostics import GcnemuError
    from gcnemu.snippets.runner import load_snippet
    path = tmp_path / "t.s"
    path.write_text("; gcnemu:\n;   expect stall: 0..1\ns_endpgm\n")
    with pytest.raises(GcnemuError):
        load_snippet(str(path))


# ---------------------------------------------------------------- hazard ids are checked


HAZARD_HEADER = """\
; gcnemu:
;   arch: ARCH
;   EXPECT
  s_nop 0
  s_endpgm
"""


def hazard_header_error(tmp_path, expect: str, arch: str = "gfx942"):
    return header_error(tmp_path, HAZARD_HEADER.replace("ARCH", arch).replace("EXPECT", expect))


def test_a_misspelt_hazard_guard_is_an_error_with_a_suggestion(tmp_path):
    """`expect no hazard` with a typo would forbid nothing and always pass: it is a header error."""
    text, span = hazard_header_error(tmp_path, "expect no hazard xdl-result-valu-reed")
    assert text.splitlines() == [
        f"{tmp_path}/k.s:3:22: error: unknown hazard rule 'xdl-result-valu-reed'; "
        "did you mean 'xdl-result-valu-read'?",
        ";   expect no hazard xdl-result-valu-reed",
        " " * 21 + "^" + "~" * 19,
    ]


def test_an_unknown_hazard_rule_without_a_close_match_says_where_the_ids_are(tmp_path):
    text, span = hazard_header_error(tmp_path, "expect hazard no-such-rule at 4")
    assert text.splitlines()[0] == (f"{tmp_path}/k.s:3:19: error: unknown hazard rule 'no-such-rule' "
                                    "(the ids are in gcnemu/isa/data/hazards.toml)")
    assert text.splitlines()[2] == " " * 18 + "^" + "~" * 11


def test_a_trailing_hazard_expectation_is_checked_too(tmp_path):
    text, span = header_error(tmp_path, "; gcnemu:\n;   waves: 1\n  s_nop 0  ; gcnemu: expect hazard vmem-reslt\n"
                                        "  s_endpgm\n")
    assert "unknown hazard rule 'vmem-reslt'" in text and (span.line, span.column) == (3, 36)


def test_a_rule_of_another_target_is_named_as_such(tmp_path):
    """xdl-* rules exist from gfx90a on: on gfx908 the expectation could never be met."""
    text, span = hazard_header_error(tmp_path, "expect no hazard xdl-result-valu-read", arch="gfx908")
    assert "error: hazard rule 'xdl-result-valu-read' does not apply to gfx908 " \
           "(it is a rule of gfx90a, gfx942, gfx950)" in text


def test_a_lint_hint_is_not_a_hazard(tmp_path):
    text, span = hazard_header_error(tmp_path, "expect no hazard hint-vmcnt-zero")
    assert "'hint-vmcnt-zero' is a lint hint, not a hazard" in text


def test_a_hazard_line_outside_the_file_is_an_error_at_the_number(tmp_path):
    text, span = hazard_header_error(tmp_path, "expect hazard vmem-result-before-vmcnt at 9")
    assert text.splitlines()[0] == f"{tmp_path}/k.s:3:47: error: line 9 is outside the file (it has 5 lines)"
    assert text.splitlines()[2] == " " * 46 + "^"
    text, span = hazard_header_error(tmp_path, "expect no hazard vmem-result-before-vmcnt at line 0")
    assert "line 0 is outside the file" in text


def test_a_hazard_line_must_hold_an_instruction(tmp_path):
    """Hazards are reported at an instruction's line: a guard at a comment line forbids nothing."""
    text, span = hazard_header_error(tmp_path, "expect no hazard vmem-result-before-vmcnt at 2")
    assert "error: line 2 holds no instruction" in text and (span.line, span.column) == (3, 50)


@pytest.mark.parametrize("rule", ["vmem-result-before-vmcnt", "lds-dma-read-before-vmcnt",
                                  "barrier-lds-write-pending", "vmem-dst-overwrite-before-vmcnt",
                                  "lgkm-dst-overwrite-before-lgkmcnt", "mfma-result-read-early",
                                  "inflight-result-overwrite", "inflight-result-read", "xdl-result-valu-read",
                                  "salu-m0-lds-dma"])
def test_every_kind_of_rule_id_is_accepted(tmp_path, rule):
    """Table rules, counter rules and the engine's own ids are all known (a guard on them passes)."""
    assert run(tmp_path, HAZARD_HEADER.replace("ARCH", "gfx942").replace("EXPECT", f"expect no hazard {rule} at 4"))[2] == []


def test_a_misspelt_stall_reason_is_an_error_not_a_silent_zero(tmp_path):
    text, span = header_error(tmp_path, """
        ; gcnemu:
        ;   expect stall waitcnt vmcn: 0..500
          s_endpgm
    """)
    assert (span.line, span.column) == (2, 18)  # under the reason
    assert "unknown stall reason 'waitcnt vmcn'; did you mean 'waitcnt vmcnt'?" in text


def test_every_stall_reason_the_engine_books_is_a_known_one():
    """The list a header is checked against is the engine's own vocabulary."""
    from pathlib import Path

    from gcnemu.sim.counters import STALL_REASONS
    from gcnemu.snippets.runner import load_snippet
    booked = set()
    for name in ("gemm_lds_dma_gfx942.s", "sgemm_vector.s", "loop_sum.s", "batched_hgemm_4x4.s"):
        sim = load_snippet(str(Path(__file__).parents[1] / "programs" / name)).simulate()
        for w in sim.engine.waves:
            booked |= {k for k, v in w.stall_totals.items() if v}
    assert booked and booked <= set(STALL_REASONS), booked - set(STALL_REASONS)
