"""Instruction -> hazard facts: classes, register reads/writes per operand role.

The hazard rule table (``gcnemu/isa/data/hazards.toml``) speaks of instruction
*classes* (``valu``, ``mfma-xdl``, ``lds-dma``...) and operand *roles*
(``srcc``, ``sgpr-read``, ``write``...).  This module is the one place that
maps a parsed :class:`~gcnemu.asm.program.Instruction` to that vocabulary, so the
static linter and the dynamic monitor agree by construction.

Where the instruction table (``gcnemu.isa.opcodes``) has a row whose operand
list fits what was written, its roles and read/write flags are used; otherwise
the roles come from mnemonic patterns of the llvm-mc AMDGPU syntax (first
operand is the destination, stores have none, VOPC writes its SGPR pair...).
Register widths are taken as written: llvm-mc rejects a wrong width, so the
text is the truth.  Implicit operands that hazards depend on are added here
(EXEC read by every vector instruction, EXEC written by ``v_cmpx``, VCC read by
``v_div_fmas``, M0 read by LDS DMA / GDS / ``s_movrel`` / ``s_sendmsg``...).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..isa import mfma as mfma_catalog
from ..isa import opcodes
from ..asm.program import Call, CallGroup, FloatImm, Imm, Instruction, Modified, Reg, RegList, Special, Span, Symbol

# --------------------------------------------------------------------------- registers

#: gfx9 scalar register numbers of the named scalar registers (ISA guide "SGPRs").
SPECIAL_SGPRS: dict[str, tuple[int, int]] = {
    "flat_scratch_lo": (102, 1), "flat_scratch_hi": (103, 1), "flat_scratch": (102, 2),
    "xnack_mask_lo": (104, 1), "xnack_mask_hi": (105, 1), "xnack_mask": (104, 2),
    "vcc_lo": (106, 1), "vcc_hi": (107, 1), "vcc": (106, 2),
    "m0": (124, 1),
    "exec_lo": (126, 1), "exec_hi": (127, 1), "exec": (126, 2),
}
TTMP_BASE = 108
VCC = (106, 2)
EXEC = (126, 2)
M0 = (124, 1)


@dataclass(frozen=True, slots=True)
class RegRange:
    """A run of 32-bit registers of one file: 'v', 'a' or 's' (specials mapped to s)."""

    file: str
    start: int
    count: int

    @property
    def end(self) -> int:
        return self.start + self.count

    def overlaps(self, other: "RegRange") -> bool:
        return self.file == other.file and self.start < other.end and other.start < self.end

    def text(self) -> str:
        names = {(106, 2): "vcc", (106, 1): "vcc_lo", (107, 1): "vcc_hi", (126, 2): "exec",
                 (126, 1): "exec_lo", (127, 1): "exec_hi", (124, 1): "m0"}
        if self.file == "s" and (self.start, self.count) in names:
            return names[(self.start, self.count)]
        if self.count == 1:
            return f"{self.file}{self.start}"
        return f"{self.file}[{self.start}:{self.end - 1}]"


@dataclass(frozen=True, slots=True)
class Access:
    """One register operand of an instruction: which registers, in which role.

    ``cols`` are the operand's (start, end) columns on the instruction's line;
    identical statements share their Access objects, so the line is not kept here
    (see :func:`access_span`).
    """

    reg: RegRange
    role: str  # vdst sdst src0 src1 src2 srca srcb srcc idx scale vaddr vdata saddr srsrc soffset sbase exec vcc m0 ...
    explicit: bool
    cols: tuple[int, int] | None = None


def access_span(a: Access, ins_span: Span) -> Span | None:
    """Where operand ``a`` is written, on the line of the instruction whose span is ``ins_span``."""
    if a.cols is None:
        return None
    return Span(ins_span.file, ins_span.line, a.cols[0], ins_span.line, a.cols[1])


@dataclass(frozen=True, slots=True)
class MemOp:
    """What a counted memory instruction does, for the counter analysis.

    ``counter`` is 'vm' or 'lgkm'; ``kind`` one of load, store, atomic, lds-dma,
    ds-read, ds-write, ds-atomic, smem, msg.  ``returns`` are the registers the
    operation writes when it completes (not at issue).
    """

    counter: str
    kind: str
    returns: tuple[RegRange, ...] = ()
    writes_lds: bool = False
    reads_lds: bool = False


@dataclass(slots=True)
class Facts:
    """Everything the hazard analyses need to know about one instruction."""

    index: int
    mnemonic: str
    base: str
    classes: frozenset[str]
    reads: tuple[Access, ...]
    writes: tuple[Access, ...]
    wait_states: int = 1
    mfma: object | None = None  # MfmaInfo
    passes: int | None = None
    hwreg: str | None = None
    mem: MemOp | None = None
    waitcnt: dict | None = None  # counter -> value for the fields written (absent = no wait)
    control: str | None = None  # branch | cbranch | end | indirect | call
    target_label: str | None = None
    span: Span | None = None
    cache: dict = field(default_factory=dict)  # shared by identical statements (operand selections)

    def role(self, *roles: str) -> list[Access]:
        return [a for a in self.reads if a.role in roles]


# --------------------------------------------------------------------------- mnemonic facts

_SUFFIX_RE = re.compile(r"_(e32|e64|sdwa|dpp|e64_dpp)$")

TRANS_OPS = frozenset("""
v_exp_f32 v_log_f32 v_rcp_f32 v_rcp_iflag_f32 v_rsq_f32 v_sqrt_f32 v_sin_f32 v_cos_f32
v_rcp_f64 v_rsq_f64 v_sqrt_f64 v_rcp_f16 v_sqrt_f16 v_rsq_f16 v_log_f16 v_exp_f16 v_sin_f16 v_cos_f16
v_exp_legacy_f32 v_log_legacy_f32
""".split())

TWO_DEST_VALU = frozenset("""
v_add_co_u32 v_sub_co_u32 v_subrev_co_u32 v_addc_co_u32 v_subb_co_u32 v_subbrev_co_u32
v_div_scale_f32 v_div_scale_f64 v_mad_u64_u32 v_mad_i64_i32
""".split())

#: f32-input MFMAs that do not run on the XDL path on gfx940+ (is_gfx940_xdl = 0).
NON_XDL_KEYS = ("4x4x1", "16x16x1", "16x16x4", "32x32x1", "32x32x2")

DPP_MODIFIERS = frozenset("""
quad_perm row_shl row_shr row_ror wave_shl wave_rol wave_shr wave_ror row_mirror
row_half_mirror row_bcast row_newbcast row_share row_xmask
""".split())

SALU_NO_DST = (
    "s_nop", "s_waitcnt", "s_barrier", "s_endpgm", "s_branch", "s_cbranch_", "s_sendmsg", "s_sleep",
    "s_setprio", "s_trap", "s_icache_inv", "s_dcache_", "s_ttracedata", "s_setkill", "s_sethalt",
    "s_incperflevel", "s_decperflevel", "s_set_gpr_idx_", "s_code_end", "s_rfe_", "s_setpc_",
    "s_cmp_", "s_cmpk_", "s_bitcmp", "s_setreg_", "s_store_", "s_buffer_store_", "s_scratch_store_",
    "s_wakeup", "s_atc_probe", "s_denorm_mode", "s_round_mode", "s_endpgm_", "s_set_vskip",
)

DS_RETURNING = ("ds_read", "ds_load", "ds_swizzle", "ds_permute", "ds_bpermute", "ds_append", "ds_consume",
                "ds_ordered_count", "ds_gws_sema_br", "ds_read_addtid")
DS_NOT_LDS = ("ds_swizzle", "ds_permute", "ds_bpermute", "ds_nop", "ds_gws_", "ds_ordered_count")
ALWAYS_GDS = ("ds_gws_", "ds_ordered_count")


def split_suffix(mnemonic: str) -> tuple[str, str]:
    """'v_add_f32_e64' -> ('v_add_f32', 'e64')."""
    m = _SUFFIX_RE.search(mnemonic)
    if m:
        return mnemonic[: m.start()], m.group(1)
    return mnemonic, ""


def is_mfma(base: str) -> bool:
    return base.startswith(("v_mfma_", "v_smfmac_")) and base != "v_mfma_ld_scale_b32"


def is_vmem(base: str) -> bool:
    return base.startswith(("buffer_", "tbuffer_", "global_", "flat_", "scratch_"))


def is_smem(base: str) -> bool:
    return base.startswith(("s_load_", "s_buffer_load_", "s_store_", "s_buffer_store_", "s_scratch_",
                            "s_memtime", "s_memrealtime", "s_atomic_", "s_buffer_atomic_", "s_dcache_wb",
                            "s_atc_probe"))


def _is_atomic(base: str) -> bool:
    return "_atomic_" in base or base.startswith(("buffer_atomic", "global_atomic", "flat_atomic"))


# --------------------------------------------------------------------------- operands -> registers


def _operand_ranges(op) -> list[tuple[RegRange, object]]:
    """Registers named by one operand (with the AST node that names them)."""
    if isinstance(op, Modified):
        return _operand_ranges(op.inner)
    if isinstance(op, Reg):
        if op.file == "ttmp":
            return [(RegRange("s", TTMP_BASE + op.index, op.count), op)]
        return [(RegRange(op.file, op.index, op.count), op)]
    if isinstance(op, Special):
        name = op.name
        if name.startswith("src_"):
            name = name[4:]
        if name in SPECIAL_SGPRS:
            s, n = SPECIAL_SGPRS[name]
            return [(RegRange("s", s, n), op)]
        if name == "scc":
            return [(RegRange("scc", 0, 1), op)]
        return []
    if isinstance(op, RegList):
        out = []
        for item in op.items:
            out.extend(_operand_ranges(item))
        return out
    return []


def _is_sgpr_operand(op) -> bool:
    rs = _operand_ranges(op)
    return bool(rs) and rs[0][0].file == "s"


def _hwreg_name(op) -> str | None:
    """Identity of the hardware register in hwreg(...) or a raw simm16 (id = bits 5:0)."""
    if isinstance(op, Call) and op.name == "hwreg" and op.args:
        a = op.args[0]
        if isinstance(a, Imm):
            return str(a.value)
        if isinstance(a, (Symbol, Special)):
            return _HWREG_IDS.get(a.text().upper(), a.text().upper())
        return a.text()
    if isinstance(op, Imm):
        return str(op.value & 0x3F)
    return None


_HWREG_IDS = {"HW_REG_MODE": "1", "HW_REG_STATUS": "2", "HW_REG_TRAPSTS": "3", "HW_REG_HW_ID": "4",
              "HW_REG_GPR_ALLOC": "5", "HW_REG_LDS_ALLOC": "6", "HW_REG_IB_STS": "7",
              "HW_REG_SH_MEM_BASES": "15", "HW_REG_TBA_LO": "16", "HW_REG_TBA_HI": "17",
              "HW_REG_TMA_LO": "18", "HW_REG_TMA_HI": "19", "HW_REG_FLAT_SCR_LO": "20",
              "HW_REG_FLAT_SCR_HI": "21", "HW_REG_XNACK_MASK": "22", "HW_REG_POPS_PACKER": "25"}
TRAPSTS_ID = "3"


# --------------------------------------------------------------------------- role assignment


def _roles_from_row(info, n: int) -> list[tuple[str, bool, bool]] | None:
    """(role, write, read) per written operand from an opcodes row, if the row fits."""
    specs = list(info.operands)
    required = sum(1 for s in specs if not s.optional)
    if not (required <= n <= len(specs)):
        return None
    if any(s.optional for s in specs[:required]):
        return None  # an optional operand before a required one: position is ambiguous
    out = []
    for spec in specs[:n]:
        role = {"data": "vdata"}.get(spec.role, spec.role)
        if spec.kinds and set(spec.kinds) <= set("wnhmLkilo"):
            out.append((role, False, False))  # not a register operand (waitcnt fields, counts...)
            continue
        out.append((role, spec.write, not spec.write))
    return out


_ROW_ROLES: dict[tuple[str, int], tuple | None] = {}


def _row_roles(mn: str, base: str, n: int) -> tuple[tuple[str, bool, bool], ...] | None:
    """The opcodes row's roles of `mn` with `n` operands (None: the patterns decide), once per
    mnemonic and count: a kernel repeats a few dozen mnemonics over thousands of lines."""
    key = (mn, n)
    if key in _ROW_ROLES:
        return _ROW_ROLES[key]
    roles = None
    info = opcodes.lookup(mn)
    # (scalar and buffer atomics: the row cannot say that glc / sc0 makes sdata / vdata a
    # destination too, the value before the operation coming back into it; the pattern does)
    if info is not None and not is_mfma(base) and not base.startswith(("s_atomic_", "s_buffer_atomic_",
                                                                        "buffer_atomic_")):
        found = _roles_from_row(info, n)
        roles = tuple(found) if found is not None else None
    _ROW_ROLES[key] = roles
    return roles


def _pattern_roles(base: str, n: int, ins: Instruction) -> list[tuple[str, bool, bool]]:
    """(role, write, read) per written operand, from the mnemonic (llvm-mc syntax)."""
    W, R, RW = (True, False), (False, True), (True, True)

    def seq(first: list[tuple[str, tuple[bool, bool]]], rest: str = "src") -> list[tuple[str, bool, bool]]:
        out = [(r, *f) for r, f in first[:n]]
        k = 0
        while len(out) < n:
            out.append((f"{rest}{k}", False, True))
            k += 1
        return out

    if is_mfma(base):
        if base.startswith("v_smfmac_"):
            return seq([("vdst", RW), ("srca", R), ("srcb", R), ("idx", R)])
        return seq([("vdst", W), ("srca", R), ("srcb", R), ("srcc", R), ("scale0", R), ("scale1", R)])
    if base.startswith("v_"):
        if base.startswith(("v_cmp_", "v_cmpx_", "v_cmps_", "v_cmpsx_")):
            return seq([("sdst", W), ("src0", R), ("src1", R)])
        if base in TWO_DEST_VALU:
            return seq([("vdst", W), ("sdst", W), ("src0", R), ("src1", R), ("src2", R)])
        if base == "v_readlane_b32":
            return seq([("sdst", W), ("src0", R), ("lanesel", R)])
        if base == "v_readfirstlane_b32":
            return seq([("sdst", W), ("src0", R)])
        if base == "v_writelane_b32":
            return seq([("vdst", RW), ("src0", R), ("lanesel", R)])
        if base in ("v_swap_b32", "v_swaprel_b32"):
            return seq([("vdst", RW), ("src0", RW)])
        if base in ("v_nop", "v_clrexcp"):
            return []
        if base.startswith(("v_permlane16_swap", "v_permlane32_swap")):
            return seq([("vdst", RW), ("src0", RW)])
        return seq([("vdst", W)])
    if base.startswith("s_"):
        if base.startswith("s_setreg_"):
            return seq([("hwreg", R), ("src0", R)])
        if base == "s_getreg_b32":
            return seq([("sdst", W), ("hwreg", R)])
        if base.startswith(("s_store_", "s_buffer_store_", "s_scratch_store_")):
            return seq([("sdata", R), ("sbase", R), ("soffset", R)])
        if base.startswith(("s_atomic_", "s_buffer_atomic_")):
            returns = ins.has("glc")
            return seq([("sdata", RW if returns else R), ("sbase", R), ("soffset", R)])
        if base.startswith(SALU_NO_DST):
            return seq([])
        if base.startswith(("s_addk_", "s_mulk_", "s_cmovk_")):
            return seq([("sdst", RW)])
        return seq([("sdst", W)])
    if base.startswith("ds_"):
        if base == "ds_nop":
            return []
        if base.startswith(DS_RETURNING) or "_rtn_" in base:
            return seq([("vdst", W), ("addr", R), ("data0", R), ("data1", R)])
        if base == "ds_write_addtid_b32":
            return seq([("data0", R)])
        if base.startswith(("ds_gws_",)):
            return seq([("data0", R)])
        return seq([("addr", R), ("data0", R), ("data1", R)])
    if is_vmem(base):
        lds = ins.has("lds") or "_lds_" in base
        if base.startswith(("buffer_wbinvl1", "buffer_wbl2", "buffer_inv", "buffer_gl")):
            return []
        buf = base.startswith(("buffer_", "tbuffer_"))
        if lds:
            if base.startswith("buffer_store_lds"):
                return seq([("srsrc", R), ("soffset", R)])
            if buf:
                return seq([("vaddr", R), ("srsrc", R), ("soffset", R)])
            return seq([("vaddr", R), ("saddr", R)])
        returns = ins.has("glc") or ins.has("sc0")
        if "_load_" in base or base.startswith(("buffer_load", "tbuffer_load")):
            if buf:
                return seq([("vdst", W), ("vaddr", R), ("srsrc", R), ("soffset", R)])
            return seq([("vdst", W), ("vaddr", R), ("saddr", R)])
        if _is_atomic(base):
            if buf:
                return seq([("vdata", RW if returns else R), ("vaddr", R), ("srsrc", R), ("soffset", R)])
            if returns:
                return seq([("vdst", W), ("vaddr", R), ("vdata", R), ("saddr", R)])
            return seq([("vaddr", R), ("vdata", R), ("saddr", R)])
        if buf:
            return seq([("vdata", R), ("vaddr", R), ("srsrc", R), ("soffset", R)])
        return seq([("vaddr", R), ("vdata", R), ("saddr", R)])
    if base.startswith("exp"):
        return seq([("target", R)])
    return seq([])


# --------------------------------------------------------------------------- classes


def _mfma_passes(info, ins: Instruction) -> int:
    if info is None:
        return 16
    if getattr(info, "format_select", False):
        try:
            cbsz = int(ins.modifier("cbsz", 0) or 0)
            blgp = int(ins.modifier("blgp", 0) or 0)
            return info.with_formats(cbsz, blgp).passes
        except (ValueError, KeyError, TypeError):
            return info.passes
    return info.passes


def _mfma_classes(base: str, target: str, info) -> set[str]:
    cls = {"mfma"}
    f64 = (info is not None and info.is_dgemm) or base.startswith("v_mfma_f64_")
    if f64:
        cls.add("dgemm")
        shape = f"{info.m}x{info.n}" if info is not None else ("4x4" if "_4x4x4" in base else "16x16")
        cls.add("dgemm-4x4" if shape == "4x4" else "dgemm-16x16")
        cls.add("mfma-nonxdl-or-dgemm")
        return cls
    non_xdl = False
    if target in ("gfx942", "gfx950") and base.startswith("v_mfma_f32_") and not base.startswith("v_mfma_f32_32x32x4_xf32"):
        if info is not None:
            non_xdl = info.a_type == "fp32" and info.b_type == "fp32"
        else:
            non_xdl = any(f"_{k}" in base for k in NON_XDL_KEYS) and base.endswith("f32") and "xf32" not in base
    if non_xdl:
        cls |= {"mfma-nonxdl", "mfma-nonxdl-or-dgemm"}
    else:
        cls.add("mfma-xdl")
    return cls


def _partial_dst(base: str, suffix: str, ins: Instruction, target: str) -> tuple[bool, bool]:
    """(valu-partial-dst, cvt-scale-partial-dst) per getDstSelForwardingOperand."""
    if target not in ("gfx942", "gfx950"):
        return False, False
    dst_sel = ins.modifier("dst_sel")
    if suffix == "sdwa" or dst_sel is not None:
        if dst_sel is not None and str(dst_sel).upper() not in ("DWORD", "6"):
            return True, False
        return False, False
    op_sel = ins.modifier("op_sel")
    cvt_scale = False
    if base.startswith("v_cvt_scalef32_sr_pk_fp4_") and target == "gfx950":
        return True, True
    if base.startswith(("v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32", "v_cvt_scalef32_sr_fp8", "v_cvt_scalef32_sr_bf8",
                        "v_cvt_scalef32_pk_fp8", "v_cvt_scalef32_pk_bf8", "v_cvt_scalef32_fp8", "v_cvt_scalef32_bf8")):
        if isinstance(op_sel, tuple) and len(op_sel) >= 4 and (op_sel[2] or op_sel[3]):
            cvt_scale = base.startswith("v_cvt_scalef32_") and target == "gfx950"
            return True, cvt_scale
        return False, False
    if isinstance(op_sel, tuple) and op_sel and op_sel[-1]:
        if not base.startswith(("v_pk_", "v_dot", "v_fma_mix", "v_mad_mix", "v_cvt_pk_")):
            return True, False
    return False, False


def _classes(base: str, suffix: str, ins: Instruction, target: str, writes, reads, info) -> set[str]:
    cls: set[str] = set()
    mods = {m.name for m in ins.modifiers}
    if is_mfma(base):
        return _mfma_classes(base, target, info)
    if base.startswith("v_"):
        cls.add("valu")
        if base in TRANS_OPS:
            cls.add("valu-trans")
        if base.startswith("v_dot"):
            cls.add("dot")
        if base.startswith("v_accvgpr_read"):
            cls.add("accvgpr-read")
        if base.startswith("v_accvgpr_write"):
            cls.add("accvgpr-write")
        sgpr_w = [a for a in writes if a.reg.file == "s"]
        if sgpr_w:
            cls.add("valu-writes-sgpr")
            if any(a.reg.overlaps(RegRange("s", *VCC)) for a in sgpr_w):
                cls.add("valu-writes-vcc")
            if any(a.reg.overlaps(RegRange("s", *EXEC)) for a in sgpr_w):
                cls.add("valu-writes-exec")
                if base.startswith(("v_cmp", "v_cmpx")):
                    cls.add("v-cmpx")
        if base in ("v_readlane_b32", "v_writelane_b32"):
            cls.add("v-rwlane")
        if base in ("v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32"):
            cls.add("v-lane-ops")
        if base in ("v_readlane_b32", "v_readfirstlane_b32"):
            cls.add("v-readlane-ops")
        if base in ("v_div_fmas_f32", "v_div_fmas_f64"):
            cls.add("v-div-fmas")
        if base in ("v_fma_f64", "v_fmac_f64"):
            cls.add("v-fma-f64")
        if suffix in ("dpp", "e64_dpp") or mods & DPP_MODIFIERS:
            cls.add("dpp")
        if base.startswith(("v_permlane16_swap", "v_permlane32_swap")):
            cls.add("permlane-swap")
        if any(isinstance(o, Special) and o.name in ("lds_direct", "src_lds_direct") for o in ins.operands):
            cls.add("lds-direct")
        partial, cvt = _partial_dst(base, suffix, ins, target)
        if partial:
            cls.add("valu-partial-dst")
        if cvt:
            cls.add("cvt-scale-partial-dst")
        return cls
    if base.startswith("s_"):
        if is_smem(base):
            cls.add("smem")
            return cls
        if base.startswith(("s_setreg_b32", "s_setreg_imm32_b32")):
            cls.add("s-setreg")
        if base == "s_getreg_b32":
            cls.add("s-getreg")
        if base == "s_rfe_b64":
            cls.add("s-rfe")
        if base in ("s_sendmsg", "s_sendmsghalt", "s_ttracedata"):
            cls.add("s-sendmsg")
        if base.startswith(("s_movrels_", "s_movreld_")):
            cls.add("s-movrel")
        if any(a.reg.file == "s" and a.reg.overlaps(RegRange("s", *M0)) for a in writes):
            cls.add("salu-writes-m0")
        cls.add("salu")
        return cls
    if base.startswith("ds_"):
        cls |= {"ds", "mem"}
        if ins.has("gds") or base.startswith(ALWAYS_GDS):
            if not base.startswith(("ds_nop", "ds_permute_b32", "ds_bpermute_b32")):
                cls.add("gds")
        if base in ("ds_read_addtid_b32", "ds_write_addtid_b32"):
            cls.add("ds-addtid")
        return cls
    if is_vmem(base):
        cls |= {"vmem", "mem"}
        lds = ins.has("lds") or "_lds_" in base
        if lds and not base.startswith("buffer_store_lds"):
            cls.add("lds-dma")
        store = ("_store_" in base or _is_atomic(base)) and not lds
        if store:
            data = [a for a in reads if a.role == "vdata"]
            width = sum(a.reg.count for a in data)
            if width > 2:
                buf = base.startswith(("buffer_", "tbuffer_"))
                soff = [a for a in reads if a.role == "soffset" and a.reg.file == "s"]
                if buf and soff:
                    cls.add("buf-store-wide-sgpr-soffset")
                else:
                    cls.add("vmem-store-wide")
        return cls
    if base.startswith("exp"):
        cls.add("mem")
    return cls


# --------------------------------------------------------------------------- memory & counters


def _mem_op(base: str, ins: Instruction, writes: list[Access], reads: list[Access]) -> MemOp | None:
    rets = tuple(a.reg for a in writes if a.explicit)
    if is_vmem(base):
        if base.startswith(("buffer_wbinvl1", "buffer_wbl2", "buffer_inv", "buffer_gl")):
            return None
        lds = ins.has("lds") or "_lds_" in base
        if lds:
            if base.startswith("buffer_store_lds"):
                return MemOp("vm", "store", (), reads_lds=True)
            return MemOp("vm", "lds-dma", (), writes_lds=True)
        if _is_atomic(base):
            return MemOp("vm", "atomic", rets)
        if "_store_" in base:
            return MemOp("vm", "store", ())
        return MemOp("vm", "load", rets)
    if base.startswith("ds_"):
        if base == "ds_nop":
            return None
        if base.startswith(DS_NOT_LDS):
            return MemOp("lgkm", "ds-read", rets)
        if base.startswith(("ds_read", "ds_load")):
            return MemOp("lgkm", "ds-read", rets, reads_lds=True)
        if base.startswith(("ds_write", "ds_store")):
            return MemOp("lgkm", "ds-write", (), writes_lds=True)
        return MemOp("lgkm", "ds-atomic", rets, writes_lds=True, reads_lds=True)
    if base.startswith("s_") and is_smem(base):
        return MemOp("lgkm", "smem", rets)
    if base in ("s_sendmsg", "s_sendmsghalt"):
        return MemOp("lgkm", "msg", ())
    return None


def waitcnt_fields(ins: Instruction, symbols: dict | None = None) -> dict[str, int]:
    """Counter fields an ``s_waitcnt`` names: {'vm': n, 'lgkm': n, 'exp': n} (absent = no wait).

    A bare integer is the gfx9 encoding: vmcnt = [3:0] | [15:14] << 4, expcnt = [6:4],
    lgkmcnt = [11:8].
    """
    out: dict[str, int] = {}
    for op in ins.operands:
        calls = op.calls if isinstance(op, CallGroup) else (op,) if isinstance(op, Call) else ()
        for c in calls:
            key = {"vmcnt": "vm", "lgkmcnt": "lgkm", "expcnt": "exp"}.get(c.name.replace("_sat", ""))
            if key is None or not c.args:
                continue
            value = _const(c.args[0], symbols)
            if value is not None:
                out[key] = value
        if not calls:
            raw = _const(op, symbols)
            if raw is not None:
                out["vm"] = (raw & 0xF) | (((raw >> 14) & 0x3) << 4)
                out["exp"] = (raw >> 4) & 0x7
                out["lgkm"] = (raw >> 8) & 0xF
    return out


def _const(op, symbols: dict | None) -> int | None:
    if isinstance(op, Imm):
        return op.value
    try:
        from ..asm.resolve import eval_const
        return eval_const(op, symbols or {})
    except Exception:  # an undefined symbol is a validation matter, not ours
        return None


# --------------------------------------------------------------------------- entry point


def _control(base: str, ins: Instruction) -> tuple[str | None, str | None]:
    label = next((o.name for o in ins.operands if isinstance(o, Symbol)), None)
    if base == "s_branch":
        return "branch", label
    if base.startswith("s_cbranch_"):
        if base in ("s_cbranch_join", "s_cbranch_g_fork", "s_cbranch_i_fork"):
            return "indirect", None
        return "cbranch", label
    if base in ("s_endpgm", "s_endpgm_saved", "s_endpgm_ordered_ps_done", "s_rfe_b64", "s_code_end"):
        return "end", None
    if base in ("s_setpc_b64",):
        return "indirect", None
    if base in ("s_swappc_b64", "s_call_b64"):
        return "call", label
    return None, None


def classify(ins: Instruction, target: str, symbols: dict | None = None) -> Facts:
    """Hazard facts of one instruction on ``target`` (a canonical name, e.g. 'gfx90a')."""
    mn = ins.mnemonic.lower()
    base, suffix = split_suffix(mn)
    ops = ins.operands
    roles = _row_roles(mn, base, len(ops))
    if roles is None:
        roles = _pattern_roles(base, len(ops), ins)
    reads: list[Access] = []
    writes: list[Access] = []
    hwreg = None
    for op, (role, w, r) in zip(ops, roles):
        if role == "hwreg":
            hwreg = _hwreg_name(op)
            continue
        for rr, node in _operand_ranges(op):
            sp = getattr(node, "span", None)
            acc = Access(rr, role, True, (sp.column, sp.end_column) if sp is not None else None)
            if w:
                writes.append(acc)
            if r:
                reads.append(acc)
    mf = None
    passes = None
    if is_mfma(base):
        try:
            mf = mfma_catalog.lookup(base, target)
        except ValueError:
            mf = None
        passes = _mfma_passes(mf, ins)
        if base.startswith("v_smfmac_"):
            # SrcC of a sparse MFMA is its destination (accumulated in place)
            reads = [Access(a.reg, "srcc", a.explicit, a.cols) if a.role == "vdst" else a for a in reads]
    # implicit operands
    vector = base.startswith("v_") or base.startswith("ds_") or is_vmem(base)
    if vector:
        reads.append(Access(RegRange("s", *EXEC), "exec", False))
    if base.startswith(("v_cmpx_", "v_cmpsx_")):
        writes.append(Access(RegRange("s", *EXEC), "exec", False))
    if base in ("v_div_fmas_f32", "v_div_fmas_f64"):
        reads.append(Access(RegRange("s", *VCC), "vcc", False))
    if base.startswith(("v_mac_", "v_fmac_")) or (base.startswith("v_dot") and "c_" in base) or base.startswith("v_pk_fmac"):
        # VOP2 accumulate forms: the destination is also src2
        reads.extend(Access(a.reg, "src2", a.explicit, a.cols) for a in writes if a.role == "vdst")
    if base in ("s_set_gpr_idx_on", "s_set_gpr_idx_mode", "s_set_gpr_idx_idx"):
        # VGPR indexing mode keeps its index and mode in M0 (LLVM SOPInstructions.td: S_SET_GPR_IDX_ON
        # and _MODE have Defs = [M0, MODE]; _ON and _IDX change some bits of M0 and keep the others),
        # so they are SALU writers of M0 for checkReadM0Hazards like any s_mov to m0
        writes.append(Access(RegRange("s", *M0), "m0", False))
        if base != "s_set_gpr_idx_mode":
            reads.append(Access(RegRange("s", *M0), "m0", False))
    lds_dma = (ins.has("lds") or "_lds_" in base) and is_vmem(base)
    if (lds_dma or base.startswith(("s_movrel", "ds_read_addtid", "ds_write_addtid", "ds_gws_", "ds_ordered_count"))
            or base in ("s_sendmsg", "s_sendmsghalt", "s_ttracedata")
            or (base.startswith("ds_") and ins.has("gds"))
            or any(isinstance(o, Special) and o.name in ("lds_direct", "src_lds_direct") for o in ops)):
        reads.append(Access(RegRange("s", *M0), "m0", False))
    if base in ("s_cbranch_vccz", "s_cbranch_vccnz"):
        reads.append(Access(RegRange("s", *VCC), "vcc", False))
    if base in ("s_cbranch_execz", "s_cbranch_execnz"):
        reads.append(Access(RegRange("s", *EXEC), "exec", False))
    if "saveexec" in base or base.startswith("s_andn1_wrexec") or base.startswith("s_andn2_wrexec"):
        writes.append(Access(RegRange("s", *EXEC), "exec", False))
        reads.append(Access(RegRange("s", *EXEC), "exec", False))
    classes = _classes(base, suffix, ins, target, writes, reads, mf)
    if "s-setreg" in classes and hwreg == TRAPSTS_ID:
        classes.add("s-setreg-trapsts")
    classes.add("any")
    wait_states = 1
    if base == "s_nop":
        n = _const(ops[0], symbols) if ops else 0
        # the hardware reads SIMM16[3:0] only (ISA guides: "repeat SIMM16[3:0] times, 1..16"):
        # s_nop 16 is one wait state, not 17
        wait_states = ((n or 0) & 0xF) + 1
    control, label = _control(base, ins)
    facts = Facts(
        index=ins.index, mnemonic=mn, base=base, classes=frozenset(classes), reads=tuple(reads),
        writes=tuple(writes), wait_states=wait_states, mfma=mf, passes=passes, hwreg=hwreg,
        mem=_mem_op(base, ins, writes, reads),
        waitcnt=waitcnt_fields(ins, symbols) if base == "s_waitcnt" else None,
        control=control, target_label=label, span=ins.span,
    )
    return facts


def _operand_key(o) -> object:
    """An operand as far as hazards care: its value, not how it was spelt (a folded symbol's
    text is its name, the same for every value it takes)."""
    t = type(o)
    if t is Reg:
        return ("r", o.file, o.index, o.count)
    if t is Imm:
        return ("i", o.value, o.source[:4] == "lit(")
    if t is Modified:
        return ("m", o.neg, o.abs, o.sext, _operand_key(o.inner))
    if o is None or isinstance(o, (bool, int, str)):
        return o
    text = getattr(o, "text", None)
    return (t.__name__, text() if callable(text) else repr(o))


# Registers at or past this SGPR index have a role of their own (flat_scratch, xnack_mask, vcc,
# m0, exec on CDNA): classes look at whether a write touches them, so they are not "any SGPR".
_PLAIN_SGPR_END = 102


def _template_key(ins: Instruction) -> tuple | None:
    """The key of the instructions whose facts differ from each other's only in which registers
    they name (see _Template), or None when `ins` is not of that simple form: no modifiers,
    operands that are VGPRs, AGPRs, ordinary SGPRs or numbers. Everything classify reads
    besides the register numbers is in the key: mnemonic, each operand's kind, width, number
    value and columns."""
    if ins.modifiers:
        return None
    parts = []
    for o in ins.operands:
        t = type(o)
        sp = o.span
        if t is Reg:
            if not (o.file == "v" or o.file == "a" or (o.file == "s" and o.index + o.count <= _PLAIN_SGPR_END)):
                return None
            parts.append((o.file, o.count, sp.column, sp.end_column))
        elif t is Imm or t is FloatImm:
            parts.append((_operand_key(o), sp.column, sp.end_column))
        else:
            return None
    return ins.mnemonic, tuple(parts)


@dataclass(frozen=True, slots=True)
class _Template:
    """Facts of one instruction of a template key, and for each of its register accesses the
    operand it came from (-1: implicit, such as exec): another instruction of the key has the
    same facts with its own operands' registers in those accesses."""

    facts: Facts
    reads_from: tuple[int, ...]
    writes_from: tuple[int, ...]

    @staticmethod
    def of(f: Facts, ins: Instruction) -> "_Template | None":
        """The template of `f` (classified from `ins`), or None when some fact depends on more
        than the key and the registers of the accesses (memory operations: their returns)."""
        if f.mem is not None:
            return None
        where = {(o.span.column, o.span.end_column): k for k, o in enumerate(ins.operands) if type(o) is Reg}

        def origin(a: Access) -> int | None:
            if not a.explicit:
                return -1
            k = where.get(a.cols)
            if k is None:
                return None
            o = ins.operands[k]
            return k if a.reg == RegRange(o.file, o.index, o.count) else None

        reads = tuple(origin(a) for a in f.reads)
        writes = tuple(origin(a) for a in f.writes)
        if None in reads or None in writes:
            return None
        return _Template(f, reads, writes)

    def facts_for(self, i: int, ins: Instruction, accesses: dict) -> Facts:
        """The facts of `ins` (at index `i`). `accesses` keeps the Access objects made so far
        (they are immutable): a block of straight-line code names the same few registers in the
        same roles and columns over and over, and a lookup costs less than building one."""
        ops = ins.operands
        f = self.facts
        reads = tuple([a if k < 0 else _access(accesses, ops[k], a) for a, k in zip(f.reads, self.reads_from)])
        writes = tuple([a if k < 0 else _access(accesses, ops[k], a) for a, k in zip(f.writes, self.writes_from)])
        return Facts(i, f.mnemonic, f.base, f.classes, reads, writes, f.wait_states, f.mfma, f.passes, f.hwreg, f.mem,
                     f.waitcnt, f.control, f.target_label, ins.span)


