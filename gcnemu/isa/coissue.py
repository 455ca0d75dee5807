"""How the VALU and the matrix core of one SIMD share issue: per-target data with sources.

The timing engine reads these records; it holds no figure of its own. One SIMD has one VALU
(plain, transcendental and f64 VALU ops all occupy it) and one matrix core (MFMA/SMFMAC).
They issue through the same per-SIMD VALU issue category, and:

- a VALU op holds the VALU for its occupancy (``Latencies.valu``/``valu_trans``/``valu_dp``);
  an MFMA issues only when that VALU is idle (a transcendental in flight delays the next MFMA);
- after an MFMA issues, a VALU op of any wave on that SIMD may issue ``coexec_delay`` cycles
  later (the MFMA's row of the AMD Matrix Instruction Calculator); an MFMA that cannot
  co-execute keeps the VALU for its whole busy time;
- a packed FP32 op (``v_pk_fma_f32`` / ``v_pk_mul_f32`` / ``v_pk_add_f32``) never co-issues
  with a running MFMA of its SIMD: it waits until the matrix core has been idle
  ``packed_fp32_gap`` cycles;
- when an MFMA and a VALU op of two waves of one SIMD are both ready, the MFMA issues first.

Sources (facts only; the wording and the model are gcnemu's):

- pyhip (github.com/tingqli/pyhip), ``docs/mfma-valu-coissue.md`` and
  ``docs/data/mfma-valu-intra-inter-coissue-gfx942.json`` / ``mfma-exp-alu-bundle-gfx942.json``
  at commit bc013ed: MI300X (gfx942) microbenchmarks, s_memtime windows, 4 register chains,
  1000 x 1000 groups. v_add_f32 4.012 cyc; v_exp_f32 / v_rcp_f32 16.0 cyc; v_exp_f32 + an
  independent v_add_f32 20.036 cyc per pair; MFMA(16) + 3 VALU 16.05, + 4 VALU 20.05;
  MFMA + 1 v_exp_f32 20.05, + 2 36.05; MFMA + 1 v_pk_add_f32 / v_pk_mul_f32 28.04 in one wave
  (+4 per further pk op), 21.01 with the pk op in another wave of the SIMD. gfx950 PMC: with
  one v_pk_fma_f32 per MFMA the VALU co-executes 0 cycles per MFMA (two v_fmac_f32: 8).
- AMD Matrix Instruction Calculator (github.com/ROCm/amd_matrix_instruction_calculator,
  ``matrix_calculator.py``, fields ``coexec`` / ``coexec_delay``): CDNA1 every MFMA delay 8;
  CDNA2 delay 4, f64 MFMAs cannot co-execute; CDNA3 delay 4, SMFMAC 8, f32-input (not xf32)
  and f64 MFMAs cannot co-execute. CDNA4 is not in the calculator: gfx950 carries CDNA3's
  rules over (assumption; the pyhip gfx950 PMC data agree for packed FP32).
"""
from __future__ import annotations

from dataclasses import dataclass

PACKED_FP32 = ("v_pk_fma_f32", "v_pk_mul_f32", "v_pk_add_f32")
"""The packed FP32 ops pyhip measured (add/mul on gfx942, fma on gfx950): never co-issued."""

VALU_PIPES = frozenset({"valu", "trans", "dp"})
"""Pipes that occupy the SIMD's one VALU (pyhip: v_exp_f32 + an independent v_add_f32 is
20 = 16 + 4 cycles in one wave and in two waves of one SIMD: they do not overlap)."""


@dataclass(frozen=True)
class CoissueRules:
    """The VALU/matrix-core sharing rules of one target (module docstring: meaning and sources)."""

    coexec_delay: int = 4  # cycles after an MFMA's issue before a VALU op of its SIMD may issue
    sparse_coexec_delay: int = 4  # the same for SMFMAC
    no_coexec_types: frozenset = frozenset()  # MFMA A-operand types that cannot co-execute with VALU
    packed_fp32_gap: int | None = 8  # None: packed FP32 co-issues like any VALU op
    mfma_first: bool = True  # a ready MFMA wins the SIMD's VALU issue turn over a VALU op of another wave
    note: str = ""


_CDNA3 = CoissueRules(
    coexec_delay=4, sparse_coexec_delay=8, no_coexec_types=frozenset({"fp32", "fp64"}),
    # pyhip gfx942: MFMA(16 cyc) + 1 v_pk_add_f32 = 28 cyc/group in one wave = 16 busy + 8 idle + 4 pk op
    packed_fp32_gap=8,
    # pyhip gfx942 inter-wave results are the same whichever wave of the pair is older
    # (MFMA + 1 v_exp_f32 in another wave: 20.04): strict age order would starve the MFMA
    # behind the older wave's VALU stream in every other phase (26 cyc/group)
    mfma_first=True,
)

RULES: dict[str, CoissueRules] = {
    # calculator, CDNA1: every MFMA coexec_delay 8, all co-execute. Packed FP32 does not exist.
    "gfx908": CoissueRules(coexec_delay=8, sparse_coexec_delay=8, packed_fp32_gap=None,
                           note="pyhip has no gfx908 figures: the VALU occupancy and MFMA-first "
                                "arbitration carry over from gfx942"),
    # calculator, CDNA2: delay 4, f64 MFMAs cannot co-execute. Packed FP32: no measurement; the
    # gfx942/gfx950 never-co-issue rule is carried over (same packed-FP32 datapath lineage)
    "gfx90a": CoissueRules(coexec_delay=4, sparse_coexec_delay=4, no_coexec_types=frozenset({"fp64"}),
                           packed_fp32_gap=8,
                           note="packed FP32 gap and arbitration carried over from gfx942 (no gfx90a source)"),
    "gfx942": _CDNA3,
    # not in the calculator: CDNA3's rules carried over; pyhip's gfx950 PMC data confirm the
    # packed-FP32 rule (0 co-executed VALU cycles per MFMA with v_pk_fma_f32)
    "gfx950": CoissueRules(**{**_CDNA3.__dict__, "note": "CDNA3 (gfx942) rules carried over; packed FP32 "
                                                          "never co-issues per pyhip's gfx950 PMC data"}),
}


def rules(target: str) -> CoissueRules:
    """The co-issue rules of a target (aliases such as gfx940 share gfx942's)."""
    from .targets import get_target
    return RULES[get_target(target).name]


def mfma_coexec_delay(info, target: str, busy: int) -> int:
    """Cycles after an MFMA's issue before a VALU op of its SIMD may issue: the calculator's
    coexec_delay, or the MFMA's whole busy time when it cannot co-execute with VALU."""
    r = rules(target)
    if info is not None and info.a_type in r.no_coexec_types:
        return busy
    if info is not None and info.sparse:
        return min(r.sparse_coexec_delay, busy)
    return min(r.coexec_delay, busy)


def is_packed_fp32(mnemonic: str) -> bool:
    m = mnemonic.lower().removesuffix("_e64")
    return m in PACKED_FP32
