"""The catalog agrees with LLVM 22's assembler, the oracle for spellings.

For every spelling in the catalog and every target: a line built from the
catalog's own register counts assembles with ``llvm-mc -mcpu=<target>`` iff
the catalog says the spelling exists there.  Because the line uses the
catalog's A/B/C/D widths, this also checks the register counts.  The
modifiers each instruction accepts are checked the same way, and every
``v_mfma*``/``v_smfmac*`` mnemonic in LLVM's matcher table must be in the
catalog.  Skipped when llvm-mc 22 is not installed.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gcnemu.isa import mfma as M

LLVM_MC = Path("/usr/lib/llvm-22/bin/llvm-mc")
if not LLVM_MC.exists():
    LLVM_MC = Path(shutil.which("llvm-mc-22") or "/nonexistent")

pytestmark = pytest.mark.skipif(not LLVM_MC.exists(), reason="llvm-mc 22 not installed")

MODIFIER_SAMPLES = {"cbsz": "cbsz:1", "abid": "abid:1", "blgp": "blgp:1", "neg": "neg:[1,0,0]",
                    "op_sel": "op_sel:[1,0,0]", "op_sel_hi": "op_sel_hi:[1,0,0]"}


def assemble(target: str, lines: list[str]) -> list[bool]:
    """Assemble all lines in one llvm-mc run; True for each line that produced no error."""
    r = subprocess.run([str(LLVM_MC), "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    failed = {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: error", r.stderr)}
    return [i + 1 not in failed for i in range(len(lines))]


def spelling_cases(target: str) -> list[tuple[str, str, bool]]:
    """(spelling, asm line, expected to assemble on target) for every known spelling."""
    uses: dict[str, list[M.MfmaInfo]] = {}
    for t in M.TARGETS:
        for info in M.catalog(t):
            for name in info.names:
                uses.setdefault(name, []).append(info)
    cases = []
    for name, infos in sorted(uses.items()):
        here = [i for i in infos if i.target == target]
        model = here[0] if here else infos[0]
        line = model.asm_example().replace(model.name, name, 1)
        cases.append((name, line, bool(here)))
    return cases


@pytest.mark.parametrize("target", M.TARGETS)
def test_every_spelling_assembles_exactly_on_its_targets(target):
    cases = spelling_cases(target)
    got = assemble(target, [line for _, line, _ in cases])
    wrong = [(name, expect) for (name, _, expect), ok in zip(cases, got) if ok != expect]
    assert not wrong, f"{target}: catalog disagrees with llvm-mc for {wrong}"


@pytest.mark.parametrize("target", M.TARGETS)
def test_modifiers_match_the_assembler(target):
    lines, expect = [], []
    for info in M.catalog(target):
        for mod, text in MODIFIER_SAMPLES.items():
            lines.append(f"{info.asm_example()} {text}")
            expect.append((info.name, mod, mod in info.modifiers))
    got = assemble(target, lines)
    wrong = [(n, m, e) for (n, m, e), ok in zip(expect, got) if ok != e]
    assert not wrong, wrong


def test_f8f6f4_operand_widths_per_format():
    lines = []
    for name in ("v_mfma_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"):
        base = M.lookup(name, "gfx950")
        for a in range(5):
            for b in range(5):
                lines.append(f"{base.with_formats(a, b).asm_example()} cbsz:{a} blgp:{b}")
    assert all(assemble("gfx950", lines))


def test_llvm_knows_no_mfma_mnemonic_missing_from_the_catalog():
    lib_dir = LLVM_MC.resolve().parent.parent / "lib"
    libs = sorted(lib_dir.glob("libLLVM*.so*"))
    strings = shutil.which("strings")
    if not libs or not strings:
        pytest.skip("libLLVM or binutils strings not available")
    out = subprocess.run([strings, "-n", "8", str(libs[0])], capture_output=True, text=True).stdout
    llvm = set(re.findall(r"^(v_(?:mfma|smfmac)[a-z0-9_]*)$", out, re.M))
    assert llvm, "no MFMA mnemonics found in libLLVM"
    assert llvm - set(M.all_spellings()) == set()


LLC = LLVM_MC.parent / "llc"


@pytest.mark.skipif(not LLC.exists(), reason="llc 22 not installed")
def test_scale_byte_selection_matches_llvm_lowering():
    """The intrinsic's byte index for scale A/B becomes op_sel/op_sel_hi; invert it."""
    decl = ("declare <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32"
            "(<8 x i32>, <8 x i32>, <4 x float>, i32, i32, i32, i32, i32, i32)\n")
    pairs = [(a, b) for a in range(4) for b in range(4)]
    body = "".join(
        f"define <4 x float> @t{a}{b}(<8 x i32> %a, <8 x i32> %b, <4 x float> %c, i32 %s0, i32 %s1) {{\n"
        f"  %r = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32("
        f"<8 x i32> %a, <8 x i32> %b, <4 x float> %c, i32 0, i32 0, i32 {a}, i32 %s0, i32 {b}, i32 %s1)\n"
        f"  ret <4 x float> %r\n}}\n" for a, b in pairs)
    r = subprocess.run([str(LLC), "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950"], input=decl + body,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if "v_mfma_scale" in ln]
    assert len(lines) == len(pairs)

    def field(line: str, name: str) -> list[int]:
        m = re.search(rf"\b{name}:\[([01,]+)\]", line)
        return [int(x) for x in m.group(1).split(",")] if m else [0, 0, 0]

    for (a, b), line in zip(pairs, lines):
        assert M.scale_bytes(field(line, "op_sel"), field(line, "op_sel_hi")) == (a, b), line
