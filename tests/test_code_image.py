"""Code addresses are the ones llvm-mc 22 gives: every instruction's encoded size agrees with
`llvm-mc -show-encoding`, and every instruction's byte offset, every function label and every
label used as a literal (llvm-mc's PC-relative fixup) agree with the object llvm-mc writes
(read back with llvm-objdump), alignment padding and data directives included.
Skipped where llvm-mc 22 is not installed."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_lines  # noqa: E402

from gcnemu.asm.image import CODE_BASE, layout  # noqa: E402
from gcnemu.asm.parse import parse, parse_file  # noqa: E402
from gcnemu.asm.resolve import eval_const, resolve  # noqa: E402
from gcnemu.asm.sizes import instruction_size  # noqa: E402
from gcnemu.isa import mnemonics, opcodes  # noqa: E402
from gcnemu.isa.opcodes import base_mnemonic  # noqa: E402

LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
OBJDUMP = shutil.which("llvm-objdump-22") or "/usr/lib/llvm-22/bin/llvm-objdump"
CLANG, LLC = shutil.which("clang-22"), shutil.which("llc-22")
TESTS = Path(__file__).resolve().parent
TARGETS = gen_lines.TARGETS
_ENC = re.compile(r"encoding: \[([^\]]*)\]")
_DIS = re.compile(r"^\s+(\S+).*// ([0-9A-F]{12}): ([0-9A-F]{8}(?: [0-9A-F]{8})*)")
_FUNC = re.compile(r"^([0-9a-f]{16}) <([^>]+)>:$")

pytestmark = pytest.mark.skipif(not Path(LLVM_MC).exists() or not Path(OBJDUMP).exists(),
                                reason="needs llvm-mc 22 and llvm-objdump")


def _mc(text: str, target: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", *args], input=text,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("target", TARGETS)
def test_every_generated_line_has_llvm_mcs_encoded_size(target):
    """Thousands of instruction forms (every table row, mutated: constants inline and literal,
    SGPR/VGPR/constant operands that force VOP3, modifiers, SDWA, DPP, suffixes)."""
    lines = gen_lines.generate(1234, 6)
    prelude = gen_lines.PRELUDE
    first = _mc("\n".join(prelude + lines) + "\n", target, "-filetype=obj", "-o", os.devnull)
    refused = {int(m.group(1)) for m in re.finditer(r"^<stdin>:(\d+):\d+: error", first.stderr, re.M)}
    ok = [ln for i, ln in enumerate(lines) if len(prelude) + i + 1 not in refused and ln.strip()
          and not ln.strip().endswith(":")]
    text = "\n".join(prelude + ok) + "\n"
    sizes = [len(m.group(1).split(",")) for m in _ENC.finditer(_mc(text, target, "-show-encoding").stdout)]
    prog = parse(text, "lines.s")
    # the prelude's symbols as llvm-mc knows them at each line (SYM_LATER is defined after its uses)
    known = {k: v for k, v in prog.symbols.items() if k != "SYM_LATER"}

    def value_of(op):
        try:
            return eval_const(op, known), False
        except Exception:
            return None

    ins = prog.instructions
    assert len(ins) == len(sizes) > 3000
    wrong = [(i.text(), theirs, instruction_size(i, target, value_of)) for i, theirs in zip(ins, sizes)
             if instruction_size(i, target, value_of) != theirs]
    assert wrong == [], wrong[:20]


def _objdump(text: str, target: str, tmp_path: Path, include: Path | None = None, defsyms=()):
    """(address -> (mnemonic, encoded words), function label -> address) of llvm-mc's .text."""
    obj = tmp_path / "o.o"
    args = ["-filetype=obj", "-o", str(obj)] + (["-I", str(include)] if include else [])
    for d in defsyms:
        args += ["--defsym", d]
    r = _mc(text, target, *args)
    assert r.returncode == 0, r.stderr[:2000]
    out = subprocess.run([OBJDUMP, "-d", str(obj)], capture_output=True, text=True, check=True).stdout
    code, funcs = {}, {}
    for line in out.splitlines():
        m = _DIS.match(line)
        if m:
            code[int(m.group(2), 16)] = (m.group(1), m.group(3).split())
            continue
        f = _FUNC.match(line)
        if f:
            funcs[f.group(2)] = int(f.group(1), 16)
    return code, funcs