def _access(accesses: dict, o: Reg, like: Access) -> Access:
    """`like` (an explicit access) with the registers of operand `o`."""
    key = (o.file, o.index, o.count, like.role, like.cols)
    a = accesses.get(key)
    if a is None:
        a = accesses[key] = Access(RegRange(o.file, o.index, o.count), like.role, True, like.cols)
    return a


def classify_all(instructions: list[Instruction], target: str, symbols: dict | None = None,
                 lines: list[str] | None = None) -> list[Facts]:
    """Facts for every instruction; identical statements are classified once and share
    their accesses and caches (only index and span differ).

    The memo key is what the facts depend on: the mnemonic, each operand's value (registers,
    numbers, symbols) and column, and the modifiers. Not the source line's text: one line of a
    macro or .rept body is several instructions with other operands, an included file's line
    number says nothing about the main file's line, and a line naming a `.set` symbol means
    another register where the symbol has another value. (``lines`` is accepted for callers.)
    """
    memo: dict[object, Facts] = {}
    templates: dict[tuple, _Template | None] = {}
    accesses: dict[tuple, Access] = {}  # see _Template.facts_for
    out: list[Facts] = []
    for i, ins in enumerate(instructions):
        tkey = _template_key(ins)
        if tkey is not None:  # the template key and the registers: all the memo key says (and end columns)
            key = (tkey, tuple([o.index for o in ins.operands if type(o) is Reg]))
        else:
            key = (ins.mnemonic, tuple(_operand_key(o) for o in ins.operands),
                   tuple((m.name, _operand_key(m.value)) for m in ins.modifiers),
                   tuple(o.span.column for o in ins.operands))
        f = memo.get(key)
        if f is None:
            tpl = templates.get(tkey) if tkey is not None else None
            if tpl is not None:  # the same instruction but for its registers (straight-line code)
                f = tpl.facts_for(i, ins, accesses)
            else:
                f = classify(ins, target, symbols)
                if tkey is not None and tkey not in templates:
                    templates[tkey] = _Template.of(f, ins)
            memo[key] = f
            if f.index == i and f.span is ins.span:  # the first of its kind: these facts are its own
                out.append(f)
                continue
        out.append(Facts(i, f.mnemonic, f.base, f.classes, f.reads, f.writes, f.wait_states, f.mfma, f.passes,
                         f.hwreg, f.mem, f.waitcnt, f.control, f.target_label, ins.span, f.cache))
    return out
