"""Hazard rule tables: software-required wait states on CDNA targets.

The data lives in ``gcnemu/isa/data/hazards.toml``; this module loads it into
frozen :class:`HazardRule` objects and documents the vocabulary the rows use.
It does not classify instructions or lint programs: the classifier (on the
parser's Program model) maps each instruction to a *set* of the classes below,
and the linter applies every rule of the target whose producer/consumer
classes, operand and overlap match.  When several rules match one
producer/consumer pair the requirement is the maximum of them.

Numbers come from LLVM's ``GCNHazardRecognizer.cpp`` (2025 revision with the
gfx950 branches); ``docs/hazards-verification.md`` records the verification of
every row of ``shared/isa/hazards.md``.

Counting wait states (as LLVM does)
-----------------------------------
* ``required = N`` means: between the producer and the consumer there must be
  at least N wait states.  Each instruction strictly between them contributes
  ``SIInstrInfo::getNumWaitStates``: ``s_nop k`` contributes ``k + 1`` (k is
  0..15 on gfx9, so one ``s_nop`` covers at most 16); *every other*
  instruction contributes 1 - SALU, SMEM, ``s_waitcnt``, branches, VALU and
  memory instructions alike, however long they really stall.  Labels and
  directives contribute 0.  The consumer must be preceded by
  ``max(0, N - distance)`` additional wait states.
* The producer searched for is the *nearest* earlier instruction that matches
  the rule (class and register overlap).  An intervening instruction of
  another class that writes the same register does not end the search
  (LLVM is conservative here).
* Across basic blocks LLVM walks backwards to the start of the consumer's
  block and then recursively into every predecessor (DFS, each block visited
  at most once per query - including the consumer's own block once more when
  it is its own predecessor, i.e. a loop), taking the minimum distance over
  the paths and giving up once the accumulated distance reaches the rule's
  limit.  Reaching the kernel entry without a producer means no hazard.
  A static linter should check every path (loop back edges included).
* MFMA-dependent numbers are keyed by the producer's pass count, LLVM's
  scheduling-model latency (``TSchedModel.computeInstrLatency``) of that
  MFMA: 2, 4 (gfx940+ only), 8 or 16.  The pass counts per opcode and target
  come from the MFMA catalog (``gcnemu/isa/mfma.py``, from SISchedule.td), not
  from this module.  f64 MFMAs (DGEMM) are keyed by shape, not passes.
* LLVM quirks kept out of the numbers but worth knowing: on gfx908 the pass
  count used is the maximum over all MFMAs walked past; the gfx90a+ MAI checks
  search back at most 19 wait states, one short of gfx950's 20.

Recognising the classes from a mnemonic
---------------------------------------
See :data:`CLASSES` (one entry per class name, with the recognition rule).
Facts used from LLVM:

* ``isMFMA`` = MAI instructions except ``v_accvgpr_read_b32`` /
  ``v_accvgpr_write_b32``, i.e. ``v_mfma_*`` and ``v_smfmac_*``.
* ``isDGEMM`` = ``getMAIIsDGEMM`` = the ``is_dgemm`` bit of VOP3PInstructions.td:
  ``v_mfma_f64_16x16x4f64`` and ``v_mfma_f64_4x4x4f64`` (gfx942 spellings
  ``v_mfma_f64_16x16x4_f64``, ``v_mfma_f64_4x4x4_4b_f64``).
* ``isXDL`` = MFMA, not DGEMM, and (before gfx940) always true, (gfx940+) the
  ``is_gfx940_xdl`` bit.  That bit is set on every MFMA except the five with
  f32 A/B inputs - ``v_mfma_f32_{4x4x1,16x16x1,16x16x4,32x32x1,32x32x2}f32``
  (gfx942 spellings ``..._4x4x1_16b_f32``, ``..._16x16x1_4b_f32``,
  ``..._16x16x4_f32``, ``..._32x32x1_2b_f32``, ``..._32x32x2_f32``) - and on
  every ``v_smfmac_*``; ``xf32``, f16, bf16 (``_1k``), i8, fp8/bf8 and the
  gfx950 f8f6f4 / scaled forms are XDL.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Mapping

__all__ = [
    "TARGETS",
    "TARGET_ALIASES",
    "CLASSES",
    "PRODUCER_OPERANDS",
    "OPERANDS",
    "OVERLAPS",
    "CONDITIONS",
    "HazardRule",
    "load_rules",
    "rules_for",
    "rule_by_id",
    "required_wait_states",
    "max_required",
    "canonical_target",
    "CounterRule",
    "counter_rules_for",
    "counter_rule_by_id",
]

TARGETS: tuple[str, ...] = ("gfx908", "gfx90a", "gfx942", "gfx950")
"""Targets the table covers, oldest first."""

TARGET_ALIASES: Mapping[str, str] = {"gfx940": "gfx942", "gfx941": "gfx942"}
"""gfx940/gfx941 share gfx942's hazard rules (same LLVM GFX940 branches)."""