def _canonical(mnemonic: str, target: str) -> str:
    row = mnemonics.info(mnemonic, target)
    if row is not None:
        return row.canonical
    info = opcodes.lookup(mnemonic, target)  # an alias spelling (v_accvgpr_write)
    return info.mnemonic if info is not None else base_mnemonic(mnemonic)[0]


def _compare_layout(prog, target: str, code: dict, funcs: dict) -> tuple[int, int]:
    """(instructions compared, label literals compared)."""
    kernel = resolve(prog, target, validate_first=False)
    image = layout(prog, target)
    assert image.addresses[0] == CODE_BASE + min(code)
    wrong, literals = [], 0
    for ins, linked, address in zip(prog.instructions, kernel.instructions, image.addresses):
        offset = address - CODE_BASE
        theirs = code.get(offset)
        if theirs is None or _canonical(theirs[0], target) != _canonical(ins.mnemonic, target):
            wrong.append(f"line {ins.span.line} '{ins.text()}' at 0x{offset:x}: llvm-mc has {theirs}")
            continue
        if linked is not ins and "@" not in ins.text():  # a label as a literal: llvm-mc resolved it
            literal, literals = int(theirs[1][-1], 16), literals + 1
            mine = [op.value for op in linked.operands if getattr(op, "source", "") and op not in ins.operands]
            if literal not in mine:
                wrong.append(f"line {ins.span.line} '{ins.text()}': literal 0x{literal:x}, gcnemu {mine}")
    for name, address in funcs.items():
        if name in image.labels and image.labels[name] - CODE_BASE != address:
            wrong.append(f"label {name}: 0x{image.labels[name] - CODE_BASE:x}, llvm-mc 0x{address:x}")
    assert wrong == [], wrong[:10]
    return len(prog.instructions), literals


@pytest.mark.skipif(CLANG is None or LLC is None, reason="needs clang-22 and llc-22")
@pytest.mark.parametrize("target", TARGETS)
def test_compiler_output_is_laid_out_as_llvm_mc_lays_it_out(tmp_path, target):
    """kernels.cl (several kernels, .p2align 8 between them, the s_code_end fill after them)
    and calls.ll (functions before the kernel, .p2align 2)."""
    cl = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}",
                         "-nogpulib", "-O2", "-S", str(TESTS / "compiled" / "kernels.cl"), "-o", "-"],
                        check=True, capture_output=True, text=True).stdout
    ll = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", str(TESTS / "compiled" / "calls.ll"),
                         "-o", "-"], check=True, capture_output=True, text=True).stdout
    for text in (cl, ll):
        code, funcs = _objdump(text, target, tmp_path)
        assert len(funcs) >= 4
        assert _compare_layout(parse(text, "k.s"), target, code, funcs)[0] > 100


def test_tensile_long_branches_resolve_to_llvm_mcs_literals(tmp_path):
    """A Tensile GEMM (3.5k lines): every instruction at llvm-mc's offset, and its getpc/setpc
    long branches (`s_add_i32 s76, label, 0x4`) carry the literal llvm-mc computed."""
    path = TESTS / "corpus" / "tensile" / \
        "Custom_Cijk_Alik_Bljk_HHS_BH_UserArgs_MT128x16x128_MI16x16x1_SN_K1_MIWT2_1_triple_buffer.s"
    code, funcs = _objdump(path.read_text(), "gfx942", tmp_path)
    prog = parse_file(str(path))
    assert sum(1 for i in prog.instructions if i.mnemonic == "s_setpc_b64") >= 2
    n, literals = _compare_layout(prog, "gfx942", code, funcs)
    assert n > 1500 and literals >= 2


def test_miopen_igemm_is_laid_out_as_llvm_mc_lays_it_out(tmp_path):
    folder = TESTS / "corpus" / "miopen" / "igemm_gfx90a"
    path = next(p for p in sorted(folder.glob("*.s")))
    code, funcs = _objdump(path.read_text(), "gfx90a", tmp_path, include=folder)
    prog = parse_file(str(path))
    assert _compare_layout(prog, "gfx90a", code, funcs)[0] > 300
