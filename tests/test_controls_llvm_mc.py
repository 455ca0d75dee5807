"""Controls and per-target operand rules: gcnemu check accepts and rejects exactly what llvm-mc 22 does.

Generated lists of good and bad lines (every DPP control over and past its range, every SDWA
selector, every ds_swizzle macro form and raw offsets; every MIMG mnemonic with vdata widths
against dmask/d16/tfe; every hwreg name LLVM knows; buffer_wbl2/buffer_inv and dlc cache bits)
are assembled by
``llvm-mc-22 -mcpu=<target>`` and checked by ``gcnemu check --arch <target>`` on all four CDNA
targets; each line must get the same verdict, and a rejected line the same message at the same
column.  Skipped when llvm-mc 22 is not installed.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gcnemu.isa import dpp, hwregs

LLVM_MC = shutil.which("llvm-mc-22")
pytestmark = pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc 22 not installed")
TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
_ERR = re.compile(r":(\d+):(\d+): error: (.*?)(?: \[[\w-]+\])?$", re.M)  # (gcnemu appends its rule id)


def dpp_lines() -> list[str]:
    out = []
    controls = {**{n: v for n, v in dpp.DPP_VALUES.items()}, **{n: None for n in dpp.DPP_BARE},
                "quad_perm": frozenset(range(4)), "row_share": frozenset(range(16)),
                "row_xmask": frozenset(range(16))}
    for name, values in controls.items():
        if name == "quad_perm":
            out += ["v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3]", "v_mov_b32_dpp v0, v1 quad_perm:[3,2,1,0]",
                    "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,4]", "v_mov_b32_dpp v0, v1 quad_perm:[0,1,-1,2]",
                    "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2]", "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3,0]"]
        elif values is None:
            out.append(f"v_mov_b32_dpp v0, v1 {name}")
        else:
            out += [f"v_mov_b32_dpp v0, v1 {name}:{v}" for v in (-1, 0, 1, 2, 14, 15, 16, 31, 32)]
    out += ["v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xa bank_mask:0x5 bound_ctrl:0",
            "v_mov_b32_dpp v0, v1 row_mask:0x1f", "v_mov_b32_dpp v0, v1 bank_mask:0xf",
            "v_mov_b32_dpp v0, v1 bound_ctrl:0", "v_mov_b32_dpp v0, v1 row_shl:1 fi:1",
            "v_mov_b32_dpp v0, v1", "v_ceil_f64_dpp v[0:1], v[2:3] row_newbcast:1",
            "v_add_f32_dpp v0, v1, v2 row_newbcast:15", "v_add_f32_dpp v0, v1, v2 row_ror:7 row_mask:0x3"]
    # the controls choose the DPP encoding when the mnemonic names none (as in LLVM's dpp64.s)
    out += ["v_ceil_f64 v[0:1], v[2:3] row_newbcast:1", "v_fmac_f64 v[0:1], v[2:3], v[4:5] row_newbcast:2",
            "v_mov_b32 v0, v1 row_shr:16", "v_mov_b32 v0, v1 row_mask:0xf", "v_add_f32 v0, v1, v2 row_xmask:1",
            "v_add_f32 v0, v1, v2 quad_perm:[0,1,2,4]", "v_add_f32 v0, v1, v2 row_half_mirror bank_mask:0x1",
            "v_cmp_eq_f32_dpp vcc, v1, v2 row_shr:1", "v_ceil_f64_dpp v[0:1], v[2:3] row_shl:1",
            "v_mov_b64_dpp v[0:1], v[2:3] row_shr:1", "v_mul_legacy_f32_dpp v5, v1, v2 quad_perm:[0,1,2,3]"]
    return out


def sdwa_lines() -> list[str]:
    sels = sorted(dpp.SDWA_SELS) + ["BYTE_4", "WORD_2", "QWORD"]
    unused = sorted(dpp.SDWA_UNUSED) + ["UNUSED_FOO"]
    out = [f"v_add_f32_sdwa v0, v1, v2 {k}:{s}" for k in ("dst_sel", "src0_sel", "src1_sel") for s in sels]
    out += ["v_xor_b32_sdwa vcc, v1, v2", "v_xor_b32_dpp vcc, v1, v2 row_shr:1", "v_mov_b32_sdwa vcc, v1",
            "v_add_co_u32_sdwa v0, vcc, v1, v2 src0_sel:WORD_1"]  # VOP1/VOP2 SDWA/DPP results go to VGPRs
    return out + [f"v_add_f32_sdwa v0, v1, v2 dst_unused:{u}" for u in unused]


def swizzle_lines() -> list[str]:
    out = [f"ds_swizzle_b32 v0, v1 offset:{v}" for v in (0, 0x801f, 0xffff, 0x10000, -1)]
    out += [f"ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM,{q})"
            for q in ("0,1,2,3", "3,3,3,3", "0,1,2,4", "0,1,2,-1")]
    out += [f"ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,{n})" for n in (0, 1, 3, 8, 16, 32, 64)]
    out += [f"ds_swizzle_b32 v0, v1 offset:swizzle(REVERSE,{n})" for n in (1, 2, 3, 32, 64)]
    out += [f"ds_swizzle_b32 v0, v1 offset:swizzle(BROADCAST,{g},{l})" for g, l in
            ((2, 0), (2, 1), (2, 2), (3, 1), (32, 31), (64, 0), (1, 0))]
    out += [f'ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM,"{m}")' for m in ("01pip", "00000", "01pi", "01pix")]
    return out


IMAGE_NAMES = sorted({ln.split()[0] for ln in (Path(__file__).parent.parent / "gcnemu" / "isa" / "data" /
                                                 "mnemonics" / "gfx908.txt").read_text().splitlines()
                      if ln.startswith("image_")})


def image_lines() -> list[str]:
    """Every gfx908 MIMG mnemonic with vdata of 1-4 (and 5 with tfe) registers against several
    dmasks, with and without d16 and tfe (gfx94x has no MIMG: all are refused there)."""
    out = []
    for n in IMAGE_NAMES:
        samp = ", s[16:19]" if any(k in n for k in ("sample", "gather", "get_lod")) else ""
        for dmask, extra in ((0x1, ""), (0x3, ""), (0x3, " d16"), (0x7, " d16"), (0xF, ""), (0x1, " tfe"),
                             (0x2, ""), (0x0, "")):
            for w in (1, 2, 3, 4, 5):
                r = "v0" if w == 1 else f"v[0:{w - 1}]"
                out.append(f"{n} {r}, v[4:7], s[8:15]{samp} dmask:0x{dmask:x} unorm{extra}")
    return out


def hwreg_lines() -> list[str]:
    names = list(hwregs.HWREGS) + ["HW_REG_PC_LO", "HW_REG_FLUSH_IB", "HW_REG_NOT_A_REGISTER"]
    return [f"s_getreg_b32 s0, hwreg({n})" for n in names] + [f"s_setreg_b32 hwreg({n}, 0, 4), s1" for n in names]


def cache_lines() -> list[str]:
    mods = ("", " sc0", " sc1", " nt", " sc0 sc1", " glc", " slc", " dlc", " scc")
    out = [f"{op}{m}" for op in ("buffer_wbl2", "buffer_inv", "buffer_wbinvl1", "buffer_wbinvl1_vol") for m in mods]
    return out + [f"{op} dlc" for op in ("global_load_dword v0, v[0:1], off", "buffer_load_dword v0, off, s[0:3], 0",
                                         "flat_load_dword v0, v[0:1]", "scratch_load_dword v0, off, s0")]


def dpp_opcode_lines() -> list[str]:
    """Every VALU row of the instruction table, written canonically, under three DPP controls:
    which opcodes have a DPP form, and 64-bit DPP (gfx908: none; gfx90a+: row_newbcast only)."""
    sys.path.insert(0, str(Path(__file__).parent))
    import gen_lines
    from gcnemu.isa import opcodes
    out = []
    for info in opcodes.table().values():
        if info.encoding not in ("VOP1", "VOP2", "VOPC", "VOP3"):
            continue
        line = gen_lines.canonical(info)[0]
        if line.modifiers or not all(o[0] in "vs" for o in line.operands):
            continue
        out += [f"{line.mnemonic} {', '.join(line.operands)} {c}"
                for c in ("row_shr:1", "row_newbcast:1", "quad_perm:[0,1,2,3]")]
    return sorted(out)


def _errors(text: str) -> dict[int, tuple[int, str]]:
    return {int(m.group(1)): (int(m.group(2)), m.group(3).strip()) for m in _ERR.finditer(text)}


FAMILIES = {"dpp": dpp_lines, "dpp-opcodes": dpp_opcode_lines, "sdwa": sdwa_lines, "swizzle": swizzle_lines,
            "image": image_lines, "hwreg": hwreg_lines, "cache": cache_lines}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("target", TARGETS)
def test_family_matches_llvm_mc(target: str, family: str, tmp_path: Path) -> None:
    lines = FAMILIES[family]()
    src = tmp_path / "controls.s"
    src.write_text("\n".join(lines) + "\n")
    mc = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding", str(src), "-o", os.devnull],
                        capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "gcnemu", "check", "--arch", target, str(src)],
                          capture_output=True, text=True)
    want, got = _errors(mc.stderr), _errors(ours.stderr)
    assert want, "llvm-mc rejected none of the lines: the case list is wrong"
    diffs = [f"{lines[n - 1]!r}: llvm-mc {want.get(n)}, gcnemu {got.get(n)}"
             for n in range(1, len(lines) + 1) if want.get(n) != got.get(n)]
    assert not diffs, f"{len(diffs)} of {len(lines)} lines disagree on {target}:\n" + "\n".join(diffs)


def test_run_refuses_an_undefined_swizzle() -> None:
    from gcnemu.sim.semantics.ds import swizzle_offset
    from gcnemu.sim.context import SimError
    with pytest.raises(SimError, match="not a swizzle the ISA defines"):
        swizzle_offset("swizzle(SWAP,64)")
    assert swizzle_offset("swizzle(SWAP,16)") == 0x1F | (16 << 10)


@pytest.mark.parametrize("asm, target", [
    ("v_mov_b32_dpp v0, v1 row_shr:16", "gfx90a"),
    ("v_mov_b32_dpp v0, v1 row_shr:0", "gfx90a"),
    ("v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,4]", "gfx90a"),
    ("v_mov_b32_dpp v0, v1 row_bcast:14", "gfx942"),
    ("v_mov_b32_dpp v0, v1 row_newbcast:1", "gfx908"),
    ("v_mov_b32_dpp v0, v1 row_share:1", "gfx950"),
    ("v_ceil_f64_dpp v[0:1], v[2:3] row_shl:1", "gfx90a"),
    ("v_ceil_f64_dpp v[0:1], v[2:3] row_newbcast:1", "gfx908"),
])
def test_run_refuses_an_undefined_dpp_control(asm: str, target: str) -> None:
    """With the front end bypassed, the simulator still stops rather than invent a lane mapping."""
    sys.path.insert(0, str(Path(__file__).parent))
    from semhelpers import run
    run(asm, target, check=False, expect_error=" DPP ")


def test_promoted_row_newbcast_runs_as_dpp() -> None:
    """`v_mov_b32 v0, v1 row_newbcast:1` is v_mov_b32_dpp on gfx90a+: every lane of a row reads lane 1."""
    sys.path.insert(0, str(Path(__file__).parent))
    import numpy as np
    from semhelpers import run
    x = np.arange(64, dtype=np.uint32) * 10
    r = run("v_mov_b32 v0, v1 row_newbcast:1", "gfx90a", v={1: x})
    assert list(r.v(0)) == [x[(i & ~15) + 1] for i in range(64)]
