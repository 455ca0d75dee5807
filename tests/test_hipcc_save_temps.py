"""The `.s` that `hipcc -save-temps` writes for a gfx90a kernel checks clean and runs.

`programs/hipcc_save_temps_gfx90a.s` is compiler output for a HIP vector add (code object v5:
`.amdhsa_kernel` block, `.AMDGPU.csdata` kernel info, `.fill` padding, `.amdgpu_metadata`
YAML), with a `gcnemu:` header comment in front. The tests use the compiler's part alone,
as a user who just ran hipcc would, and check it three ways:

- llvm-mc 22 assembles it to an object (the oracle that the file is faithful);
- `gcnemu check` prints nothing and exits 0;
- `gcnemu run` with the HIP launch ABI given as `--arg`s computes C = A + B, and lanes past
  `n` leave C alone (the kernel's `if (i < n)`).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.parse import parse
from gcnemu.asm.program import Directive, Instruction, Label
from gcnemu.setup import abi_from_program
from gcnemu.asm.validate import program_target, validate

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "programs" / "hipcc_save_temps_gfx90a.s"
LLVM_MC = os.environ.get("GCNEMU_LLVM_MC", "/usr/lib/llvm-22/bin/llvm-mc")
KERNEL = "_Z10vector_addPKfS0_Pfi"


def compiler_output() -> str:
    """The file without its gcnemu header: exactly what hipcc wrote (it starts at `.text`)."""
    text = PROGRAM.read_text()
    start = text.index("\t.text\n")
    assert all(ln.startswith("//") for ln in text[:start].splitlines()), "only a comment header precedes .text"
    return text[start:]


@pytest.fixture
def hip_s(tmp_path) -> Path:
    p = tmp_path / "vector_add-hip-amdgcn-amd-amdhsa-gfx90a.s"
    p.write_text(compiler_output())
    return p


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not os.path.exists(LLVM_MC), reason=f"llvm-mc not found at {LLVM_MC}")
@pytest.mark.parametrize("which", ["compiler output", "bundled program"])
def test_llvm_mc_assembles_it_to_an_object(hip_s, which, tmp_path):
    path = hip_s if which == "compiler output" else PROGRAM
    r = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-mattr=-xnack", "-filetype=obj",
                        "-o", str(tmp_path / "k.o"), str(path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert (tmp_path / "k.o").stat().st_size > 1000


def test_it_has_the_structure_hipcc_writes():
    text = compiler_output()
    for piece in ['.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:xnack-"', ".amdhsa_code_object_version 5",
                  f".globl\t{KERNEL}", ".p2align\t8", f".type\t{KERNEL},@function", "; %bb.0:", ".LBB0_2:",
                  ".Lfunc_end0:", f".size\t{KERNEL}, .Lfunc_end0-{KERNEL}", '.section\t.rodata,"a",@progbits',
                  f".amdhsa_kernel {KERNEL}", ".end_amdhsa_kernel", '.section\t".note.GNU-stack","",@progbits',
                  ".amdgpu_metadata", ".end_amdgpu_metadata", "s_load_dwordx4", "s_waitcnt lgkmcnt(0)",
                  "global_load_dword", "global_store_dword"]:
        assert piece in text, piece
    assert text.count(".amdhsa_") > 40


def test_gcnemu_check_is_silent_and_exits_0(hip_s):
    r = run_cli("check", str(hip_s))
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    j = run_cli("check", "--format", "json", str(hip_s))
    assert j.returncode == 0 and json.loads(j.stdout) == {"diagnostics": []}


def test_the_program_model_of_the_compiler_output():
    text = compiler_output()
    prog = parse(text, "hip.s")
    assert not prog.diagnostics
    assert program_target(prog, None) == "gfx90a"  # from .amdgcn_target, xnack feature and all
    # every instruction line of the source (a tab, then an ISA mnemonic) and nothing else is an instruction:
    # the YAML of .amdgpu_metadata and the `; Kernel info:` comments stay out
    expected = [ln.split()[0] for ln in text.splitlines()
                if ln.startswith("\t") and ln.split() and ln.split()[0].startswith(("s_", "v_", "global_"))]
    assert [i.mnemonic for i in prog.instructions] == expected
    assert len(expected) == 29
    labels = [s.name for s in prog.statements if isinstance(s, Label)]
    assert labels[:3] == [KERNEL, ".LBB0_2", ".Lfunc_end0"]
    branch = next(i for i in prog.instructions if i.mnemonic == "s_cbranch_execz")
    assert branch.operands[0].name == ".LBB0_2"
    assert prog.labels[".LBB0_2"] == [i.mnemonic for i in prog.instructions].index("s_endpgm")
    meta = prog.directive(".amdgpu_metadata")
    assert isinstance(meta, Directive) and any("amdhsa.target:" in ln for ln in meta.body)
    kd = {s.name: s.args for s in prog.statements if isinstance(s, Directive) and s.name.startswith(".amdhsa_")}
    assert kd[".amdhsa_user_sgpr_kernarg_segment_ptr"] == ("1",) and kd[".amdhsa_next_free_vgpr"] == ("8",)
    assert not [d for d in validate(prog, "gfx90a")]
    assert all(isinstance(s, (Instruction, Label, Directive)) or s.name.startswith(KERNEL) for s in prog.statements)


# The launch comes from the file's own description: the `.amdhsa_kernel` block places the kernarg
# pointer in s[4:5] and the workgroup id x in s6; the metadata lays out a, b, c, n and the hidden
# arguments (hidden_block_count_x at 32, hidden_group_size_x at 44, which the kernel reads with
# `s_load_dword s0, s[4:5], 0x2c`). hipcc's metadata has no argument names: they go in order.


@pytest.mark.parametrize("n", [128, 100, 64, 3])
def test_it_computes_c_equals_a_plus_b_on_every_workgroup_with_the_bounds_check(n):
    prog = gcnemu.parse(compiler_output(), "hip.s")
    kernel = gcnemu.resolve(prog, "gfx90a")
    rng = np.random.default_rng(7)
    a = rng.standard_normal(128).astype(np.float32)
    b = rng.standard_normal(128).astype(np.float32)
    c = np.full(128, -1.0, np.float32)
    for wg in range(2):  # grid of 2 workgroups of 64; each simulation is one workgroup
        setup = gcnemu.Setup(workgroup_size=(64, 1, 1), workgroup_id=(wg, 0, 0), grid=(2, 1, 1))
        setup.add_buffer("A", a).add_buffer("B", b).add_buffer("C", c)
        setup.args = {"a": "A", "b": "B", "c": "C", "n": n}
        abi_from_program(prog, setup)  # kernarg pointer s[4:5], workgroup id x in s6, as .amdhsa_* say
        assert (setup.kernarg_sgpr, setup.workgroup_id_sgprs) == (4, {"x": 6})
        sim = gcnemu.Simulation(kernel, setup).run()
        assert sim.error is None
        assert not sim.hazards
        c = sim.buffer("C", np.float32).copy()
    np.testing.assert_array_equal(c[:n], a[:n] + b[:n])
    assert (c[n:] == -1.0).all()


def test_the_hidden_arguments_are_the_ones_the_hip_runtime_writes():
    prog = gcnemu.parse(compiler_output(), "hip.s")
    setup = gcnemu.Setup(workgroup_size=(64, 1, 1), grid=(3, 1, 1))
    setup.add_buffer("A", np.zeros(4, np.float32)).add_buffer("B", np.zeros(4, np.float32))
    setup.add_buffer("C", np.zeros(4, np.float32))
    setup.args = [("a", "A"), ("b", "B"), ("c", "C"), ("n", 100)]
    sim = gcnemu.Simulation(gcnemu.resolve(prog, "gfx90a"), setup)
    seg = next(b for b in sim.memory.buffers if b.name == "__kernarg").data
    # .kernarg_segment_size 280 (the whole implicit block), padded to 128 bytes as CLR allocates it
    assert len(seg) == 384
    u32 = lambda off: int(seg[off:off + 4].view(np.uint32)[0])  # noqa: E731
    u16 = lambda off: int(seg[off:off + 2].view(np.uint16)[0])  # noqa: E731
    assert [int(seg[k:k + 8].view(np.uint64)[0]) for k in (0, 8, 16)] == [sim.buffer_address(x) for x in "ABC"]
    assert u32(24) == 100
    assert (u32(32), u32(36), u32(40)) == (3, 1, 1)  # hidden_block_count_x/y/z: workgroups
    assert (u16(44), u16(46), u16(48)) == (64, 1, 1)  # hidden_group_size_x/y/z: work-items
    assert (u16(50), u16(52), u16(54)) == (0, 0, 0)  # hidden_remainder: whole workgroups
    assert u16(96) == 1  # hidden_grid_dims
    w = sim.wave(0)
    assert int(w.sgpr[4]) | int(w.sgpr[5]) << 32 == next(b for b in sim.memory.buffers if b.name == "__kernarg").base


def test_gcnemu_run_with_args_on_the_command_line(hip_s):
    n = 50
    args = ["run", str(hip_s), "--workgroup", "64", "--format", "json",
            "--buffer", "A=f32[64]:arange(64)", "--buffer", "B=f32[64]:1000*arange(64)", "--buffer", "C=f32[64]:-1",
            "--arg", "a=A", "--arg", "b=B", "--arg", "c=C", "--arg", f"n={n}"]
    r = run_cli(*args, "--print", "v2:f32", "exec")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["kernel"] == KERNEL
    wave = out["waves"][0]
    regs = wave["registers"]
    v2 = np.array(regs["v2"], dtype=np.uint32).view(np.float32)  # JSON keeps raw 32-bit words
    np.testing.assert_array_equal(v2[:n], 1001.0 * np.arange(n))  # v2 = a[i] + b[i], stored to c[i]
    assert regs["exec[0]"] | regs["exec[1]"] << 32 == (1 << n) - 1  # `if (i < n)` masked lanes n..63 off
    assert out["instructions"] == 29
    assert not [d for d in out["diagnostics"] if d["severity"] in ("error", "warning")]


def test_a_missing_argument_is_named_with_the_kernel(hip_s):
    r = run_cli("run", str(hip_s), "--buffer", "A=f32[64]:0", "--arg", "a=A", "--arg", "b=A", "--arg", "c=A")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert f"kernel '{KERNEL}' needs its argument 3 (by_value, 4 bytes at offset 24)" in r.stderr
