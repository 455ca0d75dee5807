"""Assembly line generator for the differential test and the parse benchmark.

`generate(seed, variants)` walks every row of gcnemu's instruction table and
writes, for each, a canonical line built from the row (operand widths from the
MFMA catalog for every target that has the spelling) plus `variants` mutated
lines: wrong register widths, misaligned tuples, another register file,
constants (inline, literal, float, out of range), out-of-range registers,
missing and extra operands, missing commas, upper-case mnemonics, encoding
suffixes, modifiers legal and not (with boundary values), source modifiers,
typos in the mnemonic. Fixed families add s_waitcnt spellings, counter values,
branch targets, symbols and a matrix of constants against operand types.

Lines are independent of each other; `PRELUDE` defines the symbols and labels
they may use. Every line is meant to be assembled on every target: which of
them are valid is the oracle's (llvm-mc's) business, not the generator's.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

try:
    from gcnemu.isa import opcodes
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from gcnemu.isa import opcodes

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")

PRELUDE = [
    ".set SYM_SMALL, 4",
    "SYM_BIG = 0x12345",
    ".set SYM_NEG, -8",
    "LBL_A:",
]

_CPOL = ["glc", "slc", "scc", "sc0", "sc1", "nt"]
_MODS_ANY = ["clamp", "mul:2", "div:2", "mul:4", "mul:3", "glc", "slc", "sc0", "nt", "gds", "lds", "offen",
             "idxen", "offset:4", "offset0:1", "offset1:1", "cbsz:1", "abid:1", "blgp:1", "op_sel:[1,0]",
             "op_sel_hi:[0,0]", "neg_lo:[1,0]", "neg_hi:[0,1]", "neg:[0,0,1]", "dlc", "tfe", "bogus:1"]
_CONSTS = ["0", "1", "64", "65", "-16", "-17", "0x3f800000", "0x3c00", "0x12345", "0xffffffff", "0x100000000",
           "-1", "1.0", "-4.0", "0.5", "1.5", "0.15915494", "-0.0", "1e40", "65504.0", "70000.0", "0xffff",
           "0x7fffffff", "-0x80000000", "0x3ff0000000000000", "0x3ff00000", "SYM_SMALL", "SYM_BIG", "SYM_NEG",
           "SYM_LATER"]


def _reg(file: str, index: int, width: int) -> str:
    if width == 1:
        return f"{file}{index}"
    return f"{file}[{index}:{index + width - 1}]"


def _sgpr(index: int, width: int) -> str:
    return _reg("s", index, width)


class _Line:
    """A mnemonic, operand texts and modifier texts; `text()` joins them like llvm-mc prints."""

    def __init__(self, mnemonic: str, operands: list[str], modifiers: list[str]):
        self.mnemonic = mnemonic
        self.operands = list(operands)
        self.modifiers = list(modifiers)

    def copy(self) -> "_Line":
        return _Line(self.mnemonic, self.operands, self.modifiers)

    def text(self, sep: str = ", ") -> str:
        parts = [self.mnemonic]
        if self.operands:
            parts.append(sep.join(self.operands))
        parts += self.modifiers
        return " ".join(parts)


# ------------------------------------------------------------------ canonical lines


def _mfma_infos(name: str) -> list:
    """Distinct catalog shapes of a spelling across targets."""
    try:
        from gcnemu.isa import mfma
    except ImportError:
        return []
    seen, out = set(), []
    for t in TARGETS:
        info = mfma.lookup(name, t)
        if info is None:
            continue
        key = (info.a_regs, info.b_regs, info.cd_regs, info.sparse, info.scaled)
        if key not in seen:
            seen.add(key)
            out.append(info)
    return out


def canonical(info: opcodes.OpInfo) -> list[_Line]:
    """Lines that should assemble wherever the mnemonic exists (one per MFMA shape)."""
    name = info.mnemonic
    enc = info.encoding
    ops: list[str] = []
    mods: list[str] = []
    if enc.startswith("SOP"):
        nxt = 0
        for spec in info.operands:
            k = spec.kinds
            if k == "n":
                ops.append("1")
            elif k == "L":
                ops.append("LBL_A")
            elif k == "w":
                ops.append("vmcnt(0) lgkmcnt(0)")
            elif k == "m":
                ops.append("sendmsg(MSG_INTERRUPT)")
            elif k == "h":
                ops.append("hwreg(HW_REG_MODE, 0, 1)")
            elif k == "k":
                ops.append("0x10")
            elif k == "il":
                ops.append("0x1234")
            else:
                w = spec.width
                idx = nxt + (-nxt % (2 if w == 2 else 4 if w > 2 else 1))
                ops.append(_sgpr(idx, w))
                nxt = idx + w
        if name == "s_endpgm":
            ops = []
        return [_Line(name, ops, mods)]
    if enc == "SMEM":
        for spec in info.operands:
            if spec.role in ("sdst", "sdata"):
                ops.append(_sgpr(16, spec.width) if spec.width > 1 else "s16")
            elif spec.role == "sbase":
                ops.append(_sgpr(0, spec.width))
            elif spec.role == "soffset":
                ops.append("0x10")
        return [_Line(name, ops, mods)]
    if enc in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"):
        vi = 10
        for spec in info.operands:
            if spec.kinds == "s" and spec.width == 2:
                ops.append("vcc")
            elif spec.kinds == "s":
                ops.append("s20")
            elif spec.kinds == "si":
                ops.append("5")
            elif spec.kinds == "sil":
                ops.append("s21")
            elif spec.kinds == "a":
                ops.append(_reg("a", vi, spec.width))
                vi += 2
            else:
                ops.append(_reg("v", vi, spec.width))
                vi += 4
        return [_Line(name, ops, mods)]
    if enc == "MAI":
        if name == "v_accvgpr_read_b32":
            return [_Line(name, ["v1", "a2"], [])]
        if name == "v_accvgpr_write_b32":
            return [_Line(name, ["a1", "v2"], [])]
        out = []
        for mi in _mfma_infos(name):
            d = _reg("a", 0, mi.cd_regs)
            a = _reg("v", 32, mi.a_regs)
            b = _reg("v", 48, mi.b_regs)
            if mi.sparse:
                out.append(_Line(name, [d, a, b, "v60"], []))
            elif mi.scaled:
                out.append(_Line(name, [d, a, b, d, "v60", "v61"], []))
            else:
                out.append(_Line(name, [d, a, b, d], []))
                vd = _reg("v", 64, mi.cd_regs)
                out.append(_Line(name, [vd, a, b, vd], []))
        return out
    if enc == "DS":
        vi = 2
        for spec in info.operands:
            if spec.role == "addr":
                ops.append("v1")
            else:
                ops.append(_reg("v", vi, spec.width))
                vi += 4
        if "offset" in info.modifiers:
            mods.append("offset:16")
        if "offset0" in info.modifiers:
            mods += ["offset0:1", "offset1:2"]
        return [_Line(name, ops, mods)]
    if enc in ("GLOBAL", "FLAT"):
        lines = []
        for saddr in (["off"], ["s[0:1]"]) if enc == "GLOBAL" else ([],):
            ops = []
            for spec in info.operands:
                if spec.role == "saddr":
                    continue
                if spec.role == "vaddr":
                    ops.append("v[0:1]" if saddr in (["off"], []) else "v0")
                else:
                    ops.append(_reg("v", 4 if spec.role == "vdst" else 8, spec.width))
            if "atomic" in info.flags:
                ops = ops[1:]  # no-return form; the returning form is a mutation
            lines.append(_Line(name, ops + saddr, ["offset:16"]))
        return lines
    if enc == "SCRATCH":  # the four addressing forms; `v1, s2` and `off, off` are gfx942+ only
        lines = []
        for vaddr, saddr in (("v1", "off"), ("off", "s2"), ("v1", "s2"), ("off", "off")):
            ops = []
            for spec in info.operands:
                ops.append(vaddr if spec.role == "vaddr" else saddr if spec.role == "saddr" else
                           _reg("v", 4 if spec.role == "vdst" else 8, spec.width))
            lines.append(_Line(name, ops, ["offset:16"] if saddr == "off" else []))
        return lines
    if enc == "MUBUF":
        if not info.operands:  # cache maintenance (buffer_wbl2, buffer_inv...): the bare mnemonic
            return [_Line(name, [], [])]
        vdata = info.operands[0]
        return [_Line(name, [_reg("v", 4, vdata.width), "v0", "s[8:11]", "s2"], ["offen", "offset:16"]),
                _Line(name, [_reg("v", 4, vdata.width), "off", "s[8:11]", "0"], [])]
    return []


# ------------------------------------------------------------------ mutations


def _bump_width(op: str, rng: random.Random) -> str | None:
    import re
    m = re.fullmatch(r"([vsa])\[(\d+):(\d+)\]", op)
    if m:
        lo, hi = int(m.group(2)), int(m.group(3))
        d = rng.choice([-1, 1]) if hi > lo else 1
        return f"{m.group(1)}[{lo}:{hi + d}]" if hi + d > lo else f"{m.group(1)}{lo}"
    m = re.fullmatch(r"([vsa])(\d+)", op)
    if m:
        i = int(m.group(2))
        return f"{m.group(1)}[{i}:{i + 1}]"
    return None


def _shift(op: str, rng: random.Random) -> str | None:
    import re
    m = re.fullmatch(r"([vsa])\[(\d+):(\d+)\]", op)
    if m:
        lo, hi = int(m.group(2)), int(m.group(3))
        d = rng.choice([1, 2, 3])
        return f"{m.group(1)}[{lo + d}:{hi + d}]"
    m = re.fullmatch(r"([vsa])(\d+)", op)
    if m:
        return f"{m.group(1)}{int(m.group(2)) + 1}"
    return None


def _refile(op: str, rng: random.Random) -> str | None:
    import re
    m = re.fullmatch(r"([vsa])(\[.*\]|\d+)", op)
    if not m:
        return None
    other = rng.choice([f for f in "vsa" if f != m.group(1)])
    return other + m.group(2)


def _out_of_range(op: str, rng: random.Random) -> str | None:
    import re
    m = re.fullmatch(r"([vsa])\[(\d+):(\d+)\]", op)
    if m:
        w = int(m.group(3)) - int(m.group(2))
        lo = {"v": 254, "a": 252, "s": 100}[m.group(1)] - rng.choice([0, 2, 4])
        return f"{m.group(1)}[{lo}:{lo + w}]"
    m = re.fullmatch(r"([vsa])(\d+)", op)
    if m:
        return m.group(1) + str(rng.choice({"v": [255, 256], "a": [255, 256], "s": [101, 102, 106]}[m.group(1)]))
    return None


def _special(rng: random.Random) -> str:
    return rng.choice(["vcc", "exec", "m0", "vcc_lo", "exec_hi", "ttmp2", "ttmp[4:5]", "flat_scratch", "scc",
                       "src_scc", "null", "off", "s101", "xnack_mask_lo"])


def _mod_values(name: str, info: opcodes.OpInfo) -> list[str]:
    enc = info.encoding
    if name == "offset":
        if enc == "DS":
            return ["offset:0", "offset:65535", "offset:65536", "offset:-1", "offset:0x10", "offset:2*4"]
        if enc in ("GLOBAL", "SCRATCH"):
            return ["offset:-4096", "offset:4095", "offset:4096", "offset:-4097", "offset:SYM_NEG"]
        if enc == "FLAT":
            return ["offset:4095", "offset:4096", "offset:-1", "offset:0"]
        if enc == "MUBUF":
            return ["offset:4095", "offset:4096", "offset:65535", "offset:65536", "offset:-1"]
        if enc == "SMEM":
            return ["offset:4"]
    if name in ("offset0", "offset1"):
        return [f"{name}:0", f"{name}:255", f"{name}:256", f"{name}:-1"]
    if name == "cbsz":
        return ["cbsz:0", "cbsz:3", "cbsz:4", "cbsz:7", "cbsz:8"]
    if name == "abid":
        return ["abid:0", "abid:1", "abid:15", "abid:16"]
    if name == "blgp":
        return ["blgp:0", "blgp:3", "blgp:4", "blgp:7", "blgp:8"]
    if name in ("op_sel", "op_sel_hi", "neg_lo", "neg_hi", "neg"):
        return [f"{name}:[1,0]", f"{name}:[0,1,1]", f"{name}:[1,1,1,1]", f"{name}:[2,0]", f"{name}:[0,0,0,0,1]",
                f"{name}:[1]"]
    if name == "omod":
        return ["mul:2", "mul:4", "div:2", "mul:3"]
    if name == opcodes.CPOL:
        return list(_CPOL)
    return [name]


def mutations(info: opcodes.OpInfo, base: _Line, rng: random.Random, n: int) -> list[str]:
    out: list[str] = []
    kinds = ["width", "shift", "refile", "const", "range", "drop", "extra", "nocomma", "upper", "suffix", "mod",
             "badmod", "dupmod", "negsrc", "special", "typo", "modswap"]
    for _ in range(n):
        k = rng.choice(kinds)
        ln = base.copy()
        idx = rng.randrange(len(ln.operands)) if ln.operands else None
        if k == "width" and idx is not None:
            r = _bump_width(ln.operands[idx], rng)
            if r is None:
                continue
            ln.operands[idx] = r
        elif k == "shift" and idx is not None:
            r = _shift(ln.operands[idx], rng)
            if r is None:
                continue
            ln.operands[idx] = r
        elif k == "refile" and idx is not None:
            r = _refile(ln.operands[idx], rng)
            if r is None:
                continue
            ln.operands[idx] = r
        elif k == "const" and idx is not None:
            ln.operands[idx] = rng.choice(_CONSTS)
        elif k == "range" and idx is not None:
            r = _out_of_range(ln.operands[idx], rng)
            if r is None:
                continue
            ln.operands[idx] = r
        elif k == "drop" and idx is not None:
            del ln.operands[idx]
        elif k == "extra":
            ln.operands.append(rng.choice(["v1", "s1", "0", "vcc"]))
        elif k == "nocomma":
            out.append(ln.text(sep=" "))
            continue
        elif k == "upper":
            ln.mnemonic = ln.mnemonic.upper()
        elif k == "suffix":
            ln.mnemonic += rng.choice(["_e32", "_e64", "_sdwa", "_dpp", "_e64"])
        elif k == "mod":
            names = sorted(info.modifiers) or ["clamp"]
            ln.modifiers = [m for m in ln.modifiers if not m.startswith("offset")] + \
                [rng.choice(_mod_values(rng.choice(names), info))]
        elif k == "badmod":
            ln.modifiers.append(rng.choice(_MODS_ANY))
        elif k == "dupmod":
            if not ln.modifiers:
                continue
            ln.modifiers.append(ln.modifiers[0])
        elif k == "negsrc" and idx is not None:
            ln.operands[idx] = rng.choice(["-", "|", "-|", "neg(", "abs("]) + ln.operands[idx]
            if ln.operands[idx].startswith("-|") or ln.operands[idx].startswith("|"):
                ln.operands[idx] += "|"
            elif "(" in ln.operands[idx]:
                ln.operands[idx] += ")"
        elif k == "special" and idx is not None:
            ln.operands[idx] = _special(rng)
        elif k == "typo":
            m = ln.mnemonic
            i = rng.randrange(2, len(m))
            ln.mnemonic = m[:i] + m[i + 1:]
        elif k == "modswap":
            if len(ln.modifiers) < 2:
                continue
            ln.modifiers.reverse()
        else:
            continue
        out.append(ln.text())
    return out


# ------------------------------------------------------------------ fixed families


def fixed_lines() -> list[str]:
    out = []
    # s_waitcnt spellings and counter boundaries
    for f in ("vmcnt(0)", "vmcnt(63)", "vmcnt(64)", "vmcnt(-1)", "expcnt(7)", "expcnt(8)", "lgkmcnt(15)",
              "lgkmcnt(16)", "vmcnt_sat(70)", "lgkmcnt_sat(99)", "expcnt_sat(8)", "VMCNT(0)", "depctr(0)",
              "vmcnt(0) lgkmcnt(0)", "vmcnt(0) & lgkmcnt(0)", "vmcnt(0), lgkmcnt(0)", "vmcnt(0)&expcnt(0)",
              "vmcnt(0) && lgkmcnt(0)", "0", "0xffff", "-1", "vmcnt(0) vmcnt(1)", "vmcnt(SYM_SMALL)",
              "lgkmcnt(SYM_BIG)", "vmcnt(1+2) expcnt(3)", "vmcnt(SYM_LATER)", "vmcnt", "vmcnt()",
              "vmcnt(0) lgkmcnt(0) expcnt(0)", "1.0"):
        out.append(f"s_waitcnt {f}")
    for v in ("0", "15", "16", "0xffff", "0x10000", "-1", "SYM_SMALL", "SYM_LATER", "1.0", "x"):
        out += [f"s_nop {v}", f"s_setprio {v}", f"s_sleep {v}"]
    for t in ("LBL_A", "LBL_MISSING", "SYM_SMALL", "0", "-32768", "-32769", "32767", "65535", "65536", "vcc",
              "LBL_A+4"):
        out += [f"s_branch {t}", f"s_cbranch_scc1 {t}", f"s_cbranch_execz {t}"]
    for h in ("hwreg(HW_REG_MODE)", "hwreg(HW_REG_MODE, 0, 1)", "hwreg(HW_REG_HW_ID, 31, 1)",
              "hwreg(HW_REG_MODE, 32, 1)", "hwreg(HW_REG_MODE, 0, 33)", "hwreg(HW_REG_BOGUS)", "hwreg(5)",
              "hwreg(64)", "0x1234", "0x10000", "-1"):
        out += [f"s_getreg_b32 s0, {h}", f"s_setreg_b32 {h}, s1"]
    for msg in ("sendmsg(MSG_INTERRUPT)", "sendmsg(MSG_BOGUS)", "3", "0x10000"):
        out.append(f"s_sendmsg {msg}")
    # constant matrix: inline/literal rules per operand type and encoding
    targets = ["v_mov_b32 v0, {}", "v_mov_b32_e64 v0, {}", "v_add_f32 v0, {}, v1", "v_add_f32_e64 v0, {}, v1",
               "v_add_u32 v0, {}, v1", "v_add_u32_e64 v0, {}, v1", "v_add_f16 v0, {}, v1",
               "v_add_f16_e64 v0, {}, v1", "v_add_u16 v0, {}, v1", "v_add_u16_e64 v0, {}, v1",
               "v_add_f64 v[0:1], {}, v[2:3]", "v_rcp_f64 v[0:1], {}", "v_lshlrev_b64 v[0:1], 1, {}",
               "v_pk_add_f16 v0, {}, v1", "v_pk_add_u16 v0, {}, v1", "v_pk_add_f32 v[0:1], {}, v[2:3]",
               "s_mov_b32 s0, {}", "s_mov_b64 s[0:1], {}", "s_add_u32 s0, s1, {}", "s_movk_i32 s0, {}",
               "s_cmpk_eq_u32 s0, {}", "v_mov_b64 v[0:1], {}", "v_cmp_eq_u32 vcc, {}, v1",
               "v_cmp_eq_f32_e64 s[0:1], {}, v1", "v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], {}",
               "v_accvgpr_write_b32 a0, {}", "v_readlane_b32 s0, v1, {}", "v_writelane_b32 v0, {}, 5",
               "s_load_dword s0, s[0:1], {}", "buffer_load_dword v1, v0, s[4:7], {} offen"]
    for t in targets:
        for c in _CONSTS:
            out.append(t.format(c))
    # constant bus and implicit operands
    out += ["v_add_f32_e64 v0, s0, s0", "v_add_f32_e64 v0, s0, s1", "v_add_f32_e64 v0, vcc_lo, s0",
            "v_cndmask_b32 v0, s1, v2, vcc", "v_cndmask_b32_e64 v0, s0, v2, s[0:1]", "v_div_fmas_f32 v0, s0, v1, v2",
            "v_addc_co_u32_e64 v0, s[0:1], s4, v2, s[2:3]", "v_writelane_b32 v0, s1, s2",
            "v_writelane_b32 v0, s1, m0", "v_fma_f32 v0, s1, s1, s1", "v_fma_f32 v0, s1, s2, v1",
            "v_fma_f32 v0, 1.0, s2, v1", "v_mad_u32_u24 v0, s1, 0x10, v2", "v_add_u32 v0, 0x12345, v1",
            "v_cmp_eq_u32_e64 s[0:1], s2, s2", "v_cmp_eq_u32_e64 s[0:1], s2, s3"]
    # parse-level oddities
    out += ["v_add_u32 v0 v1 v2", "v_add_u32 v0,, v1, v2", "v_add_u32 v0, v1, v2,", "s_mov_b32 s0, s1,",
            "V_ADD_U32 v0, v1, v2", "v_add_u32 V0, v1, v2", "v_add_u32 v0, v1, v[2:1]", "v_mov_b32 v0, v[1 : 1]",
            "v_mov_b32 v0, [v1]", "s_mov_b64 s[0:1], [s2, s3]", "s_mov_b64 s[0:1], [s3, s4]",
            "v_mov_b32 v0, acc1", "v_accvgpr_read_b32 v0, acc1", "v_accvgpr_read v0, a1", "v_accvgpr_write a0, v1",
            "v_mov_b32 v0, v1 ; comment", "v_mov_b32 v0, v1 // comment", "v_mov_b32 v0, /* c */ v1",
            "v_mov_b32\tv0,\tv1", "s_endpgm 0", "s_barrier 0", "s_endpgm", "v_nop", "s_nop", "s_waitcnt",
            "v_mov_b32 v0, s[0:1]", "v_mov_b32 v0, v[0:12]", "v_mov_b32 v0, v[0:11]", "s_mov_b32 s0, s[0:31]",
            "v_mov_b32 v0, (1+2)*3", "v_mov_b32 v0, 1 << 4", "v_mov_b32 v0, -(4)", "v_mov_b32 v0, ~0",
            "global_load_dword v0, v[0:1], off, offset:4", "global_load_dword v0, v[0:1] , off",
            "buffer_load_dword v1, v[0:1], s[4:7], 0 idxen offen", "buffer_load_dword v1, v[0:1], s[4:7], 0 offen idxen",
            "buffer_load_dword v1, s[4:7], 0 offen lds", "buffer_load_dword off, s[4:7], 0 lds",
            "buffer_load_dword v0, s[4:7], 0 lds", "buffer_load_dwordx4 v0, s[4:7], 0 offen lds",
            "buffer_store_dword v1, v0, s[4:7], 0 offen lds", "global_load_lds_dword v[0:1], off",
            "global_load_lds_dword v0, s[0:1] offset:4", "global_load_lds_dwordx4 v[0:1], off",
            "global_load_dword v0, v[0:1], off lds", "ds_read_b64_tr_b16 v[0:1], v2 offset:8",
            "ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,16)", "ds_swizzle_b32 v0, v1 offset:swizzle(BOGUS)",
            "ds_swizzle_b32 v0, v1 offset:0xffff", "s_load_dword s0, s[0:1]", "s_load_dword s0, s[0:1], s2 offset:4",
            "s_load_dword s0, s[0:1], 0 offset:4", "s_load_dword s0, s[0:1], 0x12 dlc",
            "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[8:23]", "v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], a[2:5]",
            "v_mfma_f32_32x32x8f16 v[0:15], a[0:1], a[2:3], v[0:15]", "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], v[0:15]"]
    return out


def scratch_lines() -> list[str]:
    """scratch_* operands llvm-mc 22 accepts on some targets only: saddr registers, addressing forms with
    offsets at the bounds, cache-policy bits per target, AGPR and odd-aligned data, `scc` as saddr or bit."""
    out = []
    for sa in ("s2", "s101", "s102", "ttmp2", "vcc_lo", "vcc_hi", "exec_lo", "exec_hi", "m0", "flat_scratch_lo",
               "flat_scratch_hi", "xnack_mask_lo", "src_scc", "scc", "src_vccz", "src_execz", "src_lds_direct",
               "src_pops_exiting_wave_id", "src_shared_base", "vcc", "exec", "null", "s[2:3]", "s[2:2]", "[s2]", "0",
               "SYM_SMALL", "-s2", "v2", "a2", "lit(1)"):
        out += [f"scratch_load_dword v0, v1, {sa}", f"scratch_load_dword v0, off, {sa}",
                f"scratch_store_dword off, v2, {sa}", f"scratch_load_lds_dword off, {sa}"]
    for va in ("v1", "off", "v255", "v[1:2]", "v[1:1]", "[v1]", "a1", "s1", "0", "-v1", "|v1|", "vcc_lo"):
        out += [f"scratch_load_dword v0, {va}, off", f"scratch_store_dword {va}, v2, s3",
                f"scratch_load_lds_dword {va}, off"]
    forms = ("v1, off", "off, s2", "v1, s2", "off, off")
    for f in forms:
        for o in ("offset:4095", "offset:4096", "offset:-4096", "offset:-4097", "offset:0x7ff", "offset:SYM_NEG",
                  "offset:SYM_LATER", "offset:2*4", "offset:4 offset:8"):
            out += [f"scratch_load_dword v0, {f} {o}", f"scratch_store_dword {f.split(',')[0]}, v2,{f.split(',')[1]} {o}"]
        for c in ("glc", "slc", "glc slc", "scc", "glc slc scc", "sc0", "sc1", "nt", "sc0 sc1 nt", "nt sc0", "dlc",
                  "glc glc", "sc0 sc0", "offset:4 glc", "glc offset:4", "offset:4 sc0 nt", "sc0 offset:4", "lds",
                  "offset:4096 glc", "offset:4096 sc0", "offset:4096 sc0 bogus", ", offset:4", ", scc", ", sc1"):
            out += [f"scratch_load_dword v0, {f} {c}", f"scratch_load_lds_dword {f} {c}"]
    for d in ("a0", "a[0:1]", "v[0:1]", "v[1:2]", "a[1:2]", "v[1:3]", "v[2:4]", "v[3:5]", "a[2:4]", "v[0:3]",
              "v[1:4]", "a[0:3]", "v[255:256]", "v[254:255]", "s[0:1]"):
        for mn in ("load_dword", "load_dwordx2", "load_dwordx3", "load_dwordx4"):
            out += [f"scratch_{mn} {d}, v1, off", f"scratch_{mn} {d}, off, s2"]
        out.append(f"scratch_store_dwordx{min(max(len(d) // 3, 2), 4)} v1, {d}, off")
    out += ["scratch_load_dword v0, v1 scc", "scratch_load_dword v0, v1 offset:4", "scratch_load_dword v0, v1 glc",
            "scratch_load_dword v0, v1 sc0", "scratch_load_dword v0 offset:4", "scratch_load_dword v0 glc",
            "scratch_store_dword v1, v2 offset:4", "scratch_store_dword v1, v2 scc", "scratch_load_lds_dword v1",
            "scratch_load_lds_dword v1 offset:4", "scratch_load_lds_dword v1 scc", "scratch_load_dword s0, v1",
            "scratch_load_dword s0, v1, off, off", "scratch_load_dword v0, s1", "scratch_load_lds_dword v1, v2, off",
            "scratch_load_dword v0, v1, s2, s3", "scratch_load_dword v0, v1, off, off", "scratch_load_dword",
            "scratch_load_dword v0", "SCRATCH_LOAD_DWORD v0, v1, off", "Scratch_Store_Dword off, v2, s3 SC0 offset:8",
            "  scratch_load_ubyte_d16_hi v0, v1, s2", "scratch_load_dword_e64 v0, v1, off",
            "scratch_load_dword v0 v1 off", "scratch_load_dword v0, v1, off mul:2", "scratch_load_dword v0, v1, off tfe",
            "scratch_load_dword v0, v1, off offset", "scratch_load_dword v0, v1, off offen",
            "scratch_load_dword v0, v1, off offset:lit(4)", "scratch_load_lds_dwordx4 v1, off",
            "scratch_store_dword v1, v2, scc", "scratch_store_dword off, v2, scc offset:4", "scratch_load_dword v0, off, scc glc",
            "scratch_store_dword v1, a2, s3", "scratch_store_dword off, a2, off", "scratch_load_dwordx2 a[0:1], off, off"]
    return out


def generate(seed: int = 1234, variants: int = 6) -> list[str]:
    """The differential test's lines (without PRELUDE)."""
    rng = random.Random(seed)
    srng = random.Random(seed + 1)  # scratch rows: their own stream, the other rows' mutations stay as they were
    lines: list[str] = []
    for name in sorted(opcodes.table()):
        info = opcodes.table()[name]
        r = srng if info.encoding == "SCRATCH" else rng
        for base in canonical(info):
            lines.append(base.text())
            lines += mutations(info, base, r, variants)
    lines += fixed_lines()
    lines += scratch_lines()
    lines.append("SYM_LATER = 3")
    return lines


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1234
    for line in PRELUDE + generate(seed):
        print(line)