# ---------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------

CLASSES: Mapping[str, str] = {
    # --- generic ---------------------------------------------------------
    "any": (
        "Any instruction that writes the register in question (LLVM's DPP "
        "check accepts every writer: VALU, VMEM/DS loads, ...)."
    ),
    "valu": (
        "Vector ALU instruction that is not an MFMA: mnemonic starts with 'v_' "
        "and is not v_mfma_*/v_smfmac_*. Includes v_accvgpr_read/write/mov, "
        "v_dot*, v_readlane/v_writelane/v_readfirstlane, DPP/SDWA forms, "
        "v_cvt_scalef32_*. (LLVM also flags LDS DMA loads as VALU; ignore that "
        "for producers, they write no VGPR.) v_mfma_ld_scale_b32 is an ordinary "
        "VOP3P here: LLVM defines it with VOP3PInst, not MAIInst."
    ),
    "valu-trans": (
        "Transcendental VALU (LLVM isTRANS): v_exp_f32, v_log_f32, v_rcp_f32, "
        "v_rcp_iflag_f32, v_rsq_f32, v_sqrt_f32, v_sin_f32, v_cos_f32, "
        "v_rcp_f64, v_rsq_f64, v_sqrt_f64, the f16 forms v_{rcp,sqrt,rsq,log,"
        "exp,sin,cos}_f16, v_exp_legacy_f32, v_log_legacy_f32."
    ),
    "valu-partial-dst": (
        "gfx940+: VALU that writes only part of its destination "
        "(getDstSelForwardingOperand): SDWA with dst_sel other than DWORD; "
        "VOP3/VOP3P whose last op_sel element (the destination half) is 1; "
        "FP8 byte-select conversions (v_cvt_sr_fp8_f32, v_cvt_sr_bf8_f32 and "
        "their gfx950 v_cvt_scalef32 forms) whose op_sel[2] or op_sel[3] is "
        "set; on gfx950 every v_cvt_scalef32_sr_pk_fp4_* (any op_sel). "
        "Confirm the exact opcode list against FPDstSelType in "
        "VOP3Instructions.td."
    ),
    "cvt-scale-partial-dst": (
        "gfx950: the v_cvt_scalef32_* subset of valu-partial-dst - FP8/BF8 "
        "byte-select forms with a non-zero destination byte (op_sel[2]/[3]) "
        "and all v_cvt_scalef32_sr_pk_fp4_* (hasCvtScaleForwardingHazard)."
    ),
    "valu-writes-sgpr": (
        "VALU whose destination is a scalar register: explicit sdst or "
        "implicit VCC/EXEC - v_cmp*/v_cmpx*/v_cmp_class* (e32 writes VCC, "
        "cmpx also EXEC; e64 writes the named SGPR pair), carry ops "
        "(v_add_co_u32, v_sub_co_u32, v_subrev_co_u32, v_addc_co_u32, "
        "v_subb_co_u32, v_subbrev_co_u32), v_div_scale_f32/f64, "
        "v_mad_u64_u32/v_mad_i64_i32, v_readlane_b32 and v_readfirstlane_b32 "
        "with an SGPR destination."
    ),
    "valu-writes-vcc": "The subset of valu-writes-sgpr that writes VCC (or vcc_lo/vcc_hi).",
    "valu-writes-exec": (
        "VALU that writes EXEC: v_cmpx_* (all gfx9 v_cmpx write EXEC), or any "
        "VALU whose scalar destination is exec/exec_lo/exec_hi."
    ),
    "v-cmpx": (
        "Compare that writes EXEC (LLVM isVCmpXWritesExec): VOPC, or VOP3/SDWA "
        "compare, modifying EXEC - v_cmpx_*, or v_cmp_* with exec as sdst."
    ),
    "dot": "v_dot* (LLVM isDOT): v_dot2_*, v_dot2c_*, v_dot4_*, v_dot4c_*, v_dot8_*, ...",
    "salu-writes-m0": (
        "Scalar ALU instruction (SOP1/SOP2/SOPK/SOPC, not SMEM) with M0 as "
        "destination: s_mov_b32 m0, ..., s_movk_i32 m0, s_add_u32 m0, ..., and the VGPR-indexing "
        "instructions that write M0 implicitly: s_set_gpr_idx_on, s_set_gpr_idx_mode, s_set_gpr_idx_idx "
        "(LLVM SOPInstructions.td: Defs = [M0, MODE])"
    ),
    "s-setreg": "s_setreg_b32 / s_setreg_imm32_b32; matched to the consumer by hardware register id.",
    "s-setreg-trapsts": "s-setreg whose hwreg is HW_REG_TRAPSTS.",
    "s-getreg": "s_getreg_b32.",
    "s-rfe": "s_rfe_b64.",
    "s-sendmsg": "s_sendmsg, s_sendmsghalt, s_ttracedata.",
    "s-movrel": "s_movrels_b32, s_movrels_b64, s_movreld_b32, s_movreld_b64.",
    # --- MAI -------------------------------------------------------------
    "mfma": "Any v_mfma_* or v_smfmac_* (LLVM isMFMA), including DGEMM.",
    "mfma-xdl": (
        "MFMA executed on the XDL path (LLVM isXDL). gfx908/gfx90a: every "
        "non-f64 MFMA (what LLVM's gfx90a constants call 'SMFMA'). "
        "gfx942/gfx950: every v_smfmac_* and every non-f64 v_mfma_* except "
        "the five f32-input ones listed under mfma-nonxdl."
    ),
    "mfma-nonxdl": (
        "gfx942/gfx950 only (empty before gfx940): non-XDL, non-f64 MFMAs = "
        "v_mfma_f32_{4x4x1,16x16x1,16x16x4,32x32x1,32x32x2}f32, in any of "
        "their spellings (_16b_f32, _4b_f32, _2b_f32, _f32)."
    ),
    "dgemm": "f64 MFMA (LLVM isDGEMM): dgemm-4x4 and dgemm-16x16.",
    "dgemm-4x4": "v_mfma_f64_4x4x4f64 (gfx942 spelling v_mfma_f64_4x4x4_4b_f64).",
    "dgemm-16x16": "v_mfma_f64_16x16x4f64 (gfx942 spelling v_mfma_f64_16x16x4_f64).",
    "mfma-nonxdl-or-dgemm": (
        "MFMA that is not XDL: mfma-nonxdl plus dgemm (on gfx90a just the "
        "DGEMMs). LLVM's '!isXDL(MI)' consumer test."
    ),
    "accvgpr-read": "v_accvgpr_read_b32 (alias v_accvgpr_read).",
    "accvgpr-write": "v_accvgpr_write_b32 (alias v_accvgpr_write).",
    # --- memory ----------------------------------------------------------
    "vmem": (
        "Vector memory: buffer_*, tbuffer_*, global_*, flat_*, scratch_* "
        "(loads, stores, atomics, LDS DMA)."
    ),
    "ds": "LDS/GDS instructions: ds_*.",
    "mem": "vmem, ds, and exports (LLVM's 'Mem or Export' consumers).",
    "lds-dma": (
        "Loads that write LDS directly, addressed through M0: buffer_load_* "
        "with the 'lds' modifier (dword/ubyte/sbyte/ushort/sshort, gfx950 also "
        "dwordx3/x4), buffer_store_lds_dword, global_load_lds_* and "
        "scratch_load_lds_* (gfx942/gfx950)."
    ),
    "gds": (
        "DS instruction with the 'gds' modifier, or an always-GDS opcode "
        "(ds_gws_*, ds_ordered_count, ...); ds_nop, ds_permute_b32 and "
        "ds_bpermute_b32 never are."
    ),
    "ds-addtid": "ds_read_addtid_b32, ds_write_addtid_b32.",
    "lds-direct": "VALU reading the lds_direct / src_lds_direct source operand.",
    "vmem-store-wide": (
        "VMEM instruction that stores (stores and atomics) a data operand "
        "wider than 64 bits (x3/x4, b96/b128, cmpswap_x2): every flat/global/"
        "scratch one, and buffer/tbuffer ones whose soffset is not an SGPR "
        "(a literal or 'off')."
    ),
    "buf-store-wide-sgpr-soffset": (
        "buffer/tbuffer store or atomic with more than 64 bits of data and an "
        "SGPR soffset."
    ),
    # --- specific VALU consumers -------------------------------------------
    "v-rwlane": "v_readlane_b32, v_writelane_b32 (not v_readfirstlane_b32).",
    "v-lane-ops": "v_readlane_b32, v_readfirstlane_b32, v_writelane_b32.",
    "v-readlane-ops": "v_readlane_b32, v_readfirstlane_b32.",
    "v-div-fmas": "v_div_fmas_f32, v_div_fmas_f64.",
    "v-fma-f64": "v_fma_f64, v_fmac_f64 (any encoding, incl. DPP).",
    "dpp": "VALU with DPP controls (quad_perm, row_*, wave_*, bank_mask, ...).",
    "permlane-swap": "gfx950: v_permlane16_swap_b32, v_permlane32_swap_b32.",
}
"""Instruction classes used as ``producer`` / ``consumer`` (and in the
``*_excludes`` lists), with how to recognise each from an instruction.
Classes overlap on purpose; an instruction belongs to every class it fits."""

