"""VGPR indexing mode: s_set_gpr_idx_on/_off/_mode/_idx relocate VALU operands by M0 (gcnemu.sim.semantics.gpr_idx).

clang-22 compiles tests/compiled/private_index.cl (written for gcnemu, MIT like the project) for the
four targets; its private array lives in VGPRs and is read and written through VGPR indexing mode.
gcnemu runs it as written and the result matches numpy. Skipped where clang-22 is not installed.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gcnemu

HERE = Path(__file__).resolve().parent
CL = HERE / "compiled" / "private_index.cl"
CLANG = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"
LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
TARGETS = ["gfx908", "gfx90a", "gfx942", "gfx950"]
needs_clang = pytest.mark.skipif(not Path(CLANG).exists(), reason="needs clang-22")

WG, GROUPS = 64, 2


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, Path]:
    if not Path(CLANG).exists():
        pytest.skip("needs clang-22")
    d = tmp_path_factory.mktemp("gpr_idx")
    out = {}
    for t in TARGETS:
        out[t] = d / f"private_index_{t}.s"
        subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", f"-mcpu={t}",
                        "-nogpulib", "-O2", "-cl-kernel-arg-info", "-S", str(CL), "-o", str(out[t])],
                       check=True, capture_output=True)
    return out


def histogram(inp: np.ndarray, n: int) -> np.ndarray:
    """The kernel in numpy: work-item g adds g + i to d[in[i] & 15] for each i."""
    out = np.zeros((n, 16), np.int64)
    for g in range(n):
        for i, x in enumerate(inp):
            out[g, x & 15] += g + i
    return out.astype(np.int32).reshape(-1)


INPUT = (np.arange(64) * 7 + 3) % 23  # uniform indices, several landing on one element


@needs_clang
@pytest.mark.parametrize("target", TARGETS)
def test_a_private_array_indexed_through_vgpr_indexing_matches_numpy(compiled, target):
    text = compiled[target].read_text()
    assert "s_set_gpr_idx_on" in text and "gpr_idx(SRC0)" in text and "gpr_idx(DST)" in text
    from gcnemu.commands.run import CliSource
    from gcnemu.grid import GridJob, run_grid
    from gcnemu.snippets.runner import load_snippet
    cli = CliSource()
    extra = [cli.directive("--workgroup", str(WG), "workgroup", ":"),
             cli.directive("--buffer", f"o=i32[{WG * GROUPS * 16}]:-1", "buffer", " "),
             cli.directive("--buffer", "x=i32[64]:(arange(64) * 7 + 3) % 23", "buffer", " "),
             cli.directive("--arg", "o=o, in=x", "arg", ":")]
    snippet = load_snippet(str(compiled[target]), None, extra)
    sim, run = run_grid(snippet, snippet.kernel(), (GROUPS, 1, 1), GridJob(str(compiled[target]), None, tuple(extra)),
                        jobs=1)
    assert sim.error is None and not any(r.error for r in run.results)
    np.testing.assert_array_equal(sim.buffer("o", np.int32), histogram(INPUT, WG * GROUPS))


@needs_clang
def test_the_functional_engine_hands_vgpr_indexing_to_the_timed_engine(compiled):
    path = str(compiled["gfx942"])
    r = subprocess.run([sys.executable, "-m", "gcnemu", "run", path, "--functional", "--workgroup", str(WG),
                        "--buffer", f"o=i32[{WG * 16}]:-1", "--buffer", "x=i32[64]:(arange(64) * 7 + 3) % 23",
                        "--arg", "o=o", "--arg", "in=x"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "VGPR indexing mode (s_set_gpr_idx_on) runs on the timed engine" in r.stdout + r.stderr


@needs_clang
@pytest.mark.parametrize("target", TARGETS)
def test_the_compiled_kernel_checks_and_lints_clean(compiled, target):
    """llc-22 puts no wait state between s_set_gpr_idx_on and the indexed v_mov_b32: LLVM's
    GCNHazardRecognizer has no rule for VGPR indexing mode (its hazard checks name none of the
    s_set_gpr_idx_* instructions), so lint reports nothing either."""
    from gcnemu.analysis.lint import lint
    from gcnemu.asm.validate import validate
    lines = compiled[target].read_text().splitlines()
    on = next(i for i, ln in enumerate(lines) if "s_set_gpr_idx_on" in ln)
    assert lines[on + 1].strip().startswith("v_mov_b32")
    prog = gcnemu.parse_file(str(compiled[target]))
    assert [d for d in list(prog.diagnostics) + validate(prog, target) if d.severity == "error"] == []
    assert [d.message for d in lint(prog, target) if d.severity == "warning"] == []


SNIPPET = """\
// gcnemu:
//   arch: {arch}
//   workgroup: 64
//   expect v5 == 13
//   expect v1 == 99
//   expect v3 == 113
\ts_mov_b32 s2, 3
\tv_mov_b32 v0, 10
\tv_mov_b32 v1, 11
\tv_mov_b32 v2, 12
\tv_mov_b32 v3, 13
\tv_mov_b32 v4, 14
\ts_set_gpr_idx_on s2, gpr_idx(SRC0)
\tv_mov_b32 v5, v0
\ts_set_gpr_idx_off
\ts_mov_b32 s3, 1
\ts_set_gpr_idx_on s3, gpr_idx(DST)
\tv_mov_b32 v0, 99
\ts_set_gpr_idx_idx s2
\tv_mov_b32 v0, 77
\ts_set_gpr_idx_mode gpr_idx(SRC0,DST)
\tv_add_u32 v0, v1, v1
\ts_set_gpr_idx_off
\ts_getreg_b32 s4, hwreg(HW_REG_MODE, 27, 1)
\ts_endpgm
"""


@pytest.mark.parametrize("target", TARGETS)
def test_each_instruction_moves_the_operands_its_mode_selects(tmp_path, target):
    """src0 indexed (v5 = v[0+3]), the destination indexed (v[0+1] = 99, then with
    s_set_gpr_idx_idx v[0+3] = 77), both at once (v[0+3] = v[1+3] + v1, src1 left alone)."""
    p = tmp_path / "idx.s"
    p.write_text(SNIPPET.format(arch=target))
    prog = gcnemu.parse_file(str(p))
    sim = gcnemu.Simulation(gcnemu.resolve(prog, target)).run()
    assert sim.error is None
    w = sim.wave(0)
    assert [int(w.vgpr[k][0]) for k in range(6)] == [10, 99, 12, 113, 14, 13]
    assert int(w.sgpr[124]) & 0xF0FF == (0x9 << 12) | 3  # M0: the mode (SRC0|DST) and the index
    assert int(w.sgpr[4]) == 0  # MODE.GPR_IDX_EN off again after s_set_gpr_idx_off
    r = subprocess.run([sys.executable, "-m", "gcnemu", "test", str(p)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "PASS" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("body, message", [
    ("s_mov_b32 s2, 250\n\ts_set_gpr_idx_on s2, gpr_idx(SRC0)\n\tv_mov_b32 v1, v10",
     "v10 indexed by M0[7:0] = 250 is v260, beyond the 256 VGPRs of the wave"),
    ("s_mov_b32 s2, 1\n\ts_set_gpr_idx_on s2, gpr_idx(SRC0)\n\tv_mov_b32 v1, s5",
     "selects 's5', which is not a VGPR"),
    ("s_mov_b32 s2, 1\n\ts_set_gpr_idx_on s2, gpr_idx(DST)\n\tds_write_b32 v1, v2",
     "ds_write_b32 uses VGPRs while VGPR indexing is on"),
])
def test_what_the_isa_guides_leave_undefined_stops_the_run(tmp_path, body, message):
    p = tmp_path / "bad.s"
    p.write_text(f"\ts_mov_b32 s5, 0\n\tv_mov_b32 v10, 0\n\tv_mov_b32 v2, 0\n\tv_mov_b32 v1, 0\n\t{body}\n\ts_endpgm\n")
    r = subprocess.run([sys.executable, "-m", "gcnemu", "run", str(p), "--arch", "gfx90a"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    last = len(p.read_text().splitlines()) - 1  # the instruction before s_endpgm
    assert r.stderr.startswith(f"{p}:{last}:")
    assert message in r.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_v_movrel_is_rejected_on_every_target_as_llvm_mc_rejects_it(target):
    from gcnemu.asm.validate import validate
    text = "v_movrels_b32 v1, v2\nv_movreld_b32 v1, v2\nv_movrelsd_b32 v1, v2\nv_movrelsd_2_b32 v1, v2\n"
    errors = [d for d in validate(gcnemu.parse(text), target) if d.severity == "error"]
    assert [d.span.line for d in errors] == [1, 2, 3, 4]
    assert all("not supported on this GPU" in d.message for d in errors)
    if Path(LLVM_MC).exists():
        mc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-o", "/dev/null"],
                            input=text, capture_output=True, text=True)
        assert mc.stderr.count("instruction not supported on this GPU") == 4


# ---------------------------------------------------------------- wait states, from LLVM


# (producer, consumer, wait states llc-22's GCNHazardRecognizer puts between them)
M0_PAIRS = [
    ("s_set_gpr_idx_on s2, gpr_idx(SRC0)", "s_movrels_b32 s4, s6", 1),  # checkReadM0Hazards: SALU def of M0
    ("s_set_gpr_idx_idx s2", "ds_read_addtid_b32 v1", 1),
    ("s_set_gpr_idx_on s2, gpr_idx(SRC0)", "v_mov_b32 v1, v2", 0),  # no rule for the indexed VALU itself
]


@pytest.mark.parametrize("target", TARGETS)
def test_m0_written_by_gpr_idx_needs_the_wait_states_llc_inserts(target):
    """S_SET_GPR_IDX_ON/_MODE/_IDX define M0 (LLVM SOPInstructions.td: Defs = [M0, MODE]), so
    GCNHazardRecognizer::checkReadM0Hazards counts them as SALU writers of M0; nothing else in it
    names VGPR indexing. Pinned against llc-22 -run-pass=post-RA-hazard-rec, and lint agrees."""
    sys.path.insert(0, str(HERE))
    from hazard_cases import mir
    if not mir.AVAILABLE:
        pytest.skip("needs llc-22 and llvm-mc 22")
    from gcnemu.analysis.lint import lint
    counts = mir.llc_wait_states_many([[p, c] for p, c, _ in M0_PAIRS], target)
    assert [c[-1] for c in counts] == [n for _, _, n in M0_PAIRS]
    for producer, consumer, n in M0_PAIRS:
        bare = f"\t{producer}\n\t{consumer}\n\ts_endpgm\n"
        warned = [d.rule for d in lint(gcnemu.parse(bare), target) if d.severity == "warning"]
        assert (warned != []) == (n > 0), (producer, consumer, warned)
        if n:
            assert warned[0].startswith("salu-m0-")
            padded = f"\t{producer}\n\ts_nop {n - 1}\n\t{consumer}\n\ts_endpgm\n"
            assert [d for d in lint(gcnemu.parse(padded), target) if d.severity == "warning"] == []


def test_going_back_in_the_debugger_undoes_the_indexing_mode(tmp_path):
    """MODE.GPR_IDX_EN is wave state like the registers: `back` past s_set_gpr_idx_off turns
    indexing on again, so stepping forward once more relocates the next v_mov_b32 as before."""
    p = tmp_path / "idx.s"
    p.write_text(SNIPPET.format(arch="gfx90a"))
    cmds = tmp_path / "cmds"
    move = SNIPPET.splitlines().index("\tv_mov_b32 v5, v0") + 1
    # stop at the indexed v_mov, run it and s_set_gpr_idx_off, go back to the stop (one snapshot
    # restore, no replay), run the v_mov again
    cmds.write_text(f"break {move}\ncontinue\nstep\nstep\nback 2\nstep\nprint v5\n")
    r = subprocess.run([sys.executable, "-m", "gcnemu", "step", str(p), "--batch", str(cmds)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    v5 = [ln for ln in r.stdout.splitlines() if ln.startswith("v5")]
    assert v5 and "0x0000000d" in v5[-1], r.stdout[-2000:]  # 13 = v[0 + 3]; without indexing it is 10


@needs_clang
@pytest.mark.parametrize("target", TARGETS)
def test_deleting_any_wait_of_the_compiled_kernel_is_reported(compiled, target):
    """Recall on the compiler's own waits around the indexed code: delete any s_nop or s_waitcnt
    and lint warns at or after that point."""
    from gcnemu.analysis.lint import lint
    from gcnemu.asm.parse import parse
    lines = compiled[target].read_text().splitlines()
    waits = [i for i, text in enumerate(lines) if text.strip().startswith(("s_nop", "s_waitcnt"))]
    assert len(waits) >= 3
    missed = []
    for i in waits:
        source = "\n".join(lines[:i] + lines[i + 1:]) + "\n"
        warned = [d.span.line for d in lint(parse(source), target) if d.severity == "warning" and d.span]
        if not any(line >= i + 1 for line in warned):
            missed.append(f"{i + 1}: {lines[i].strip()}")
    assert missed == []


def test_the_relocation_waits_for_m0_to_land(tmp_path):
    """With a 20-cycle SALU, s_set_gpr_idx_mode's new M0 lands after the next v_mov could issue:
    the v_mov waits for it (M0 is interlocked like any SALU result) instead of reading the old
    mode, which would select its constant source."""
    p = tmp_path / "idx.s"
    p.write_text(SNIPPET.format(arch="gfx90a"))
    r = subprocess.run([sys.executable, "-m", "gcnemu", "test", str(p), "--arch", "gfx90a"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0
    slow = subprocess.run([sys.executable, "-m", "gcnemu", "run", str(p), "--latency", "salu=20", "--print", "v3"],
                          capture_output=True, text=True, timeout=300)
    assert slow.returncode == 0, slow.stderr
    assert "0.. 7: 113 113" in slow.stdout


# ---------------------------------------------------------------- the front end


OPERANDS = HERE / "compiled" / "gpr_idx_operands.s"


@pytest.mark.parametrize("target", TARGETS)
def test_check_rejects_the_gpr_idx_operands_llvm_mc_rejects_with_its_message(target):
    """Every line of tests/compiled/gpr_idx_operands.s gets llvm-mc's verdict, at its column and
    (except two parser messages, same column) in its words."""
    from gcnemu.asm.validate import validate
    prog = gcnemu.parse_file(str(OPERANDS))
    ours = {(d.span.line, d.span.column): d.message for d in list(prog.diagnostics) + validate(prog, target)
            if d.severity == "error"}
    if not Path(LLVM_MC).exists():
        pytest.skip("needs llvm-mc 22")
    mc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-o", "/dev/null", str(OPERANDS)],
                        capture_output=True, text=True)
    theirs = {}
    for ln in mc.stderr.splitlines():
        parts = ln.split(":", 4)
        if len(parts) == 5 and parts[3].strip() == "error":
            theirs[(int(parts[1]), int(parts[2]))] = parts[4].strip()
    assert len(theirs) >= 15
    assert sorted(ours) == sorted(theirs)
    # a missing comma or parenthesis inside gpr_idx(...) is reported by gcnemu's parser in its own words
    differ = {k for k in theirs if ours[k] != theirs[k]}
    assert all(theirs[k] == "expected a comma or a closing parenthesis" for k in differ) and len(differ) <= 2
