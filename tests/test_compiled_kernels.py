"""Compiler output opens as written: clang-22 compiles tests/compiled/kernels.cl (OpenCL C) for each
target, and `gcnemu check` accepts exactly what llvm-mc 22 accepts, file and lines alike.
Skipped where clang-22 or llvm-mc 22 are not installed (.ci/run installs both)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from gcnemu.asm.parse import parse
from gcnemu.asm.validate import validate

SRC = Path(__file__).resolve().parent / "compiled" / "kernels.cl"
CLANG = shutil.which("clang-22")
LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
TARGETS = ["gfx908", "gfx90a", "gfx942", "gfx950"]

pytestmark = pytest.mark.skipif(CLANG is None or not Path(LLVM_MC).exists(), reason="needs clang-22 and llvm-mc 22")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, Path]:
    out = {}
    d = tmp_path_factory.mktemp("cl")
    for t in TARGETS:
        asm = d / f"kernels_{t}.s"
        subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", f"-mcpu={t}", "-nogpulib",
                        "-O2", "-S", str(SRC), "-o", str(asm)], check=True, capture_output=True)
        out[t] = asm
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_compiler_output_checks_as_llvm_mc_assembles_it(compiled, target):
    path = compiled[target]
    mc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj", "-o", "/dev/null",
                         str(path)], capture_output=True, text=True)
    assert mc.returncode == 0, mc.stderr[:2000]
    prog = parse(path.read_bytes(), str(path))
    errors = [d for d in list(prog.diagnostics) + validate(prog, target) if d.severity == "error"]
    assert errors == [], [f"{d.span.line}: {d.message}" for d in errors[:10]]
    names = {s.name for s in prog.statements if type(s).__name__ == "Assignment"}
    assert {"saxpy.num_vgpr", "calls.private_seg_size"} <= names  # llc's resource symbols, max()/or()
    symbols = prog.symbols
    assert type(symbols["calls.num_vgpr"]).__name__ == "Imm"  # max(...) folded once its inputs are known


@pytest.mark.parametrize("target", TARGETS)
def test_compiler_output_lints_without_a_warning(compiled, target):
    """llc-22 inserted every wait state and s_waitcnt these kernels need, so lint must agree:
    zero warnings, including across the s_swappc_b64 calls (the callee waits for every counter at
    its entry and before it returns, as LLVM's calling convention says)."""
    from gcnemu.analysis.lint import lint
    path = compiled[target]
    prog = parse(path.read_bytes(), str(path))
    assert "s_swappc_b64" in path.read_text()
    warnings = [d for d in lint(prog, target) if d.severity == "warning"]
    assert warnings == [], [f"{d.span.line}: {d.message} [{d.rule}]" for d in warnings[:10]]


@pytest.mark.parametrize("target", TARGETS)
def test_deleting_any_compiler_inserted_wait_is_reported_after_it(compiled, target):
    """Recall against the compiler oracle: llc-22 put each s_nop and s_waitcnt where LLVM's hazard
    recognizer, SIInsertWaitcnts or the calling convention needed it. Delete any one of them and
    lint must warn at or after that point (the consumer it protected): 100% of deletions here,
    while the untouched output gives no warning (the test above)."""
    from gcnemu.analysis.lint import lint
    lines = compiled[target].read_text().splitlines()
    waits = [i for i, text in enumerate(lines) if text.strip().startswith(("s_nop", "s_waitcnt"))]
    assert len(waits) >= 40
    missed = []
    for i in waits:
        source = "\n".join(lines[:i] + lines[i + 1:]) + "\n"
        warned = [d.span.line for d in lint(parse(source), target) if d.severity == "warning" and d.span]
        if not any(line >= i + 1 for line in warned):  # line i+1 of the new text is the one after the deletion
            missed.append(f"{i + 1}: {lines[i].strip()}")
    print(f"{target}: {len(waits) - len(missed)}/{len(waits)} deleted waits reported")
    assert missed == []