PRODUCER_OPERANDS: Mapping[str, str] = {
    "dst": "The producer writes the register (its destination). Default.",
    "srcc": "The producer reads the register as MFMA SrcC (write-after-read rules).",
    "vdata": "The producer reads the register as store data (write-after-read rules).",
    "sgpr": "The producer writes the scalar register (SGPR, VCC or EXEC).",
    "vcc": "The producer writes VCC.",
    "exec": "The producer writes EXEC.",
    "m0": "The producer writes M0.",
    "hwreg": "The producer writes a hardware register (s_setreg).",
    "none": "No register link; the producer's presence alone matters.",
}

OPERANDS: Mapping[str, str] = {
    "srcc": "MFMA SrcC (the accumulator input, src2).",
    "srcab": "MFMA SrcA or SrcB, and the sparse-index operand of v_smfmac_*.",
    "any-read": "Any register the consumer reads through an explicit source operand "
                "(for memory instructions: address, data and, where present, offset VGPRs).",
    "vgpr-read": "A VGPR (not an AGPR) the consumer reads through an explicit source operand: "
                 "gfx908's checkMAIHazards908 and checkMAILdStHazards test TRI.isVGPR, so an AGPR "
                 "source (MFMA SrcC in a[...]) is left to the v_accvgpr_write rows.",
    "any-access": "Any register operand of the consumer, read or written, explicit or implicit.",
    "write": "The consumer's destination register(s) (write-after-write / write-after-read).",
    "sgpr-read": "A scalar register the consumer reads: explicit SGPR sources, resource/"
                 "soffset/saddr, and implicit VCC, EXEC and M0 reads.",
    "lane-select": "src1 of v_readlane_b32/v_writelane_b32, when it is an SGPR.",
    "src0": "src0 (the VGPR source) of v_readlane_b32 / v_readfirstlane_b32.",
    "vcc": "Implicit VCC read (v_div_fmas).",
    "exec": "Implicit EXEC read (every vector instruction reads EXEC).",
    "m0": "Implicit M0 read.",
    "hwreg": "The same hardware register id as the producer's s_setreg (offset/size ignored).",
    "none": "No register link; proximity alone is the hazard.",
}
"""Which operand of the consumer carries the dependency (the ``operand`` field)."""

