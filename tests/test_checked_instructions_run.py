"""A kernel that checks but cannot run is a bug (issue 14 item 4).

For every target, every mnemonic that `gcnemu check` accepts and that `check --list-unmodelled`
does not list gets a minimal valid instance (the canonical operand lines the llvm-mc differential
test builds from the operand-kind tables, tests/gen_lines.py), kept only where check accepts it,
and runs on one wave with memory behind every address operand. Allowed outcomes: the wave ends,
or the run stops with one of the runtime diagnostics listed in ALLOWED (a jump to a data address,
a trap, an operand value the hardware reserves). Not allowed: a Python exception escaping the
simulator, run saying "not modelled" for an instruction check said nothing about, or any other
error (a new kind of stop must be looked at, and listed here if it is the program's fault).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.asm.validate import validate
from gcnemu.isa import mnemonics, modelled, opcodes
from gcnemu.setup import Setup
from gcnemu.simulation import Simulation

import gen_lines

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
LLVM_MC = next((p for p in ("/usr/lib/llvm-22/bin/llvm-mc", shutil.which("llvm-mc-22")) if p and shutil.which(p)),
               None)
LANE = np.arange(64, dtype=np.uint32)


# Executed mnemonics without an operand row (gcnemu.isa.opcodes), so gen_lines has no canonical
# line for them: one hand-written instance each (llvm-mc 22 assembles every one where it exists).
ROWLESS = """\
ds_append v1
ds_consume v1 offset:16
s_call_b64 s[4:5], LBL_A
s_dcache_discard s[0:1], s2
s_dcache_discard_x2 s[0:1], s2
s_movreld_b32 s4, s5
s_movreld_b64 s[4:5], s[6:7]
s_movrels_b32 s4, s5
s_movrels_b64 s[4:5], s[6:7]
s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)
s_set_gpr_idx_on 5, 15
s_set_gpr_idx_off
s_set_gpr_idx_mode gpr_idx(SRC1)
s_set_gpr_idx_idx s2
v_clrexcp
v_nop
v_cvt_norm_i16_f16 v1, v2
v_cvt_norm_u16_f16 v1, v2
v_cvt_off_f32_i4 v1, v2
v_cvt_pknorm_i16_f16 v1, v2, v3
v_cvt_pknorm_u16_f16 v1, v2, v3
v_dot2c_f32_f16 v1, v2, v3
v_dot2c_i32_i16 v1, v2, v3
v_dot4c_i32_i8 v1, v2, v3
v_dot8c_i32_i4 v1, v2, v3
v_dot2c_f32_bf16 v1, v2, v3
v_fma_legacy_f16 v1, v2, v3, v4
v_fma_mix_f32 v1, v2, v3, v4
v_fma_mixhi_f16 v1, v2, v3, v4
v_fma_mixlo_f16 v1, v2, v3, v4
v_frexp_exp_i16_f16 v1, v2
v_frexp_exp_i32_f64 v1, v[2:3]
v_frexp_mant_f16 v1, v2
v_frexp_mant_f64 v[4:5], v[2:3]
v_lerp_u8 v1, v2, v3, v4
v_mad_i16 v1, v2, v3, v4
v_mad_u16 v1, v2, v3, v4
v_mad_legacy_f16 v1, v2, v3, v4
v_mad_legacy_f32 v1, v2, v3, v4
v_mad_legacy_i16 v1, v2, v3, v4
v_mad_legacy_u16 v1, v2, v3, v4
v_madak_f16 v1, v2, v3, 0x4000
v_madak_f32 v1, v2, v3, 0x40000000
v_madmk_f16 v1, v2, 0x4000, v3
v_madmk_f32 v1, v2, 0x40000000, v3
v_fmaak_f32 v1, v2, v3, 0x40000000
v_fmamk_f32 v1, v2, 0x40000000, v3
v_max3_i16 v1, v2, v3, v4
v_max3_u16 v1, v2, v3, v4
v_med3_i16 v1, v2, v3, v4
v_med3_u16 v1, v2, v3, v4
v_min3_i16 v1, v2, v3, v4
v_min3_u16 v1, v2, v3, v4
v_msad_u8 v1, v2, v3, v4
v_sad_hi_u8 v1, v2, v3, v4
v_sad_u16 v1, v2, v3, v4
v_sad_u32 v1, v2, v3, v4
v_sad_u8 v1, v2, v3, v4
v_pack_b32_f16 v1, v2, v3
v_pk_fmac_f16 v1, v2, v3
v_cvt_f32_bf8 v1, v2
v_cvt_f32_fp8 v1, v2
v_cvt_pk_f32_bf8 v[4:5], v2
v_cvt_pk_f32_fp8 v[4:5], v2
v_cvt_pk_bf8_f32 v1, v2, v3
v_cvt_pk_fp8_f32 v1, v2, v3
v_bitop3_b16 v1, v2, v3, v4 bitop3:0x12
v_bitop3_b32 v1, v2, v3, v4 bitop3:0x12
v_maximum3_f32 v1, v2, v3, v4
v_minimum3_f32 v1, v2, v3, v4
v_pk_maximum3_f16 v1, v2, v3, v4
v_pk_minimum3_f16 v1, v2, v3, v4
v_permlane16_swap_b32 v1, v2
v_permlane32_swap_b32 v1, v2
ds_wrap_rtn_b32 v4, v1, v2, v3
v_qsad_pk_u16_u8 v[4:5], v[2:3], v6, v[8:9]
v_mqsad_pk_u16_u8 v[4:5], v[2:3], v6, v[8:9]
v_mqsad_u32_u8 v[4:7], v[2:3], v8, v[10:13]
v_trig_preop_f64 v[4:5], v[2:3], v6
v_prng_b32 v4, v2
s_atc_probe 7, s[4:5], 0x0
s_atc_probe_buffer 7, s[8:11], 0x0
""".splitlines()

_VREG_SRC = re.compile(r"^(s\d+|vcc|\d+)$")


def _variants(text: str, suffixes: str) -> list[str]:
    """SDWA and DPP spellings of a VOP1/VOP2/VOPC line where the mnemonic has them (sources
    made VGPRs, which both encodings take)."""
    name, _, rest = text.partition(" ")
    ops = [o.strip() for o in rest.split(",")] if rest else []
    srcs = [f"v{20 + k}" if k and _VREG_SRC.match(o) and not (k == 1 and name.startswith("v_cmp")) else o
            for k, o in enumerate(ops)]
    joined = ", ".join(srcs)
    out = []
    if "sdwa" in suffixes:
        out.append(f"{name}_sdwa {joined}")
    if "dpp" in suffixes:
        out.append(f"{name}_dpp {joined} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf")
    return out


def _with_modifiers(info: opcodes.OpInfo, text: str) -> list[str]:
    """The line once with each value gen_lines tries for each modifier the row takes (in and out
    of range: check and llvm-mc keep the valid ones), and the MFMA operand modifiers at 1 (a
    gfx942 xf32 MFMA with cbsz:1 once checked and did not run)."""
    out = []
    for mod in sorted(info.modifiers):
        values = gen_lines._mod_values(mod, info)
        if mod in ("cbsz", "abid", "blgp"):
            values = [f"{mod}:1"] + values
        out += [f"{text} {v}" for v in values]
    return out


def _checks(text: str, target: str) -> bool:
    """check accepts the line and does not list it as not modelled (a `gds` form on gfx908)."""
    prog = gcnemu.parse(text + "\nLBL_A:\ns_endpgm\n", "<probe>")
    return not prog.diagnostics and not any(d.severity == "error" or d.rule == "not-modelled"
                                            for d in validate(prog, target))


def _llvm_mc_accepts(target: str, lines: list[str]) -> list[bool]:
    """One llvm-mc run for all lines; a line is valid when llvm-mc reports no error on it."""
    if LLVM_MC is None:
        return [True] * len(lines)
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-o", os.devnull],
                       input="LBL_A:\n" + "\n".join(lines) + "\n", capture_output=True, text=True)
    bad = {int(m.group(1)) - 2 for m in re.finditer(r"<stdin>:(\d+):\d+: error", r.stderr)}
    return [i not in bad for i in range(len(lines))]


def instances(target: str) -> list[str]:
    """Minimal valid instances of every executed mnemonic of `target`: gen_lines' canonical lines,
    with each modifier value and as SDWA/DPP spellings, and the ROWLESS lines; kept where check
    and llvm-mc accept them."""
    lines = []
    for name in sorted(opcodes.table()):
        if not mnemonics.exists(name, target) or not modelled.executes(name):
            continue
        suffixes = mnemonics.info(name, target).suffixes
        info = opcodes.table()[name]
        for line in gen_lines.canonical(info):
            lines.append(line.text())
            lines += _with_modifiers(info, line.text())
            if info.encoding in ("VOP1", "VOP2", "VOPC"):
                lines += _variants(line.text(), suffixes)
    lines += [l for l in ROWLESS if mnemonics.exists(l.split()[0], target)]
    lines = [l for l in lines if _checks(l, target)]
    return [l for l, ok in zip(lines, _llvm_mc_accepts(target, lines)) if ok]


def _setup(line: str) -> Setup:
    """Memory behind every address the canonical operands name (gen_lines' register choices):
    a global buffer at s[0:1] (and lane addresses in v[0:1] unless s[0:1] is the base), a buffer
    descriptor in s[8:11], LDS addressed by v1, scratch for v1 and s2, the scalar forms' s[0:3]."""
    setup = Setup(kernarg_sgpr=None, workgroup_id_sgprs={}, private_segment_size=4096)
    data = np.zeros(1 << 14, dtype=np.uint32)
    setup.add_buffer("g", data, sgpr="s[0:1]")
    setup.add_buffer("b", np.zeros(1 << 14, dtype=np.uint32), rsrc="s[8:11]")
    setup.vgprs["v1"] = LANE * 16
    setup.sgprs["s2"] = 0
    return setup


def run_line(line: str, target: str) -> Simulation:
    text = f"{line}\nLBL_A:\ns_endpgm\n"
    kernel = resolve(gcnemu.parse(text, "<probe>"), target, validate_first=False)
    sim = Simulation(kernel, _setup(line), abi_from_file=False, max_instructions=1000)
    w = sim.wave(0)
    base = int(w.sgpr[0]) | (int(w.sgpr[1]) << 32)
    saddr = re.search(r",\s*s\[0:1\]", line) and line.split()[0].startswith(("global_", "scratch_"))
    if saddr or line.split()[0].startswith("s_"):  # s[0:1] is the base: v0 is a lane offset
        w.vgpr[0] = LANE * 16
    else:  # v[0:1] holds each lane's 64-bit address
        w.vgpr[0] = ((base + LANE.astype(np.uint64) * 16) & 0xFFFFFFFF).astype(np.uint32)
        w.vgpr[1] = np.uint32(base >> 32)
    w.sgpr[124] = 0  # M0 (s_movrels/s_movreld index by it)
    w.vgpr_init[:] = True
    w.agpr_init[:] = True
    sim.run()
    return sim


# What a one-line program may legitimately stop with: the diagnostics a user gets from the
# program's own values (the probe's registers are arbitrary), each clear about what to change.
ALLOWED = re.compile("|".join([
    # s_setpc/s_swappc to the probe's register values (a buffer address, a poison pattern): code has
    # byte addresses, and a jump where no instruction starts stops there
    r"s_(?:set|swap)pc_b64 jumps to 0x[0-9a-f]+, which is not an instruction address",
    r"^s_trap \d+: ",  # the trap handler
    r"is not 8-byte aligned; the ISA guide requires",  # gfx950 transpose loads at the probe's LDS address
    r"abid needs cbsz > 0",  # llvm-mc encodes abid without a broadcast group; gcnemu will not guess
    r"f8f6f4 format code must be 0\.\.4",  # cbsz/blgp 5..7 on f8f6f4 MFMAs: reserved formats
    r"abid selects one of \d+ index set",  # SMFMAC abid beyond the sparse index sets
    r"outside its \d+-byte private segment \(scratch overflow\)",  # scratch offsets past the segment
    r"runs past the end of buffer",  # a memory fault: an offset past the probe's buffer
]))


@pytest.mark.parametrize("target", TARGETS)
def test_every_instruction_check_accepts_and_run_executes_runs_on_one_wave(target):
    lines = instances(target)
    covered = {mnemonics.info(l.split()[0], target).name for l in lines}
    executed = {r.name for r in mnemonics._table(target).rows.values() if modelled.executes(r.name)}
    assert executed - covered == set(), "every executed mnemonic has an instance"
    broken = []
    for line in lines:
        try:
            sim = run_line(line, target)
        except Exception as e:  # noqa: BLE001 - any escape is the bug this test exists for
            broken.append(f"{line}: {type(e).__name__}: {e}")
            continue
        if sim.error is not None and not ALLOWED.search(sim.error.message):
            broken.append(f"{line}: {sim.error.message}")
    assert broken == [], f"{len(broken)} of {len(lines)}:\n" + "\n".join(broken)
