"""Instruction table: one row per mnemonic, as data.

A row says what the instruction's operands are (role, allowed kinds, width in
32-bit registers, read or written, value type), which pipe executes it, which
memory counters it increments, which modifiers it accepts and which implicit
effects it has (flags). Validation, the simulator (which operands to read and
when results land), the hazard linter (producer/consumer classes) and the
debugger all read the same rows.

Rows are written in compact forms and expanded by small generators for
families (sizes, types, compare conditions):
- `_SCALAR_ROWS`: text rows, see `_parse_row`;
- `_VALU`: `name enc dst : srcs | mods` signatures with value types;
- generator functions for DS, FLAT/GLOBAL/SCRATCH, MUBUF, SMEM, VOPC and MFMA rows.

Which targets have a mnemonic at all is answered by `gcnemu.isa.mnemonics`
(generated from LLVM); MFMA operand widths come from the MFMA catalog
(`gcnemu.isa.mfma`), so `lookup(mnemonic, target)` fills them per target (the
same spelling can name different shapes on gfx90a and gfx942). Suffixes
`_e32`/`_e64`/`_sdwa`/`_dpp` select an encoding of the same row.

Operand kinds (letters in the `kinds` field):
  v  VGPR             a  AGPR             s  SGPR or special scalar (vcc, exec, m0, ttmp...)
  i  inline constant  l  32-bit literal   o  `off`            L  label / branch target
  k  16-bit immediate w  s_waitcnt fields h  hwreg(...)       m  sendmsg(...)
  n  any integer expression (e.g. s_nop count)
An `a` next to `v` means "VGPR or AGPR" (AV operand); AGPRs outside MFMA and
v_accvgpr_* are accepted on gfx90a+ only (unified register file).

Operand value types (`OperandSpec.type`), which decide inline constants and
literal ranges: b32 i32 u32 f32 (32-bit), b16 i16 u16 f16 bf16 (16-bit),
b64 i64 u64 f64 (64-bit), v2i16 v2f16 (packed 16-bit), v2f32 v2b32 (packed
32-bit pairs). Empty for non-value operands.

Pipes: salu, valu, trans, dp, smem, vmem, lds, mfma, branch, msg, nop, waitcnt,
barrier. Counters: vm (vmcnt), lgkm (lgkmcnt), exp (expcnt). On gfx9 there is
no vscnt: stores and LDS DMA count in vm.

Flags: load, store, atomic, returns-data, writes-exec, reads-exec, writes-vcc,
reads-vcc, writes-scc, reads-scc, reads-m0, lds-dma, trans, dp, mfma, dgemm,
writes-sgpr (a VALU that writes an SGPR: v_readlane, v_cmp_e64, carry-out...),
branch, cond-branch. Flags describe the row's implicit effects; explicit
operands (e.g. `s_mov_b64 exec, ...`) are visible from the operand list.
Atomics return data only in their `glc`/`sc0` form: `row_for(ins, target)` gives
that variant row (flag returns-data), and the LDS-DMA variant of `buffer_load_*
... lds` (no vdata operand, flag lds-dma, reads-m0).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache


@dataclass(frozen=True)
class OperandSpec:
    role: str  # vdst, sdst, src0, src1, src2, vaddr, vdata, saddr, srsrc, soffset, sbase, soff, simm16, label, ...
    kinds: str  # letters, see module docstring
    width: int = 1  # in 32-bit registers (0: per target, see lookup())
    write: bool = False
    optional: bool = False
    type: str = ""  # value type (b32, f32, f16, b64, v2f16, ...), see module docstring


@dataclass(frozen=True)
class OpInfo:
    mnemonic: str  # canonical spelling, no encoding suffix
    encoding: str  # SOP1, SOP2, SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOP3, VOPC, VOP3P, MAI, DS, FLAT, GLOBAL, SCRATCH, MUBUF
    pipe: str  # salu, valu, trans, dp, smem, vmem, lds, mfma, branch, msg, nop, waitcnt, barrier
    operands: tuple[OperandSpec, ...]
    modifiers: frozenset = field(default_factory=frozenset)
    counters: frozenset = field(default_factory=frozenset)  # subset of {"vm", "lgkm", "exp"}
    flags: frozenset = field(default_factory=frozenset)  # store, load, atomic, lds-dma, writes-exec, ...
    variant: str = ""  # "" for the base row; "rtn" (returning atomic), "lds" (LDS DMA form)

    def operand(self, role: str) -> OperandSpec | None:
        for o in self.operands:
            if o.role == role:
                return o
        return None

    def has(self, flag: str) -> bool:
        return flag in self.flags


# ------------------------------------------------------------------ type helpers

TYPE_WIDTH = {
    "b32": 1, "i32": 1, "u32": 1, "f32": 1, "b16": 1, "i16": 1, "u16": 1, "f16": 1, "bf16": 1,
    "v2i16": 1, "v2f16": 1, "v2bf16": 1, "b64": 2, "i64": 2, "u64": 2, "f64": 2, "v2f32": 2, "v2b32": 2,
}
FLOAT_TYPES = frozenset({"f32", "f16", "bf16", "f64", "v2f16", "v2f32", "v2bf16"})


def _parse_row(line: str) -> OpInfo:
    """`name enc pipe counters operands... | modifiers | flags`.

    An operand is `role:kinds[<width>[w]][?][=type]`, e.g. `vdst:v1w`, `src0:sil1=b32`, `saddr:so2?`;
    `w` after the width marks a written operand (so the kind letter `w`, s_waitcnt fields, stays a kind).
    """
    main, _, rest = line.partition("|")
    mods, _, flags = rest.partition("|")
    parts = main.split()
    name, enc, pipe, ctr = parts[:4]
    ops = []
    for spec in parts[4:]:
        role, _, k = spec.partition(":")
        k, _, typ = k.partition("=")
        optional = k.endswith("?")
        k = k.rstrip("?")
        m = re.match(r"^([A-Za-z]*?)(\d+)(w?)$", k)  # a written operand always states its width
        if m:
            kinds, width, write = m.group(1), int(m.group(2)), bool(m.group(3))
        else:
            kinds, width, write = k, 1, False
        ops.append(OperandSpec(role, kinds, width, write, optional, typ))
    counters = frozenset() if ctr == "-" else frozenset(ctr.split(","))
    return OpInfo(name, enc, pipe, tuple(ops), frozenset(mods.split()), counters, frozenset(flags.split()))


# ------------------------------------------------------------------ scalar rows
# SOP1/SOP2/SOPC/SOPK/SOPP. Types: b32/b64 sources take inline constants and one
# 32-bit literal; SOPK immediates are `k` (16-bit, i16 signed / u16 unsigned).

_SCALAR_ROWS = """
s_nop          SOPP nop     -    count:n                                    | |
s_endpgm       SOPP branch  -    imm:n?                                     | | branch
s_barrier      SOPP barrier -                                               | |
s_waitcnt      SOPP waitcnt -    fields:w                                   | |
s_setprio      SOPP salu    -    prio:n                                     | |
s_sleep        SOPP nop     -    count:n                                    | |
s_trap         SOPP msg     -    id:n                                       | | reads-m0
s_icache_inv   SOPP salu    -                                               | |
s_sendmsg      SOPP msg     lgkm msg:m                                      | | reads-m0
s_sendmsghalt  SOPP msg     lgkm msg:m                                      | | reads-m0
s_setkill      SOPP salu    -    imm:n                                      | |
s_sethalt      SOPP salu    -    imm:n                                      | |
s_incperflevel SOPP salu    -    imm:n                                      | |
s_decperflevel SOPP salu    -    imm:n                                      | |
s_ttracedata   SOPP msg     -                                               | | reads-m0
s_branch       SOPP branch  -    target:L                                   | | branch
s_cbranch_scc0 SOPP branch  -    target:L                                   | | branch cond-branch reads-scc
s_cbranch_scc1 SOPP branch  -    target:L                                   | | branch cond-branch reads-scc
s_cbranch_vccz SOPP branch  -    target:L                                   | | branch cond-branch reads-vcc
s_cbranch_vccnz SOPP branch -    target:L                                   | | branch cond-branch reads-vcc
s_cbranch_execz SOPP branch -    target:L                                   | | branch cond-branch reads-exec
s_cbranch_execnz SOPP branch -   target:L                                   | | branch cond-branch reads-exec
s_getpc_b64    SOP1 salu    -    sdst:s2w                                   | |
s_setpc_b64    SOP1 branch  -    ssrc0:s2=b64                               | | branch
s_swappc_b64   SOP1 branch  -    sdst:s2w ssrc0:s2=b64                      | | branch
s_movk_i32     SOPK salu    -    sdst:s1w simm16:k=i16                      | |
s_cmovk_i32    SOPK salu    -    sdst:s1w simm16:k=i16                      | | reads-scc
s_addk_i32     SOPK salu    -    sdst:s1w simm16:k=i16                      | | writes-scc
s_mulk_i32     SOPK salu    -    sdst:s1w simm16:k=i16                      | |
s_getreg_b32   SOPK salu    -    sdst:s1w hwreg:h                           | |
s_setreg_b32   SOPK salu    -    hwreg:h ssrc0:s1=b32                       | |
s_setreg_imm32_b32 SOPK salu -   hwreg:h imm:il=b32                         | |
"""

# (name, dst type, src types, flags)
_SOP1 = [
    ("s_mov_b32", "b32", ("b32",), ""), ("s_mov_b64", "b64", ("b64",), ""),
    ("s_cmov_b32", "b32", ("b32",), "reads-scc"), ("s_cmov_b64", "b64", ("b64",), "reads-scc"),
    ("s_not_b32", "b32", ("b32",), "writes-scc"), ("s_not_b64", "b64", ("b64",), "writes-scc"),
    ("s_wqm_b32", "b32", ("b32",), "writes-scc"), ("s_wqm_b64", "b64", ("b64",), "writes-scc"),
    ("s_brev_b32", "b32", ("b32",), ""), ("s_brev_b64", "b64", ("b64",), ""),
    ("s_bcnt0_i32_b32", "i32", ("b32",), "writes-scc"), ("s_bcnt0_i32_b64", "i32", ("b64",), "writes-scc"),
    ("s_bcnt1_i32_b32", "i32", ("b32",), "writes-scc"), ("s_bcnt1_i32_b64", "i32", ("b64",), "writes-scc"),
    ("s_ff0_i32_b32", "i32", ("b32",), ""), ("s_ff0_i32_b64", "i32", ("b64",), ""),
    ("s_ff1_i32_b32", "i32", ("b32",), ""), ("s_ff1_i32_b64", "i32", ("b64",), ""),
    ("s_flbit_i32_b32", "i32", ("b32",), ""), ("s_flbit_i32_b64", "i32", ("b64",), ""),
    ("s_flbit_i32", "i32", ("b32",), ""), ("s_flbit_i32_i64", "i32", ("b64",), ""),
    ("s_sext_i32_i8", "i32", ("b32",), ""), ("s_sext_i32_i16", "i32", ("b32",), ""),
    ("s_bitset0_b32", "b32", ("b32",), ""), ("s_bitset0_b64", "b64", ("b32",), ""),
    ("s_bitset1_b32", "b32", ("b32",), ""), ("s_bitset1_b64", "b64", ("b32",), ""),
    ("s_abs_i32", "i32", ("i32",), "writes-scc"),
    ("s_quadmask_b32", "b32", ("b32",), "writes-scc"), ("s_quadmask_b64", "b64", ("b64",), "writes-scc"),
    ("s_bitreplicate_b64_b32", "b64", ("b32",), ""),
]
for _op in ("and", "or", "xor", "andn2", "orn2", "nand", "nor", "xnor", "andn1", "orn1"):
    _SOP1.append((f"s_{_op}_saveexec_b64", "b64", ("b64",), "writes-exec reads-exec writes-scc"))
for _op in ("andn1", "andn2"):
    _SOP1.append((f"s_{_op}_wrexec_b64", "b64", ("b64",), "writes-exec reads-exec writes-scc"))

_SOP2 = [
    ("s_add_u32", "u32", "writes-scc"), ("s_add_i32", "i32", "writes-scc"),
    ("s_sub_u32", "u32", "writes-scc"), ("s_sub_i32", "i32", "writes-scc"),
    ("s_addc_u32", "u32", "writes-scc reads-scc"), ("s_subb_u32", "u32", "writes-scc reads-scc"),
    ("s_min_i32", "i32", "writes-scc"), ("s_min_u32", "u32", "writes-scc"),
    ("s_max_i32", "i32", "writes-scc"), ("s_max_u32", "u32", "writes-scc"),
    ("s_cselect_b32", "b32", "reads-scc"), ("s_cselect_b64", "b64", "reads-scc"),
    ("s_mul_i32", "i32", ""), ("s_mul_hi_u32", "u32", ""), ("s_mul_hi_i32", "i32", ""),
    ("s_absdiff_i32", "i32", "writes-scc"),
    ("s_lshl1_add_u32", "u32", "writes-scc"), ("s_lshl2_add_u32", "u32", "writes-scc"),
    ("s_lshl3_add_u32", "u32", "writes-scc"), ("s_lshl4_add_u32", "u32", "writes-scc"),
    ("s_pack_ll_b32_b16", "b32", ""), ("s_pack_lh_b32_b16", "b32", ""), ("s_pack_hh_b32_b16", "b32", ""),
    ("s_bfm_b32", "b32", ""), ("s_bfe_u32", "u32", "writes-scc"), ("s_bfe_i32", "i32", "writes-scc"),
]
for _op in ("and", "or", "xor", "andn2", "orn2", "nand", "nor", "xnor"):
    _SOP2 += [(f"s_{_op}_b32", "b32", "writes-scc"), (f"s_{_op}_b64", "b64", "writes-scc")]
_SOP2_SPECIAL = [  # (name, dst, src0, src1, flags)
    ("s_lshl_b32", "b32", "b32", "b32", "writes-scc"), ("s_lshl_b64", "b64", "b64", "b32", "writes-scc"),
    ("s_lshr_b32", "b32", "b32", "b32", "writes-scc"), ("s_lshr_b64", "b64", "b64", "b32", "writes-scc"),
    ("s_ashr_i32", "i32", "i32", "b32", "writes-scc"), ("s_ashr_i64", "i64", "i64", "b32", "writes-scc"),
    ("s_bfm_b64", "b64", "b32", "b32", ""),
    ("s_bfe_u64", "u64", "u64", "b32", "writes-scc"), ("s_bfe_i64", "i64", "i64", "b32", "writes-scc"),
]
_SOPC = [(f"s_cmp_{c}_{t}", t) for c in ("eq", "lg", "gt", "ge", "lt", "le") for t in ("i32", "u32")]
_SOPC += [("s_cmp_eq_u64", "u64"), ("s_cmp_lg_u64", "u64")]
_SOPC_BIT = [("s_bitcmp0_b32", "b32"), ("s_bitcmp1_b32", "b32"), ("s_bitcmp0_b64", "b64"), ("s_bitcmp1_b64", "b64")]
_SOPK_CMP = [(f"s_cmpk_{c}_{t}", t) for c in ("eq", "lg", "gt", "ge", "lt", "le") for t in ("i32", "u32")]


def _scalar_rows() -> list[OpInfo]:
    rows = []
    for line in _SCALAR_ROWS.strip().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rows.append(_parse_row(line))

    def s(role, t, write=False):
        return OperandSpec(role, "s" if write else "sil", TYPE_WIDTH[t], write, False, "" if write else t)

    for name, dt, srcs, flags in _SOP1:
        ops = (s("sdst", dt, True),) + tuple(s(f"ssrc{i}", t) for i, t in enumerate(srcs))
        rows.append(OpInfo(name, "SOP1", "salu", ops, frozenset(), frozenset(), frozenset(flags.split())))
    for name, t, flags in _SOP2:
        ops = (s("sdst", t, True), s("ssrc0", t), s("ssrc1", t))
        rows.append(OpInfo(name, "SOP2", "salu", ops, frozenset(), frozenset(), frozenset(flags.split())))
    for name, dt, t0, t1, flags in _SOP2_SPECIAL:
        ops = (s("sdst", dt, True), s("ssrc0", t0), s("ssrc1", t1))
        rows.append(OpInfo(name, "SOP2", "salu", ops, frozenset(), frozenset(), frozenset(flags.split())))
    for name, t in _SOPC:
        rows.append(OpInfo(name, "SOPC", "salu", (s("ssrc0", t), s("ssrc1", t)), flags=frozenset({"writes-scc"})))
    for name, t in _SOPC_BIT:
        rows.append(OpInfo(name, "SOPC", "salu", (s("ssrc0", t), s("ssrc1", "b32")), flags=frozenset({"writes-scc"})))
    for name, t in _SOPK_CMP:
        k = "u16" if t == "u32" else "i16"
        rows.append(OpInfo(name, "SOPK", "salu", (OperandSpec("ssrc0", "s", 1, type=t), OperandSpec("simm16", "k", 1, type=k)),
                           flags=frozenset({"writes-scc"})))
    return rows


# ------------------------------------------------------------------ SMEM

def _smem_rows() -> list[OpInfo]:
    rows = []
    sizes = {"dword": 1, "dwordx2": 2, "dwordx4": 4, "dwordx8": 8, "dwordx16": 16}
    for sfx, w in sizes.items():
        for prefix, base in (("s_load_", 2), ("s_buffer_load_", 4)):
            rows.append(OpInfo(prefix + sfx, "SMEM", "smem",
                               (OperandSpec("sdst", "s", w, True), OperandSpec("sbase", "s", base),
                                OperandSpec("soffset", "sn", 1, optional=True)),
                               frozenset({"glc", "offset"}), frozenset({"lgkm"}), frozenset({"load", "returns-data"})))
        if w <= 4:
            for prefix, base in (("s_store_", 2), ("s_buffer_store_", 4)):
                rows.append(OpInfo(prefix + sfx, "SMEM", "smem",
                                   (OperandSpec("sdata", "s", w), OperandSpec("sbase", "s", base),
                                    OperandSpec("soffset", "sn", 1, optional=True)),
                                   frozenset({"glc", "offset"}), frozenset({"lgkm"}), frozenset({"store"})))
    rows.append(OpInfo("s_memtime", "SMEM", "smem", (OperandSpec("sdst", "s", 2, True),), counters=frozenset({"lgkm"}),
                       flags=frozenset({"load", "returns-data"})))
    rows.append(OpInfo("s_memrealtime", "SMEM", "smem", (OperandSpec("sdst", "s", 2, True),), counters=frozenset({"lgkm"}),
                       flags=frozenset({"load", "returns-data"})))
    for name in ("s_dcache_inv", "s_dcache_wb", "s_dcache_inv_vol", "s_dcache_wb_vol"):
        rows.append(OpInfo(name, "SMEM", "smem", (), counters=frozenset({"lgkm"})))
    # scalar atomics (gfx9 SMEM): sdata, sbase (address pair or V#), offset; GLC returns the
    # pre-op value into sdata's first dword(s) (the "rtn" variant, see returns_data)
    for op in ("swap", "cmpswap", "add", "sub", "smin", "umin", "smax", "umax", "and", "or", "xor", "inc", "dec"):
        for x2 in ("", "_x2"):
            w = (2 if x2 else 1) * (2 if op == "cmpswap" else 1)
            for prefix, base in (("s_atomic_", 2), ("s_buffer_atomic_", 4)):
                rows.append(OpInfo(prefix + op + x2, "SMEM", "smem",
                                   (OperandSpec("sdata", "s", w), OperandSpec("sbase", "s", base),
                                    OperandSpec("soffset", "sn", 1, optional=True)),
                                   frozenset({"glc", "offset"}), frozenset({"lgkm"}), frozenset({"atomic"})))
    return rows


# ------------------------------------------------------------------ VALU
# `name enc dst : srcs | mods | flags`. dst/src are value types; a leading marker
# changes the operand: `s:` an SGPR operand (e.g. readlane dst), `c` a 64-bit
# SGPR carry/mask operand (vcc in e32), `l:` lane select (SGPR/M0/inline),
# `a:` AGPR. mods: c=clamp o=omod. Float-typed sources take neg/abs in e64.

_VALU = """
v_mov_b32        VOP1  b32 : b32
v_mov_b64        VOP1  b64 : b64
v_not_b32        VOP1  b32 : b32
v_bfrev_b32      VOP1  b32 : b32
v_ffbh_u32       VOP1  b32 : b32
v_ffbh_i32       VOP1  b32 : b32
v_ffbl_b32       VOP1  b32 : b32
v_readfirstlane_b32 VOP1 s:b32 : v:b32               | | writes-sgpr
v_swap_b32       VOP1  b32 : w:b32
v_sat_pk_u8_i16  VOP1  b32 : b32
v_cvt_f32_i32    VOP1  f32 : i32     | co
v_cvt_f32_u32    VOP1  f32 : u32     | co
v_cvt_i32_f32    VOP1  i32 : f32     | co
v_cvt_u32_f32    VOP1  u32 : f32     | co
v_cvt_flr_i32_f32 VOP1 i32 : f32     | c
v_cvt_rpi_i32_f32 VOP1 i32 : f32     | c
v_cvt_f16_f32    VOP1  f16 : f32     | co
v_cvt_f32_f16    VOP1  f32 : f16     | co
v_cvt_f32_bf16   VOP1  f32 : bf16    | co
v_cvt_f64_f32    VOP1  f64 : f32     | co | dp
v_cvt_f32_f64    VOP1  f32 : f64     | co | dp
v_cvt_i32_f64    VOP1  i32 : f64     | co | dp
v_cvt_u32_f64    VOP1  u32 : f64     | co | dp
v_cvt_f64_i32    VOP1  f64 : i32     | co | dp
v_cvt_f64_u32    VOP1  f64 : u32     | co | dp
v_cvt_f16_u16    VOP1  f16 : u16     | co
v_cvt_f16_i16    VOP1  f16 : i16     | co
v_cvt_u16_f16    VOP1  u16 : f16     | co
v_cvt_i16_f16    VOP1  i16 : f16     | co
v_cvt_f32_ubyte0 VOP1  f32 : b32     | co
v_cvt_f32_ubyte1 VOP1  f32 : b32     | co
v_cvt_f32_ubyte2 VOP1  f32 : b32     | co
v_cvt_f32_ubyte3 VOP1  f32 : b32     | co
v_rcp_f32        VOP1  f32 : f32     | co | trans
v_rcp_iflag_f32  VOP1  f32 : f32     | co | trans
v_rsq_f32        VOP1  f32 : f32     | co | trans
v_sqrt_f32       VOP1  f32 : f32     | co | trans
v_exp_f32        VOP1  f32 : f32     | co | trans
v_log_f32        VOP1  f32 : f32     | co | trans
v_sin_f32        VOP1  f32 : f32     | co | trans
v_cos_f32        VOP1  f32 : f32     | co | trans
v_rcp_f16        VOP1  f16 : f16     | co | trans
v_rsq_f16        VOP1  f16 : f16     | co | trans
v_sqrt_f16       VOP1  f16 : f16     | co | trans
v_exp_f16        VOP1  f16 : f16     | co | trans
v_log_f16        VOP1  f16 : f16     | co | trans
v_sin_f16        VOP1  f16 : f16     | co | trans
v_cos_f16        VOP1  f16 : f16     | co | trans
v_rcp_f64        VOP1  f64 : f64     | co | trans dp
v_rsq_f64        VOP1  f64 : f64     | co | trans dp
v_sqrt_f64       VOP1  f64 : f64     | co | trans dp
v_fract_f32      VOP1  f32 : f32     | co
v_trunc_f32      VOP1  f32 : f32     | co
v_ceil_f32       VOP1  f32 : f32     | co
v_rndne_f32      VOP1  f32 : f32     | co
v_floor_f32      VOP1  f32 : f32     | co
v_fract_f16      VOP1  f16 : f16     | co
v_trunc_f16      VOP1  f16 : f16     | co
v_ceil_f16       VOP1  f16 : f16     | co
v_rndne_f16      VOP1  f16 : f16     | co
v_floor_f16      VOP1  f16 : f16     | co
v_fract_f64      VOP1  f64 : f64     | co | dp
v_trunc_f64      VOP1  f64 : f64     | co | dp
v_ceil_f64       VOP1  f64 : f64     | co | dp
v_rndne_f64      VOP1  f64 : f64     | co | dp
v_floor_f64      VOP1  f64 : f64     | co | dp
v_frexp_mant_f32 VOP1  f32 : f32     | co
v_frexp_exp_i32_f32 VOP1 i32 : f32   | c
v_accvgpr_mov_b32 VOP1 a:b32 : a:b32
v_add_u32        VOP2  u32 : u32 u32 | c
v_sub_u32        VOP2  u32 : u32 u32 | c
v_subrev_u32     VOP2  u32 : u32 u32 | c
v_add_f32        VOP2  f32 : f32 f32 | co
v_sub_f32        VOP2  f32 : f32 f32 | co
v_subrev_f32     VOP2  f32 : f32 f32 | co
v_mul_f32        VOP2  f32 : f32 f32 | co
v_mul_legacy_f32 VOP2  f32 : f32 f32 | co
v_max_f32        VOP2  f32 : f32 f32 | co
v_min_f32        VOP2  f32 : f32 f32 | co
v_add_f16        VOP2  f16 : f16 f16 | co
v_sub_f16        VOP2  f16 : f16 f16 | co
v_subrev_f16     VOP2  f16 : f16 f16 | co
v_mul_f16        VOP2  f16 : f16 f16 | co
v_max_f16        VOP2  f16 : f16 f16 | co
v_min_f16        VOP2  f16 : f16 f16 | co
v_ldexp_f16      VOP2  f16 : f16 i16 | co
v_add_u16        VOP2  u16 : u16 u16 | c
v_sub_u16        VOP2  u16 : u16 u16 | c
v_subrev_u16     VOP2  u16 : u16 u16 | c
v_mul_lo_u16     VOP2  u16 : u16 u16
v_max_u16        VOP2  u16 : u16 u16
v_max_i16        VOP2  i16 : i16 i16
v_min_u16        VOP2  u16 : u16 u16
v_min_i16        VOP2  i16 : i16 i16
v_lshlrev_b16    VOP2  b16 : b16 b16
v_lshrrev_b16    VOP2  b16 : b16 b16
v_ashrrev_i16    VOP2  i16 : b16 i16
v_max_i32        VOP2  i32 : i32 i32
v_max_u32        VOP2  u32 : u32 u32
v_min_i32        VOP2  i32 : i32 i32
v_min_u32        VOP2  u32 : u32 u32
v_and_b32        VOP2  b32 : b32 b32
v_or_b32         VOP2  b32 : b32 b32
v_xor_b32        VOP2  b32 : b32 b32
v_xnor_b32       VOP2  b32 : b32 b32
v_lshlrev_b32    VOP2  b32 : b32 b32
v_lshrrev_b32    VOP2  b32 : b32 b32
v_ashrrev_i32    VOP2  i32 : b32 i32
v_mul_u32_u24    VOP2  u32 : u32 u32 | c
v_mul_i32_i24    VOP2  i32 : i32 i32 | c
v_mul_hi_u32_u24 VOP2  u32 : u32 u32
v_mul_hi_i32_i24 VOP2  i32 : i32 i32
v_mac_f32        VOP2  f32 : f32 f32 | co
v_fmac_f32       VOP2  f32 : f32 f32 | co
v_mac_f16        VOP2  f16 : f16 f16 | co
v_fmac_f64       VOP2  f64 : f64 f64 | co | dp
v_add_co_u32     VOP2  u32 c : u32 u32       | c | writes-vcc writes-sgpr
v_sub_co_u32     VOP2  u32 c : u32 u32       | c | writes-vcc writes-sgpr
v_subrev_co_u32  VOP2  u32 c : u32 u32       | c | writes-vcc writes-sgpr
v_addc_co_u32    VOP2  u32 c : u32 u32 c     | c | writes-vcc reads-vcc writes-sgpr
v_subb_co_u32    VOP2  u32 c : u32 u32 c     | c | writes-vcc reads-vcc writes-sgpr
v_subbrev_co_u32 VOP2  u32 c : u32 u32 c     | c | writes-vcc reads-vcc writes-sgpr
v_cndmask_b32    VOP2  b32 : f32 f32 c       |   | reads-vcc
v_add_i32        VOP3  i32 : i32 i32 | c
v_sub_i32        VOP3  i32 : i32 i32 | c
v_add_i16        VOP3  i16 : i16 i16 | c
v_sub_i16        VOP3  i16 : i16 i16 | c
v_mul_lo_u32     VOP3  u32 : u32 u32
v_mul_lo_i32     VOP3  i32 : i32 i32
v_mul_hi_u32     VOP3  u32 : u32 u32
v_mul_hi_i32     VOP3  i32 : i32 i32
v_mad_u32_u24    VOP3  u32 : u32 u32 u32 | c
v_mad_i32_i24    VOP3  i32 : i32 i32 i32 | c
v_mad_u32_u16    VOP3  u32 : u16 u16 u32 | c
v_mad_i32_i16    VOP3  i32 : i16 i16 i32 | c
v_mad_u64_u32    VOP3  u64 c : u32 u32 u64 | c | writes-sgpr
v_mad_i64_i32    VOP3  i64 c : i32 i32 i64 | c | writes-sgpr
v_fma_f32        VOP3  f32 : f32 f32 f32 | co
v_fma_f16        VOP3  f16 : f16 f16 f16 | co
v_fma_f64        VOP3  f64 : f64 f64 f64 | co | dp
v_mad_f32        VOP3  f32 : f32 f32 f32 | co
v_mad_f16        VOP3  f16 : f16 f16 f16 | co
v_lshl_add_u32   VOP3  u32 : u32 u32 u32
v_add_lshl_u32   VOP3  u32 : u32 u32 u32
v_lshl_or_b32    VOP3  b32 : b32 b32 b32
v_and_or_b32     VOP3  b32 : b32 b32 b32
v_or3_b32        VOP3  b32 : b32 b32 b32
v_xad_u32        VOP3  u32 : u32 u32 u32
v_add3_u32       VOP3  u32 : u32 u32 u32
v_bfe_u32        VOP3  u32 : u32 u32 u32
v_bfe_i32        VOP3  i32 : i32 u32 u32
v_bfi_b32        VOP3  b32 : b32 b32 b32
v_perm_b32       VOP3  b32 : b32 b32 b32
v_alignbit_b32   VOP3  b32 : b32 b32 b32 | c
v_alignbyte_b32  VOP3  b32 : b32 b32 b32 | c
v_bfm_b32        VOP3  b32 : b32 b32
v_bcnt_u32_b32   VOP3  u32 : b32 u32
v_mbcnt_lo_u32_b32 VOP3 u32 : b32 u32
v_mbcnt_hi_u32_b32 VOP3 u32 : b32 u32
v_lshlrev_b64    VOP3  b64 : b32 b64
v_lshrrev_b64    VOP3  b64 : b32 b64
v_ashrrev_i64    VOP3  i64 : b32 i64
v_lshl_add_u64   VOP3  u64 : u64 u32 u64
v_add_f64        VOP3  f64 : f64 f64 | co | dp
v_mul_f64        VOP3  f64 : f64 f64 | co | dp
v_max_f64        VOP3  f64 : f64 f64 | co | dp
v_min_f64        VOP3  f64 : f64 f64 | co | dp
v_ldexp_f64      VOP3  f64 : f64 i32 | co | dp
v_ldexp_f32      VOP3  f32 : f32 i32 | co
v_max3_f32       VOP3  f32 : f32 f32 f32 | co
v_min3_f32       VOP3  f32 : f32 f32 f32 | co
v_med3_f32       VOP3  f32 : f32 f32 f32 | co
v_max3_f16       VOP3  f16 : f16 f16 f16 | co
v_min3_f16       VOP3  f16 : f16 f16 f16 | co
v_med3_f16       VOP3  f16 : f16 f16 f16 | co
v_max3_i32       VOP3  i32 : i32 i32 i32
v_min3_i32       VOP3  i32 : i32 i32 i32
v_med3_i32       VOP3  i32 : i32 i32 i32
v_max3_u32       VOP3  u32 : u32 u32 u32
v_min3_u32       VOP3  u32 : u32 u32 u32
v_med3_u32       VOP3  u32 : u32 u32 u32
v_cvt_pk_u16_u32 VOP3  b32 : u32 u32
v_cvt_pk_i16_i32 VOP3  b32 : i32 i32
v_cvt_pkrtz_f16_f32 VOP3 v2f16 : f32 f32 | co
v_cvt_pknorm_i16_f32 VOP3 b32 : f32 f32  | c
v_cvt_pknorm_u16_f32 VOP3 b32 : f32 f32  | c
v_cvt_pk_u8_f32  VOP3  b32 : f32 u32 u32 | c
v_cvt_pk_bf16_f32 VOP3 v2bf16 : f32 f32  | co
v_cvt_pk_f16_f32 VOP3  v2f16 : f32 f32   | co
v_div_scale_f32  VOP3  f32 c : f32 f32 f32 | co | writes-sgpr
v_div_scale_f64  VOP3  f64 c : f64 f64 f64 | co | writes-sgpr dp
v_div_fmas_f32   VOP3  f32 : f32 f32 f32 | co | reads-vcc
v_div_fmas_f64   VOP3  f64 : f64 f64 f64 | co | reads-vcc dp
v_div_fixup_f32  VOP3  f32 : f32 f32 f32 | co
v_div_fixup_f16  VOP3  f16 : f16 f16 f16 | co
v_div_fixup_legacy_f16 VOP3 f16 : f16 f16 f16 | co
v_div_fixup_f64  VOP3  f64 : f64 f64 f64 | co | dp
v_readlane_b32   VOP3  s:b32 : v:b32 l:b32          | | writes-sgpr
v_writelane_b32  VOP3  b32 : x:b32 l:b32
v_pk_add_f16     VOP3P v2f16 : v2f16 v2f16 | c
v_pk_mul_f16     VOP3P v2f16 : v2f16 v2f16 | c
v_pk_max_f16     VOP3P v2f16 : v2f16 v2f16 | c
v_pk_min_f16     VOP3P v2f16 : v2f16 v2f16 | c
v_pk_fma_f16     VOP3P v2f16 : v2f16 v2f16 v2f16 | c
v_pk_add_u16     VOP3P v2i16 : v2i16 v2i16 | c
v_pk_sub_u16     VOP3P v2i16 : v2i16 v2i16 | c
v_pk_add_i16     VOP3P v2i16 : v2i16 v2i16 | c
v_pk_sub_i16     VOP3P v2i16 : v2i16 v2i16 | c
v_pk_mul_lo_u16  VOP3P v2i16 : v2i16 v2i16
v_pk_max_u16     VOP3P v2i16 : v2i16 v2i16
v_pk_max_i16     VOP3P v2i16 : v2i16 v2i16
v_pk_min_u16     VOP3P v2i16 : v2i16 v2i16
v_pk_min_i16     VOP3P v2i16 : v2i16 v2i16
v_pk_lshlrev_b16 VOP3P v2i16 : v2i16 v2i16
v_pk_lshrrev_b16 VOP3P v2i16 : v2i16 v2i16
v_pk_ashrrev_i16 VOP3P v2i16 : v2i16 v2i16
v_pk_mad_u16     VOP3P v2i16 : v2i16 v2i16 v2i16 | c
v_pk_mad_i16     VOP3P v2i16 : v2i16 v2i16 v2i16 | c
v_pk_add_f32     VOP3P v2f32 : v2f32 v2f32 | c
v_pk_mul_f32     VOP3P v2f32 : v2f32 v2f32 | c
v_pk_fma_f32     VOP3P v2f32 : v2f32 v2f32 v2f32 | c
v_pk_mov_b32     VOP3P v2b32 : v2b32 v2b32
v_dot2_f32_f16   VOP3P f32 : v2f16 v2f16 f32 | c
v_dot2_f32_bf16  VOP3P f32 : v2bf16 v2bf16 f32 | c
v_dot2_i32_i16   VOP3P i32 : v2i16 v2i16 i32 | c
v_dot2_u32_u16   VOP3P u32 : v2i16 v2i16 u32 | c
v_dot4_i32_i8    VOP3P i32 : b32 b32 i32 | c
v_dot4_u32_u8    VOP3P u32 : b32 b32 u32 | c
v_dot8_i32_i4    VOP3P i32 : b32 b32 i32 | c
v_dot8_u32_u4    VOP3P u32 : b32 b32 u32 | c
"""


def _valu_operand(role: str, text: str, write: bool = False) -> OperandSpec:
    """`b32` (VGPR/SGPR/constant source), `s:b32` (SGPR), `c` (SGPR pair / vcc),
    `l:b32` (lane select), `a:b32` (AGPR), `w:b32` (VGPR read and written), `v:b32` (VGPR only),
    `x:b32` (writelane source: SGPR, M0 or constant)."""
    if text == "c":
        return OperandSpec(role, "s", 2, write, False, "" if write else "b64")
    marker, _, t = text.rpartition(":")
    width = TYPE_WIDTH[t]
    if marker == "s":
        return OperandSpec(role, "s", width, write, False, "" if write else t)
    if marker == "a":
        return OperandSpec(role, "a", width, write, False, "" if write else t)
    if marker == "l":
        return OperandSpec(role, "si", 1, False, False, "b32")
    if marker == "x":
        return OperandSpec(role, "sil", 1, False, False, "b32")
    if marker == "w":
        return OperandSpec(role, "v", width, True, False, t)
    if marker == "v":
        return OperandSpec(role, "v", width, False, False, t)
    if write:
        return OperandSpec(role, "v", width, True, False, "")
    return OperandSpec(role, "vsil", width, False, False, t)


def _valu_rows() -> list[OpInfo]:
    rows = []
    for line in _VALU.strip().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        main, _, rest = line.partition("|")
        mods_s, _, flags_s = rest.partition("|")
        # "name enc dst [c] : srcs" (operand markers such as s:b32 contain colons too)
        parts = main.replace(" : ", " | ").split("|")
        head = parts[0].split()
        srcs = parts[1].split() if len(parts) > 1 else []
        name, enc = head[0], head[1]
        dsts = head[2:]
        ops = []
        ops.append(_valu_operand("vdst" if not dsts[0].startswith("s:") else "sdst", dsts[0], True))
        if len(dsts) > 1:
            ops.append(_valu_operand("sdst", dsts[1], True))
        for i, s in enumerate(srcs):
            ops.append(_valu_operand(f"src{i}", s))
        mods = set()
        m = mods_s.strip()
        if "c" in m:
            mods.add("clamp")
        if "o" in m:
            mods.add("omod")
        if enc == "VOP3P":
            mods |= {"clamp", "neg_lo", "neg_hi"}
            if not re.match(r"v_dot(4|8)_", name):  # dot4/dot8 take neg_lo/neg_hi but no op_sel
                mods |= {"op_sel", "op_sel_hi"}
        elif enc == "VOP3" and any(o.type in ("f16", "i16", "u16", "b16") for o in ops[1:]):
            mods.add("op_sel")  # gfx9 VOP3 op_sel: 16-bit sources of VOP3-only opcodes
        if name in ("v_alignbit_b32", "v_alignbyte_b32"):
            mods.add("op_sel")
        if name == "v_div_fixup_legacy_f16":  # the gfx8 opcode: llvm-mc takes no op_sel on it
            mods.discard("op_sel")
        flags = set(flags_s.split()) | {"reads-exec"}
        pipe = "valu"
        if "trans" in flags:
            pipe = "trans"
        elif "dp" in flags:
            pipe = "dp"
        if name.startswith("v_readfirstlane") or name.startswith("v_readlane"):
            flags.add("writes-sgpr")
        if name.startswith("v_writelane_b32"):
            ops[0] = replace(ops[0], kinds="v")
        if name == "v_accvgpr_mov_b32":
            ops[0] = replace(ops[0], kinds="a")
        rows.append(OpInfo(name, enc, pipe, tuple(ops), frozenset(mods), frozenset(), frozenset(flags)))
    return rows


# VOPC: every v_cmp/v_cmpx of the mnemonic tables, generated from the name.
_VOPC_INT = ("f", "lt", "eq", "le", "gt", "ne", "ge", "t")
_VOPC_FLOAT = ("f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru")


def _vopc_rows() -> list[OpInfo]:
    rows = []
    for x in ("", "x"):
        for t in ("f16", "f32", "f64", "i16", "i32", "i64", "u16", "u32", "u64"):
            conds = _VOPC_FLOAT if t[0] == "f" else _VOPC_INT
            names = [(f"v_cmp{x}_{c}_{t}", t, t) for c in conds]
            if t[0] == "f":
                names.append((f"v_cmp{x}_class_{t}", t, "i32"))
            for name, t0, t1 in names:
                w = TYPE_WIDTH[t0]
                ops = (OperandSpec("sdst", "s", 2, True), OperandSpec("src0", "vsil", w, type=t0),
                       OperandSpec("src1", "vsil", TYPE_WIDTH[t1], type=t1))
                flags = {"writes-vcc", "writes-sgpr", "reads-exec"}
                if x:
                    flags.add("writes-exec")
                pipe = "dp" if t == "f64" else "valu"
                if t == "f64":
                    flags.add("dp")
                mods = {"clamp"} if t[0] == "f" and "class" not in name else set()
                rows.append(OpInfo(name, "VOPC", pipe, ops, frozenset(mods), frozenset(), frozenset(flags)))
    return rows


# ------------------------------------------------------------------ memory

_DATA_WIDTH = {"dword": 1, "dwordx2": 2, "dwordx3": 3, "dwordx4": 4, "ubyte": 1, "sbyte": 1, "ushort": 1,
               "sshort": 1, "short_d16": 1, "short_d16_hi": 1, "ubyte_d16": 1, "ubyte_d16_hi": 1,
               "sbyte_d16": 1, "sbyte_d16_hi": 1, "byte": 1, "short": 1, "byte_d16_hi": 1}
_LOADS = ("dword", "dwordx2", "dwordx3", "dwordx4", "ubyte", "sbyte", "ushort", "sshort", "short_d16",
          "short_d16_hi", "ubyte_d16", "ubyte_d16_hi", "sbyte_d16", "sbyte_d16_hi")
_STORES = ("dword", "dwordx2", "dwordx3", "dwordx4", "byte", "short", "byte_d16_hi", "short_d16_hi")
_ATOMICS32 = ("swap", "cmpswap", "add", "sub", "smin", "umin", "smax", "umax", "and", "or", "xor", "inc", "dec")
_ATOMICS_FP = {"add_f32": 1, "pk_add_f16": 1, "pk_add_bf16": 1, "add_f64": 2, "min_f64": 2, "max_f64": 2}


def _atomic_widths() -> dict[str, tuple[int, int]]:
    """atomic op suffix -> (vdata width, returned width)."""
    out = {}
    for a in _ATOMICS32:
        for x, w in (("", 1), ("_x2", 2)):
            out[a + x] = (2 * w if a == "cmpswap" else w, w)
    for a, w in _ATOMICS_FP.items():
        out[a] = (w, w)
    return out


CPOL = "cpol"  # pseudo-modifier: the target's cache-policy bits (glc slc [scc] / sc0 sc1 nt)


# data VGPRs of buffer_load/store_format_<sfx>: one per element, two 16-bit elements per VGPR for d16
_FORMAT_WIDTH = {"x": 1, "xy": 2, "xyz": 3, "xyzw": 4, "d16_x": 1, "d16_xy": 1, "d16_xyz": 2, "d16_xyzw": 2,
                 "d16_hi_x": 1}


def _mem_rows() -> list[OpInfo]:
    rows = []
    vm = frozenset({"vm"})
    for seg in ("global", "flat"):
        enc = seg.upper()
        mods = frozenset({"offset", CPOL})
        saddr = (OperandSpec("saddr", "so", 2),) if seg == "global" else ()
        for sfx in _LOADS:
            w = _DATA_WIDTH[sfx]
            ops = (OperandSpec("vdst", "va", w, True), OperandSpec("vaddr", "v", 2)) + saddr
            rows.append(OpInfo(f"{seg}_load_{sfx}", enc, "vmem", ops, mods, vm | ({"lgkm"} if seg == "flat" else set()),
                               frozenset({"load", "returns-data", "reads-exec"})))
        for sfx in _STORES:
            w = _DATA_WIDTH[sfx]
            ops = (OperandSpec("vaddr", "v", 2), OperandSpec("vdata", "va", w)) + saddr
            rows.append(OpInfo(f"{seg}_store_{sfx}", enc, "vmem", ops, mods, vm | ({"lgkm"} if seg == "flat" else set()),
                               frozenset({"store", "reads-exec"})))
        for a, (wd, wr) in _atomic_widths().items():
            ops = (OperandSpec("vdst", "va", wr, True, optional=True), OperandSpec("vaddr", "v", 2),
                   OperandSpec("vdata", "va", wd)) + saddr
            rows.append(OpInfo(f"{seg}_atomic_{a}", enc, "vmem", ops, mods, vm | ({"lgkm"} if seg == "flat" else set()),
                               frozenset({"atomic", "store", "reads-exec"})))
    for sfx in ("dword", "dwordx3", "dwordx4", "ubyte", "sbyte", "ushort", "sshort"):
        ops = (OperandSpec("vaddr", "v", 2), OperandSpec("saddr", "so", 2))
        rows.append(OpInfo(f"global_load_lds_{sfx}", "GLOBAL", "vmem", ops, frozenset({"offset", CPOL}), vm,
                           frozenset({"load", "lds-dma", "reads-m0", "reads-exec"})))
    # SCRATCH: vaddr is one VGPR or `off`, saddr one SGPR or `off` (both registers, or both `off`,
    # on gfx942+ only: validate._check_scratch)
    vo, so = OperandSpec("vaddr", "vo", 1), OperandSpec("saddr", "so", 1)
    for sfx in _LOADS:
        rows.append(OpInfo(f"scratch_load_{sfx}", "SCRATCH", "vmem", (OperandSpec("vdst", "va", _DATA_WIDTH[sfx], True),
                           vo, so), frozenset({"offset", CPOL}), vm, frozenset({"load", "returns-data", "reads-exec"})))
    for sfx in _STORES:
        rows.append(OpInfo(f"scratch_store_{sfx}", "SCRATCH", "vmem", (vo, OperandSpec("vdata", "va", _DATA_WIDTH[sfx]),
                           so), frozenset({"offset", CPOL}), vm, frozenset({"store", "reads-exec"})))
    for sfx in ("dword", "ubyte", "sbyte", "ushort", "sshort"):
        rows.append(OpInfo(f"scratch_load_lds_{sfx}", "SCRATCH", "vmem", (vo, so), frozenset({"offset", CPOL}), vm,
                           frozenset({"load", "lds-dma", "reads-m0", "reads-exec"})))
    # MUBUF: vdata, vaddr|off, srsrc, soffset
    bmods = frozenset({"offen", "idxen", "offset", CPOL})

    def buf(vdata: OperandSpec | None):
        return ((vdata,) if vdata else ()) + (OperandSpec("vaddr", "vo", 1), OperandSpec("srsrc", "s", 4),
                                              OperandSpec("soffset", "si", 1, type="b32"))
    for sfx in _LOADS:
        w = _DATA_WIDTH[sfx]
        m = bmods | ({"lds"} if sfx in ("dword", "dwordx3", "dwordx4", "ubyte", "sbyte", "ushort", "sshort") else set())
        rows.append(OpInfo(f"buffer_load_{sfx}", "MUBUF", "vmem", buf(OperandSpec("vdata", "va", w, True)), m, vm,
                           frozenset({"load", "returns-data", "reads-exec"})))
    for sfx in _STORES:
        w = _DATA_WIDTH[sfx]
        rows.append(OpInfo(f"buffer_store_{sfx}", "MUBUF", "vmem", buf(OperandSpec("vdata", "va", w)), bmods, vm,
                           frozenset({"store", "reads-exec"})))
    for a, (wd, wr) in _atomic_widths().items():
        rows.append(OpInfo(f"buffer_atomic_{a}", "MUBUF", "vmem", buf(OperandSpec("vdata", "va", wd)), bmods, vm,
                           frozenset({"atomic", "store", "reads-exec"})))
    # typed (format) loads and stores: the buffer's dfmt/nfmt convert each element; d16 packs two 16-bit
    # elements per VGPR on these targets (LLVM 22 BUFInstructions.td, packed D16 on gfx9 CDNA)
    for sfx, w in _FORMAT_WIDTH.items():
        rows.append(OpInfo(f"buffer_load_format_{sfx}", "MUBUF", "vmem", buf(OperandSpec("vdata", "va", w, True)),
                           bmods | ({"lds"} if sfx == "x" else set()),  # (only _x loads to LDS: LLVM 22)
                           vm, frozenset({"load", "returns-data", "reads-exec"})))
        rows.append(OpInfo(f"buffer_store_format_{sfx}", "MUBUF", "vmem", buf(OperandSpec("vdata", "va", w)), bmods, vm,
                           frozenset({"store", "reads-exec"})))
    # cache write-back / invalidate: no operands; gfx94x spells the scope with sc0 sc1 nt, gfx90a takes none
    for name, mods in (("buffer_wbl2", {"sc0", "sc1", "nt"}), ("buffer_inv", {"sc0", "sc1", "nt"}),
                       ("buffer_invl2", set()), ("buffer_wbinvl1", set()), ("buffer_wbinvl1_vol", set())):
        rows.append(OpInfo(name, "MUBUF", "vmem", (), frozenset(mods), vm))
    return rows


def _ds_rows() -> list[OpInfo]:
    rows = []
    lgkm = frozenset({"lgkm"})
    off = frozenset({"offset", "gds"})
    off2 = frozenset({"offset0", "offset1", "gds"})
    fl_load = frozenset({"load", "returns-data", "reads-exec"})
    fl_store = frozenset({"store", "reads-exec"})
    addr = OperandSpec("addr", "v", 1)

    def dst(w):
        return OperandSpec("vdst", "va", w, True)

    def data(role, w):
        return OperandSpec(role, "va", w)

    for sfx, w in (("b32", 1), ("b64", 2), ("b96", 3), ("b128", 4), ("u8", 1), ("i8", 1), ("u16", 1), ("i16", 1),
                   ("u8_d16", 1), ("u8_d16_hi", 1), ("i8_d16", 1), ("i8_d16_hi", 1), ("u16_d16", 1), ("u16_d16_hi", 1)):
        rows.append(OpInfo(f"ds_read_{sfx}", "DS", "lds", (dst(w), addr), off, lgkm, fl_load))
    for sfx, w in (("b32", 1), ("b64", 2)):
        rows.append(OpInfo(f"ds_read2_{sfx}", "DS", "lds", (dst(2 * w), addr), off2, lgkm, fl_load))
        rows.append(OpInfo(f"ds_read2st64_{sfx}", "DS", "lds", (dst(2 * w), addr), off2, lgkm, fl_load))
        rows.append(OpInfo(f"ds_write2_{sfx}", "DS", "lds", (addr, data("data0", w), data("data1", w)), off2, lgkm, fl_store))
        rows.append(OpInfo(f"ds_write2st64_{sfx}", "DS", "lds", (addr, data("data0", w), data("data1", w)), off2, lgkm,
                           fl_store))
    for sfx, w in (("b8", 1), ("b16", 1), ("b32", 1), ("b64", 2), ("b96", 3), ("b128", 4), ("b8_d16_hi", 1),
                   ("b16_d16_hi", 1)):
        rows.append(OpInfo(f"ds_write_{sfx}", "DS", "lds", (addr, data("data0", w)), off, lgkm, fl_store))
    # atomics: ds_<op>_<t> (no return) and ds_<op>_rtn_<t>
    ops32 = [("add", "u32"), ("sub", "u32"), ("rsub", "u32"), ("inc", "u32"), ("dec", "u32"), ("min", "i32"),
             ("max", "i32"), ("min", "u32"), ("max", "u32"), ("and", "b32"), ("or", "b32"), ("xor", "b32"),
             ("add", "f32"), ("min", "f32"), ("max", "f32"), ("pk_add", "f16"), ("pk_add", "bf16")]
    for op, t in ops32 + [(o, {"u32": "u64", "i32": "i64", "b32": "b64", "f32": "f64"}[t]) for o, t in ops32
                          if t in ("u32", "i32", "b32") or (t == "f32" and o in ("add", "min", "max"))]:
        w = 2 if t.endswith("64") else 1
        fl = frozenset({"atomic", "store", "reads-exec"})
        rows.append(OpInfo(f"ds_{op}_{t}", "DS", "lds", (addr, data("data0", w)), off, lgkm, fl))
        rows.append(OpInfo(f"ds_{op}_rtn_{t}", "DS", "lds", (dst(w), addr, data("data0", w)), off, lgkm,
                           fl | {"returns-data", "load"}))
    for t, w in (("b32", 1), ("b64", 2), ("f32", 1), ("f64", 2)):
        fl = frozenset({"atomic", "store", "reads-exec"})
        rows.append(OpInfo(f"ds_cmpst_{t}", "DS", "lds", (addr, data("data0", w), data("data1", w)), off, lgkm, fl))
        rows.append(OpInfo(f"ds_cmpst_rtn_{t}", "DS", "lds", (dst(w), addr, data("data0", w), data("data1", w)), off,
                           lgkm, fl | {"returns-data", "load"}))
    for t, w in (("b32", 1), ("b64", 2)):
        fl = frozenset({"atomic", "store", "returns-data", "load", "reads-exec"})
        rows.append(OpInfo(f"ds_mskor_{t}", "DS", "lds", (addr, data("data0", w), data("data1", w)), off, lgkm,
                           frozenset({"atomic", "store", "reads-exec"})))
        rows.append(OpInfo(f"ds_mskor_rtn_{t}", "DS", "lds", (dst(w), addr, data("data0", w), data("data1", w)), off,
                           lgkm, fl))
        rows.append(OpInfo(f"ds_wrxchg_rtn_{t}", "DS", "lds", (dst(w), addr, data("data0", w)), off, lgkm, fl))
        rows.append(OpInfo(f"ds_wrxchg2_rtn_{t}", "DS", "lds", (dst(2 * w), addr, data("data0", w), data("data1", w)),
                           off2, lgkm, fl))
        rows.append(OpInfo(f"ds_wrxchg2st64_rtn_{t}", "DS", "lds",
                           (dst(2 * w), addr, data("data0", w), data("data1", w)), off2, lgkm, fl))
    perm = frozenset({"offset"})
    rows.append(OpInfo("ds_bpermute_b32", "DS", "lds", (dst(1), addr, data("data0", 1)), perm, lgkm, fl_load))
    rows.append(OpInfo("ds_permute_b32", "DS", "lds", (dst(1), addr, data("data0", 1)), perm, lgkm, fl_load))
    rows.append(OpInfo("ds_swizzle_b32", "DS", "lds", (dst(1), addr), frozenset({"offset", "gds"}), lgkm, fl_load))
    rows.append(OpInfo("ds_read_addtid_b32", "DS", "lds", (dst(1),), off, lgkm, fl_load | {"reads-m0"}))
    rows.append(OpInfo("ds_write_addtid_b32", "DS", "lds", (data("data0", 1),), off, lgkm, fl_store | {"reads-m0"}))
    for sfx, w in (("b64_tr_b4", 2), ("b64_tr_b8", 2), ("b64_tr_b16", 2), ("b96_tr_b6", 3)):
        rows.append(OpInfo(f"ds_read_{sfx}", "DS", "lds", (dst(w), addr), frozenset({"offset"}), lgkm, fl_load))
    rows.append(OpInfo("ds_nop", "DS", "lds", (), frozenset(), frozenset(), frozenset()))
    return rows


# ------------------------------------------------------------------ MFMA / accvgpr

def _mai_rows() -> list[OpInfo]:
    rows = [
        OpInfo("v_accvgpr_read_b32", "MAI", "valu", (OperandSpec("vdst", "v", 1, True), OperandSpec("src0", "a", 1, type="b32")),
               flags=frozenset({"reads-exec"})),
        OpInfo("v_accvgpr_write_b32", "MAI", "valu",
               (OperandSpec("vdst", "a", 1, True), OperandSpec("src0", "vsi", 1, type="b32")), flags=frozenset({"reads-exec"})),
    ]
    try:
        from . import mfma
    except ImportError:  # catalog not available: no MFMA rows
        return rows
    seen = set()
    for t in mfma.TARGETS:
        for info in mfma.catalog(t):
            for name in info.names:
                name = name.lower()
                if name in seen:
                    continue
                seen.add(name)
                rows.append(_mfma_row(name, info))
    return rows


def _mfma_row(name: str, info) -> OpInfo:
    """Row of one MFMA/SMFMAC spelling; widths are those of `info` (one target's catalog entry)."""
    ops = [OperandSpec("vdst", "va", info.cd_regs, True),
           OperandSpec("src0", "va", info.a_regs, type="b32"),
           OperandSpec("src1", "va", info.b_regs, type="b32")]
    if info.sparse:  # vdst is also the accumulator; the last operand holds the sparsity index
        ops[0] = OperandSpec("vdst", "va", info.cd_regs, True, type="b32")
        ops.append(OperandSpec("idx", "v", 1, type="b32"))
    else:
        ops.append(OperandSpec("src2", "vai", info.cd_regs, type="b64" if info.is_dgemm else "b32"))
    if info.scaled:
        ops.append(OperandSpec("scale_src0", "vsi", 1, type="b32"))
        ops.append(OperandSpec("scale_src1", "vsi", 1, type="b32"))
    flags = {"mfma", "reads-exec"}
    if info.is_dgemm:
        flags |= {"dgemm", "dp"}
    return OpInfo(name, "MAI", "mfma", tuple(ops), frozenset(info.modifiers), frozenset(), frozenset(flags))


# ------------------------------------------------------------------ the table

@lru_cache(maxsize=None)
def table() -> dict[str, OpInfo]:
    """Every modelled mnemonic -> its base row (MFMA widths of the newest target having it)."""
    rows: dict[str, OpInfo] = {}
    for group in (_scalar_rows(), _smem_rows(), _valu_rows(), _vopc_rows(), _mem_rows(), _ds_rows(), _mai_rows()):
        for info in group:
            rows.setdefault(info.mnemonic, info)
    return rows


SUFFIXES = ("_e32", "_e64", "_sdwa", "_dpp")

# llvm-mc spellings that name the same instruction as a table row
ALIASES = {
    "v_accvgpr_read": "v_accvgpr_read_b32",
    "v_accvgpr_write": "v_accvgpr_write_b32",
}


@lru_cache(maxsize=8192)
def base_mnemonic(mnemonic: str) -> tuple[str, str]:
    """'v_add_u32_e64' -> ('v_add_u32', '_e64'); no suffix -> (mnemonic, '')."""
    m = mnemonic.lower()
    for suf in SUFFIXES:
        if m.endswith(suf):
            return m[: -len(suf)], suf
    return m, ""


@lru_cache(maxsize=4096)
def lookup(mnemonic: str, target: str | None = None) -> OpInfo | None:
    """The row of a mnemonic (encoding suffix ignored), or None when gcnemu does not model it.

    With a target, MFMA rows carry that target's operand widths (from the MFMA
    catalog); without one, those of the newest target that has the spelling.
    """
    base, _ = base_mnemonic(mnemonic)
    base = ALIASES.get(base, base)
    row = table().get(base)
    if row is None or row.pipe != "mfma":
        return row
    try:
        from . import mfma
    except ImportError:
        return row
    targets = [target] if target else list(reversed(mfma.TARGETS))
    for t in targets:
        info = mfma.lookup(base, t)
        if info is not None:
            return _mfma_row(base, info)
    return row


def mfma_info(mnemonic: str, target: str):
    """The MFMA catalog entry of a spelling on a target (None if not an MFMA there)."""
    try:
        from . import mfma
    except ImportError:
        return None
    return mfma.lookup(base_mnemonic(mnemonic)[0], target)


def returns_data(info: OpInfo, modifiers) -> bool:
    """True if the instruction writes a result register (atomics only with glc/sc0)."""
    if "atomic" in info.flags and "returns-data" not in info.flags:
        names = {m.name for m in modifiers}
        return bool(names & {"glc", "sc0"})
    return "returns-data" in info.flags


@lru_cache(maxsize=None)
def _variant(base: OpInfo, tag: str) -> OpInfo:
    if tag == "rtn":
        return replace(base, flags=base.flags | {"returns-data", "load"}, variant="rtn")
    if tag == "lds":
        ops = tuple(o for o in base.operands if o.role not in ("vdata", "vdst"))
        return replace(base, operands=ops, flags=(base.flags - {"returns-data"}) | {"lds-dma", "reads-m0"},
                       modifiers=base.modifiers | {"lds"}, variant="lds")
    raise ValueError(tag)


# gfx908/gfx90a write these global/scratch loads to LDS instead of a VGPR when `lds` is set (the FLAT
# LDS bit; LLVM 22 FLATInstructions.td, FLAT_Global_Load_LDS_Pseudo / FLAT_Scratch_Load_LDS_Pseudo,
# spelt `global_load_dword vaddr, saddr lds` before gfx940 renamed them global_load_lds_dword).
FLAT_LDS_LOADS = frozenset(f"{seg}_load_{t}" for seg in ("global", "scratch")
                            for t in ("ubyte", "sbyte", "ushort", "sshort", "dword"))
_FLAT_LDS_TARGETS = frozenset({"gfx908", "gfx90a"})


def row_for(ins, target: str | None = None) -> OpInfo | None:
    """The row describing this instruction as written: the LDS-DMA form of
    `buffer_load_* ... lds`, the returning form of an atomic with glc/sc0, and
    MFMA widths of `target`."""
    info = lookup(ins.mnemonic, target)
    if info is None:
        return None
    if info.encoding == "MUBUF" and "lds" in info.modifiers and ins.has("lds"):
        return _variant(info, "lds")
    if info.mnemonic in FLAT_LDS_LOADS and target in _FLAT_LDS_TARGETS and ins.has("lds") and \
            len(ins.operands) == len(info.operands) - 1:  # (with a vdst written, `lds` is the wrong operand)
        return _variant(info, "lds")
    if "atomic" in info.flags and info.encoding in ("MUBUF", "GLOBAL", "FLAT") and (ins.has("glc") or ins.has("sc0")):
        return _variant(info, "rtn")
    return info


def rows_by_pipe() -> dict[str, int]:
    """Table size per pipe (for reports)."""
    out: dict[str, int] = {}
    for info in table().values():
        out[info.pipe] = out.get(info.pipe, 0) + 1
    return dict(sorted(out.items()))