OVERLAPS: Mapping[str, str] = {
    "any": "Producer and consumer registers share at least one 32-bit register.",
    "exact": "The consumer operand is exactly the producer's register range (same first register, same width).",
    "partial": "They share at least one 32-bit register but the ranges are not identical.",
    "none": "No register relation is required.",
}

CONDITIONS: Mapping[str, str] = {
    "accvgpr-op-between": (
        "gfx908 checkMAILdStHazards: the producer VALU is within 2 wait states "
        "of the consumer and a v_accvgpr_read/write lies between them; the "
        "required wait state is counted from that v_accvgpr instruction (in "
        "practice: VALU; v_accvgpr_*; memory op needs one s_nop before the "
        "memory op)."
    ),
    "dgemm-between": (
        "gfx90a hardware bug: at least one DGEMM issues between the producer "
        "and the consumer."
    ),
    "except-same-opcode-srcc": (
        "Not applied when the consumer is the same v_dot opcode reading the "
        "register as its src2 accumulator."
    ),
    "different-opcode": "Applied only when the consumer's opcode differs from the producer's.",
}


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HazardRule:
    """One hazard rule for one target.

    ``required`` is set for fixed requirements; ``required_by_passes`` (pairs
    ``(passes, wait_states)`` sorted by passes) for requirements that depend on
    the producer MFMA's pass count.  Exactly one of them is not ``None``; use
    :func:`required_wait_states` rather than reading them directly.
    """

    id: str
    target: str
    producer: str
    consumer: str
    operand: str
    overlap: str
    message: str
    source: str
    isa_guide: str = ""  # the ISA guide section (and table row) the rule comes from
    producer_operand: str = "dst"
    producer_excludes: tuple[str, ...] = ()
    consumer_excludes: tuple[str, ...] = ()
    required: int | None = None
    required_by_passes: tuple[tuple[int, int], ...] | None = None
    condition: str | None = None
    cross_check: str | None = None
    note: str | None = None

    @property
    def depends_on_passes(self) -> bool:
        """True when the requirement is keyed by the producer's MFMA pass count."""
        return self.required_by_passes is not None

    @property
    def producer_passes(self) -> tuple[int, ...]:
        """Pass counts the row defines (empty for fixed requirements)."""
        if self.required_by_passes is None:
            return ()
        return tuple(p for p, _ in self.required_by_passes)

    @property
    def max_wait_states(self) -> int:
        """Largest requirement of this rule over all pass counts."""
        if self.required is not None:
            return self.required
        return max(n for _, n in self.required_by_passes or ())


_STR_FIELDS = ("id", "producer", "consumer", "operand", "overlap", "message", "source", "isa_guide")
_KNOWN_FIELDS = set(_STR_FIELDS) | {
    "targets",
    "required",
    "producer_operand",
    "producer_excludes",
    "consumer_excludes",
    "condition",
    "cross_check",
    "note",
}


def canonical_target(target: str) -> str:
    """Map a target name (``gfx940`` etc. included) to the table's name."""
    t = target.strip().lower()
    t = TARGET_ALIASES.get(t, t)
    if t not in TARGETS:
        raise ValueError(f"unknown target {target!r}; known: {', '.join(TARGETS)}")
    return t


def _parse_required(row_id: str, value) -> tuple[int | None, tuple[tuple[int, int], ...] | None]:
    if isinstance(value, bool):
        raise ValueError(f"rule {row_id}: 'required' must be an integer or a table")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"rule {row_id}: negative requirement {value}")
        return value, None
    if isinstance(value, dict):
        pairs = []
        for k, v in value.items():
            try:
                passes = int(k)
            except ValueError:
                raise ValueError(f"rule {row_id}: pass count {k!r} is not an integer") from None
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"rule {row_id}: bad wait-state count {v!r} for {k} passes")
            pairs.append((passes, v))
        if not pairs:
            raise ValueError(f"rule {row_id}: empty 'required' table")
        return None, tuple(sorted(pairs))
    raise ValueError(f"rule {row_id}: 'required' must be an integer or a table, got {value!r}")


def _check_name(row_id: str, field: str, name: str, vocabulary: Mapping[str, str]) -> None:
    if name not in vocabulary:
        raise ValueError(f"rule {row_id}: unknown {field} {name!r}")


def _rows_to_rules(doc: dict) -> tuple[HazardRule, ...]:
    rows = doc.get("rule")
    if not isinstance(rows, list) or not rows:
        raise ValueError("hazard table has no [[rule]] rows")
    rules: list[HazardRule] = []
    seen: set[tuple[str, str]] = set()
    for row in rows:
        row_id = row.get("id", "<missing id>")
        unknown = set(row) - _KNOWN_FIELDS
        if unknown:
            raise ValueError(f"rule {row_id}: unknown field(s) {sorted(unknown)}")
        for f in _STR_FIELDS:
            if not isinstance(row.get(f), str) or not row[f].strip():
                raise ValueError(f"rule {row_id}: field {f!r} missing or empty")
        _check_name(row_id, "producer class", row["producer"], CLASSES)
        _check_name(row_id, "consumer class", row["consumer"], CLASSES)
        for f in ("producer_excludes", "consumer_excludes"):
            for name in row.get(f, ()):
                _check_name(row_id, f, name, CLASSES)
        _check_name(row_id, "operand", row["operand"], OPERANDS)
        _check_name(row_id, "producer_operand", row.get("producer_operand", "dst"), PRODUCER_OPERANDS)
        _check_name(row_id, "overlap", row["overlap"], OVERLAPS)
        if row.get("condition") is not None:
            _check_name(row_id, "condition", row["condition"], CONDITIONS)
        if "required" not in row:
            raise ValueError(f"rule {row_id}: 'required' missing")
        required, table = _parse_required(row_id, row["required"])
        targets = row.get("targets")
        if not isinstance(targets, list) or not targets:
            raise ValueError(f"rule {row_id}: 'targets' must be a non-empty list")
        for t in targets:
            if t not in TARGETS:
                raise ValueError(f"rule {row_id}: unknown target {t!r}")
            key = (t, row["id"])
            if key in seen:
                raise ValueError(f"rule {row_id}: duplicate id for target {t}")
            seen.add(key)
            rules.append(
                HazardRule(
                    id=row["id"],
                    target=t,
                    producer=row["producer"],
                    consumer=row["consumer"],
                    operand=row["operand"],
                    overlap=row["overlap"],
                    message=row["message"].strip(),
                    source=row["source"].strip(),
                    isa_guide=row["isa_guide"].strip(),
                    producer_operand=row.get("producer_operand", "dst"),
                    producer_excludes=tuple(row.get("producer_excludes", ())),
                    consumer_excludes=tuple(row.get("consumer_excludes", ())),
                    required=required,
                    required_by_passes=table,
                    condition=row.get("condition"),
                    cross_check=row.get("cross_check"),
                    note=row.get("note"),
                )
            )
    return tuple(rules)


@functools.lru_cache(maxsize=None)
def _load_default() -> tuple[HazardRule, ...]:
    text = resources.files("gcnemu.isa").joinpath("data/hazards.toml").read_text(encoding="utf-8")
    return _rows_to_rules(tomllib.loads(text))


def load_rules(path: str | Path | None = None) -> tuple[HazardRule, ...]:
    """Load and validate the hazard table; one :class:`HazardRule` per (row, target).

    Without ``path`` the packaged ``hazards.toml`` is read (and cached).
    Raises ``ValueError`` on unknown class names, operands, targets, duplicate
    ids within a target or malformed requirements.
    """
    if path is None:
        return _load_default()
    with open(path, "rb") as fh:
        return _rows_to_rules(tomllib.load(fh))


def rules_for(target: str) -> list[HazardRule]:
    """All rules that apply to ``target`` (gfx940/gfx941 are treated as gfx942)."""
    t = canonical_target(target)
    return [r for r in load_rules() if r.target == t]


def rule_by_id(target: str, rule_id: str) -> HazardRule:
    """The rule ``rule_id`` for ``target``; ``KeyError`` if the target has none."""
    t = canonical_target(target)
    for r in load_rules():
        if r.target == t and r.id == rule_id:
            return r
    raise KeyError(f"no hazard rule {rule_id!r} for {t}")


def required_wait_states(rule: HazardRule, producer_passes: int | None = None) -> int:
    """Wait states ``rule`` requires between its producer and consumer.

    For pass-dependent rules ``producer_passes`` (the producer MFMA's pass
    count from the MFMA catalog) is mandatory and must be one the rule lists;
    for fixed rules it is ignored.
    """
    if rule.required is not None:
        return rule.required
    assert rule.required_by_passes is not None
    if producer_passes is None:
        raise ValueError(f"rule {rule.id} ({rule.target}) depends on the producer's MFMA pass count")
    for passes, wait_states in rule.required_by_passes:
        if passes == producer_passes:
            return wait_states
    known = ", ".join(str(p) for p in rule.producer_passes)
    raise ValueError(
        f"rule {rule.id} ({rule.target}) has no entry for {producer_passes}-pass producers (known: {known})"
    )


def max_required(target: str) -> int:
    """Largest requirement of any rule on ``target``: how far back a linter must look."""
    return max(r.max_wait_states for r in rules_for(target))


# ---------------------------------------------------------------------------
# Counter rules (missing or too weak s_waitcnt)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CounterRule:
    """A rule about outstanding memory operations rather than wait states.

    The linter's abstract interpretation of vmcnt/lgkmcnt (``gcnemu.analysis.counters``)
    decides when it fires; this row names it and says why, for diagnostics and SARIF.
    """

    id: str
    target: str
    counter: str  # vm | lgkm
    producer: str
    consumer: str
    message: str
    source: str
    isa_guide: str = ""


_COUNTER_FIELDS = {"id", "targets", "counter", "producer", "consumer", "message", "source", "isa_guide"}


def _rows_to_counter_rules(doc: dict) -> tuple[CounterRule, ...]:
    out: list[CounterRule] = []
    for row in doc.get("counter_rule", []):
        row_id = row.get("id", "<missing id>")
        unknown = set(row) - _COUNTER_FIELDS
        if unknown:
            raise ValueError(f"counter rule {row_id}: unknown field(s) {sorted(unknown)}")
        missing = _COUNTER_FIELDS - set(row)
        if missing:
            raise ValueError(f"counter rule {row_id}: missing field(s) {sorted(missing)}")
        if row["counter"] not in ("vm", "lgkm"):
            raise ValueError(f"counter rule {row_id}: counter must be vm or lgkm")
        for t in row["targets"]:
            if t not in TARGETS:
                raise ValueError(f"counter rule {row_id}: unknown target {t!r}")
            out.append(CounterRule(row["id"], t, row["counter"], row["producer"], row["consumer"],
                                   row["message"].strip(), row["source"].strip(), row["isa_guide"].strip()))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _load_counter_default() -> tuple[CounterRule, ...]:
    text = resources.files("gcnemu.isa").joinpath("data/hazards.toml").read_text(encoding="utf-8")
    return _rows_to_counter_rules(tomllib.loads(text))


def counter_rules_for(target: str) -> list[CounterRule]:
    """Counter rules that apply to ``target``."""
    t = canonical_target(target)
    return [r for r in _load_counter_default() if r.target == t]


def counter_rule_by_id(target: str, rule_id: str) -> CounterRule:
    t = canonical_target(target)
    for r in _load_counter_default():
        if r.target == t and r.id == rule_id:
            return r
    raise KeyError(f"no counter rule {rule_id!r} for {t}")
