#!/usr/bin/env python3
"""Generate ``gcnemu/isa/data/mfma_catalog.json`` from the fact tables below.

Why a generator: the catalog has ~140 instruction x target rows whose fields
follow from a handful of facts (shape, element types, where the instruction
exists, LLVM's pass classes).  Writing the rows by hand invites drift; writing
the rules in the emulator would hide the facts in code.  So the facts live
here as small tables, the generated JSON is committed as package data, and
``tests/test_mfma_llvm_mc.py`` re-checks every spelling against llvm-mc 22.

Sources of the facts (see the JSON's ``sources``):
- spellings and targets: LLVM ``VOP3PInstructions.td`` (MAIInst / SMFMACInst
  definitions, ``VOP3P_Real_MFMA*`` gfx940 renames and aliases), checked with
  ``llvm-mc -mcpu=<target>``;
- passes: LLVM ``SISchedule.td`` (SIDPFullSpeedModel for gfx908/gfx90a MFMA
  classes, SIDPGFX942FullSpeedModel, SIDPGFX950FullSpeedModel) cross-checked
  against the CDNA2 table of the Matrix Cores article and the AMD Matrix
  Instruction Calculator (cycles = 4 * passes);
- register layouts: AMD Matrix Instruction Calculator formulas; the gfx950
  f8f6f4 FP8 split layout from AMD's CDNA3/CDNA4 Matrix Core blog.

Run:  python tools/gen_mfma_catalog.py            (writes the JSON)
      python tools/gen_mfma_catalog.py --check    (exit 1 if the file differs)
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
OUT = Path(__file__).resolve().parents[1] / "gcnemu" / "isa" / "data" / "mfma_catalog.json"

# ---------------------------------------------------------------------------
# Element types: bits per element, numpy/ml_dtypes dtype name, description.
ELEMENT_TYPES = {
    "fp64": (64, "float64", "IEEE binary64"),
    "fp32": (32, "float32", "IEEE binary32"),
    "xf32": (32, "float32", "fp32 storage, multiplied as XF32 (1s.8e.10m)"),
    "fp16": (16, "float16", "IEEE binary16"),
    "bf16": (16, "bfloat16", "bfloat16 (1s.8e.7m)"),
    "int32": (32, "int32", "signed 32-bit integer"),
    "int8": (8, "int8", "signed 8-bit integer"),
    "fp8_e4m3fnuz": (8, "float8_e4m3fnuz", "FP8 E4M3 FNUZ (gfx942 fp8)"),
    "bf8_e5m2fnuz": (8, "float8_e5m2fnuz", "BF8 E5M2 FNUZ (gfx942 bf8)"),
    "fp8_e4m3fn": (8, "float8_e4m3fn", "FP8 E4M3FN, OCP (gfx950 fp8)"),
    "bf8_e5m2": (8, "float8_e5m2", "BF8 E5M2, OCP (gfx950 bf8)"),
    "fp6_e2m3": (6, "float6_e2m3fn", "FP6 E2M3, OCP MX"),
    "bf6_e3m2": (6, "float6_e3m2fn", "BF6 E3M2, OCP MX"),
    "fp4_e2m1": (4, "float4_e2m1fn", "FP4 E2M1, OCP MX"),
    "e8m0": (8, "float8_e8m0fnu", "E8M0 power-of-two scale"),
    "f8f6f4": (8, None, "fp8/bf8/fp6/bf6/fp4 chosen by cbsz (A) and blgp (B)"),
}

# FP8 flavour per target: gfx942 implements the FNUZ encodings, gfx950 the OCP ones.
FP8_FLAVOUR = {
    "gfx942": {"fp8": "fp8_e4m3fnuz", "bf8": "bf8_e5m2fnuz"},
    "gfx950": {"fp8": "fp8_e4m3fn", "bf8": "bf8_e5m2"},
}

# gfx950 f8f6f4 format codes (cbsz selects A's, blgp selects B's).
# k_chunk: contiguous K run per lane group before the pattern repeats; FP8/BF8
# operands are laid out as two K/2 halves (VGPRs 0-3 and 4-7), FP6/FP4 are
# contiguous (k_chunk None = all of the lane's elements).
F8F6F4_FORMATS = [
    {"code": 0, "type": "fp8_e4m3fn", "regs": 8, "k_chunk": 16, "is_f8": True},
    {"code": 1, "type": "bf8_e5m2", "regs": 8, "k_chunk": 16, "is_f8": True},
    {"code": 2, "type": "fp6_e2m3", "regs": 6, "k_chunk": None, "is_f8": False},
    {"code": 3, "type": "bf6_e3m2", "regs": 6, "k_chunk": None, "is_f8": False},
    {"code": 4, "type": "fp4_e2m1", "regs": 4, "k_chunk": None, "is_f8": False},
]

ALL = TARGETS
G90A_UP = ("gfx90a", "gfx942", "gfx950")
G942_UP = ("gfx942", "gfx950")
G908_90A = ("gfx908", "gfx90a")

# ---------------------------------------------------------------------------
# Dense MFMA rows.
# (pre-gfx940 name or None, gfx940+ name or None, M, N, K, blocks, AB type,
#  CD type, targets, extra gfx940+ aliases)
DENSE = [
    # fp32
    ("v_mfma_f32_32x32x1f32", "v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, "fp32", "fp32", ALL, ()),
    ("v_mfma_f32_16x16x1f32", "v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, "fp32", "fp32", ALL, ()),
    ("v_mfma_f32_4x4x1f32", "v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, "fp32", "fp32", ALL, ()),
    ("v_mfma_f32_32x32x2f32", "v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, "fp32", "fp32", ALL, ()),
    ("v_mfma_f32_16x16x4f32", "v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, "fp32", "fp32", ALL, ()),
    # fp16
    ("v_mfma_f32_32x32x4f16", "v_mfma_f32_32x32x4_2b_f16", 32, 32, 4, 2, "fp16", "fp32", ALL, ()),
    ("v_mfma_f32_16x16x4f16", "v_mfma_f32_16x16x4_4b_f16", 16, 16, 4, 4, "fp16", "fp32", ALL, ()),
    ("v_mfma_f32_4x4x4f16", "v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, "fp16", "fp32", ALL, ()),
    ("v_mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8_f16", 32, 32, 8, 1, "fp16", "fp32", ALL, ()),
    ("v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16_f16", 16, 16, 16, 1, "fp16", "fp32", ALL, ()),
    # int8
    ("v_mfma_i32_32x32x4i8", "v_mfma_i32_32x32x4_2b_i8", 32, 32, 4, 2, "int8", "int32", ALL, ()),
    ("v_mfma_i32_16x16x4i8", "v_mfma_i32_16x16x4_4b_i8", 16, 16, 4, 4, "int8", "int32", ALL, ()),
    ("v_mfma_i32_4x4x4i8", "v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, "int8", "int32", ALL, ()),
    ("v_mfma_i32_32x32x8i8", None, 32, 32, 8, 1, "int8", "int32", G908_90A, ()),
    ("v_mfma_i32_16x16x16i8", None, 16, 16, 16, 1, "int8", "int32", G908_90A, ()),
    # bf16, original (CDNA1/CDNA2 only): two bf16 per VGPR, half the K of the _1k forms
    ("v_mfma_f32_32x32x2bf16", None, 32, 32, 2, 2, "bf16", "fp32", G908_90A, ()),
    ("v_mfma_f32_16x16x2bf16", None, 16, 16, 2, 4, "bf16", "fp32", G908_90A, ()),
    ("v_mfma_f32_4x4x2bf16", None, 4, 4, 2, 16, "bf16", "fp32", G908_90A, ()),
    ("v_mfma_f32_32x32x4bf16", None, 32, 32, 4, 1, "bf16", "fp32", G908_90A, ()),
    ("v_mfma_f32_16x16x8bf16", None, 16, 16, 8, 1, "bf16", "fp32", G908_90A, ()),
    # bf16 _1k (gfx90a+); gfx940 renames them and also accepts the name without _1k
    ("v_mfma_f32_32x32x4bf16_1k", "v_mfma_f32_32x32x4_2b_bf16", 32, 32, 4, 2, "bf16", "fp32", G90A_UP,
     ("v_mfma_f32_32x32x4bf16",)),
    ("v_mfma_f32_16x16x4bf16_1k", "v_mfma_f32_16x16x4_4b_bf16", 16, 16, 4, 4, "bf16", "fp32", G90A_UP,
     ("v_mfma_f32_16x16x4bf16",)),
    ("v_mfma_f32_4x4x4bf16_1k", "v_mfma_f32_4x4x4_16b_bf16", 4, 4, 4, 16, "bf16", "fp32", G90A_UP,
     ("v_mfma_f32_4x4x4bf16",)),
    ("v_mfma_f32_32x32x8bf16_1k", "v_mfma_f32_32x32x8_bf16", 32, 32, 8, 1, "bf16", "fp32", G90A_UP,
     ("v_mfma_f32_32x32x8bf16",)),
    ("v_mfma_f32_16x16x16bf16_1k", "v_mfma_f32_16x16x16_bf16", 16, 16, 16, 1, "bf16", "fp32", G90A_UP,
     ("v_mfma_f32_16x16x16bf16",)),
    # fp64 (DGEMM)
    ("v_mfma_f64_16x16x4f64", "v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, "fp64", "fp64", G90A_UP, ()),
    ("v_mfma_f64_4x4x4f64", "v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, 4, "fp64", "fp64", G90A_UP, ()),
    # gfx942 additions
    ("v_mfma_i32_32x32x16i8", "v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, "int8", "int32", G942_UP, ()),
    ("v_mfma_i32_16x16x32i8", "v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, "int8", "int32", G942_UP, ()),
    ("v_mfma_f32_16x16x8xf32", "v_mfma_f32_16x16x8_xf32", 16, 16, 8, 1, "xf32", "fp32", ("gfx942",), ()),
    ("v_mfma_f32_32x32x4xf32", "v_mfma_f32_32x32x4_xf32", 32, 32, 4, 1, "xf32", "fp32", ("gfx942",), ()),
    # gfx950 additions (double-K fp16/bf16/int8)
    ("v_mfma_f32_16x16x32f16", "v_mfma_f32_16x16x32_f16", 16, 16, 32, 1, "fp16", "fp32", ("gfx950",), ()),
    ("v_mfma_f32_32x32x16f16", "v_mfma_f32_32x32x16_f16", 32, 32, 16, 1, "fp16", "fp32", ("gfx950",), ()),
    ("v_mfma_f32_16x16x32bf16", "v_mfma_f32_16x16x32_bf16", 16, 16, 32, 1, "bf16", "fp32", ("gfx950",), ()),
    ("v_mfma_f32_32x32x16bf16", "v_mfma_f32_32x32x16_bf16", 32, 32, 16, 1, "bf16", "fp32", ("gfx950",), ()),
    ("v_mfma_i32_16x16x64i8", "v_mfma_i32_16x16x64_i8", 16, 16, 64, 1, "int8", "int32", ("gfx950",), ()),
    ("v_mfma_i32_32x32x32i8", "v_mfma_i32_32x32x32_i8", 32, 32, 32, 1, "int8", "int32", ("gfx950",), ()),
]

FP8_PAIRS = ("bf8_bf8", "bf8_fp8", "fp8_bf8", "fp8_fp8")

# fp8/bf8 dense (gfx942+): (M, N, K)
FP8_DENSE = [(16, 16, 32), (32, 32, 16)]
# sparse (gfx942+): (suffix, M, N, K, AB type, CD type); K is the dense K
SPARSE_942 = [
    ("f32_16x16x32_f16", 16, 16, 32, "fp16", "fp32"),
    ("f32_32x32x16_f16", 32, 32, 16, "fp16", "fp32"),
    ("f32_16x16x32_bf16", 16, 16, 32, "bf16", "fp32"),
    ("f32_32x32x16_bf16", 32, 32, 16, "bf16", "fp32"),
    ("i32_16x16x64_i8", 16, 16, 64, "int8", "int32"),
    ("i32_32x32x32_i8", 32, 32, 32, "int8", "int32"),
] + [(f"f32_16x16x64_{p}", 16, 16, 64, p, "fp32") for p in FP8_PAIRS] + [
    (f"f32_32x32x32_{p}", 32, 32, 32, p, "fp32") for p in FP8_PAIRS]
SPARSE_950 = [
    ("f32_16x16x64_f16", 16, 16, 64, "fp16", "fp32"),
    ("f32_32x32x32_f16", 32, 32, 32, "fp16", "fp32"),
    ("f32_16x16x64_bf16", 16, 16, 64, "bf16", "fp32"),
    ("f32_32x32x32_bf16", 32, 32, 32, "bf16", "fp32"),
    ("i32_16x16x128_i8", 16, 16, 128, "int8", "int32"),
    ("i32_32x32x64_i8", 32, 32, 64, "int8", "int32"),
] + [(f"f32_16x16x128_{p}", 16, 16, 128, p, "fp32") for p in FP8_PAIRS] + [
    (f"f32_32x32x64_{p}", 32, 32, 64, p, "fp32") for p in FP8_PAIRS]

# ---------------------------------------------------------------------------
# Passes (cycles = 4 * passes).


def passes_for(target: str, m: int, k: int, blocks: int, ab: str, cd: str, sparse: bool) -> int:
    """Pass count per LLVM's SISchedule.td scheduling classes for ``target``.

    gfx908/gfx90a: 4x4 -> 2, 16x16 -> 8, 32x32 -> 16; DGEMM 4x4x4 -> 4, 16x16x4 -> 8.
    gfx942/gfx950: the single-block higher-K shapes run at twice the rate
    (16x16 -> 4, 32x32 -> 8), the multi-block and K<=4 f32/f16/bf16/i8 shapes
    keep 8/16; SMFMAC 16x16 -> 4, 32x32 -> 8; DGEMM 16x16x4 is 16 passes on gfx950.
    """
    if cd == "fp64":
        if m == 4:
            return 4
        return 16 if target == "gfx950" else 8
    if m == 4:
        return 2
    if target in G908_90A:
        return 8 if m == 16 else 16
    if sparse:
        return 4 if m == 16 else 8
    # gfx942/gfx950 XDL: the "[14][FBI]" classes (K in 1,2,4 with f32/f16/bf16/i8
    # operands, plus all multi-block forms) keep the CDNA2 pass counts.
    slow = blocks > 1 or (k <= 4 and ab != "xf32")
    if m == 16:
        return 8 if slow else 4
    return 16 if slow else 8


def modifiers_for(target: str, cd: str, kind: str) -> list[str]:
    """Modifiers the assembler accepts (checked against llvm-mc 22)."""
    if kind == "sparse":
        return ["cbsz", "abid"]
    if kind == "f8f6f4":
        return ["cbsz", "blgp"]
    if kind == "scaled":
        return ["op_sel", "op_sel_hi", "cbsz", "blgp"]
    if cd == "fp64" and target in G942_UP:
        return ["cbsz", "abid", "neg"]
    return ["cbsz", "abid", "blgp"]


def _bits(t: str) -> int:
    # "fp8"/"bf8" are resolved per target later; both are 8 bits wide.
    return 8 if t in ("fp8", "bf8") else ELEMENT_TYPES[t][0]


def regs(m_or_n: int, k: int, blocks: int, t: str) -> int:
    elems = m_or_n * k * blocks // 64
    return max(1, (elems * _bits(t) + 31) // 32)


def cd_regs(m: int, n: int, blocks: int, t: str) -> int:
    return m * n * blocks // 64 * _bits(t) // 32


def _resolve(t: str, target: str) -> str:
    return FP8_FLAVOUR.get(target, {}).get(t, t)


def entry(key, m, n, k, blocks, a, b, cd, names: dict, kind: str, sparse: bool = False,
          extra: dict | None = None) -> dict:
    """One instruction identity with its per-target spellings and facts."""
    targets = {}
    for tgt, (name, aliases) in names.items():
        at, bt = _resolve(a, tgt), _resolve(b, tgt)
        e = {
            "name": name,
            "aliases": sorted(set(aliases) - {name}),
            "passes": passes_for(tgt, m, k, blocks, a, cd, sparse),
            "modifiers": modifiers_for(tgt, cd, kind),
        }
        if at != a or bt != b:
            e["a_type"], e["b_type"] = at, bt
        if kind in ("f8f6f4", "scaled"):
            big = {16: 8, 32: 16}[m]
            e["passes"], e["passes_no_f8"] = big, big // 2
        targets[tgt] = e
    kk = k // 2 if sparse else k
    rec = {
        "key": key, "m": m, "n": n, "k": k, "blocks": blocks,
        "a_type": a, "b_type": b, "cd_type": cd,
        "kind": "dgemm" if cd == "fp64" else "xdl",
        "sparse": sparse,
        "scaled": kind == "scaled",
        "format_select": kind in ("f8f6f4", "scaled"),
        "a_regs": 8 if kind in ("f8f6f4", "scaled") else regs(m, kk, blocks, a),
        "b_regs": 8 if kind in ("f8f6f4", "scaled") else regs(n, k, blocks, b),
        "cd_regs": cd_regs(m, n, blocks, cd),
        "targets": targets,
    }
    if sparse:
        per_lane = m * kk * blocks // 64
        rec["idx_bits"] = 2 * per_lane
        rec["idx_sets"] = 32 // (2 * per_lane)
    if extra:
        rec.update(extra)
    return rec


def build() -> dict:
    insts = []
    for old, new, m, n, k, blocks, ab, cd, tgts, extra_alias in DENSE:
        names = {}
        for t in tgts:
            if t in G908_90A:
                names[t] = (old, ())
            else:
                canon = new or old
                aliases = tuple(a for a in (old,) if a and a != canon) + tuple(extra_alias)
                names[t] = (canon, aliases)
        key = (new or old)[2:]
        insts.append(entry(key, m, n, k, blocks, ab, ab, cd, names, "dense"))
    for m, n, k in FP8_DENSE:
        for p in FP8_PAIRS:
            a, b = p.split("_")
            name = f"v_mfma_f32_{m}x{n}x{k}_{p}"
            insts.append(entry(name[2:], m, n, k, 1, a, b, "fp32",
                               {t: (name, ()) for t in G942_UP}, "dense"))
    for m, n, k in ((16, 16, 128), (32, 32, 64)):
        name = f"v_mfma_f32_{m}x{n}x{k}_f8f6f4"
        insts.append(entry(name[2:], m, n, k, 1, "f8f6f4", "f8f6f4", "fp32",
                           {"gfx950": (name, ())}, "f8f6f4"))
        sname = f"v_mfma_scale_f32_{m}x{n}x{k}_f8f6f4"
        insts.append(entry(sname[2:], m, n, k, 1, "f8f6f4", "f8f6f4", "fp32",
                           {"gfx950": (sname, ())}, "scaled",
                           extra={"scale_block": 32}))
    for table, tgts in ((SPARSE_942, G942_UP), (SPARSE_950, ("gfx950",))):
        for suffix, m, n, k, ab, cd in table:
            name = f"v_smfmac_{suffix}"
            # LLVM also accepts the spelling without the '_' before the type suffix
            head, _, tail = suffix.partition(f"x{k}_")
            alias = f"v_smfmac_{head}x{k}{tail.replace('_', '')}"
            if ab in FP8_PAIRS:
                a, b = ab.split("_")
            else:
                a = b = ab
            insts.append(entry(name[2:], m, n, k, 1, a, b, cd,
                               {t: (name, (alias,)) for t in tgts}, "sparse", sparse=True))
    return {
        "schema": 1,
        "description": "MFMA/SMFMAC instruction catalog for gcnemu (generated by tools/gen_mfma_catalog.py)",
        "sources": [
            "LLVM llvm/lib/Target/AMDGPU/VOP3PInstructions.td (spellings, operand widths, targets)",
            "LLVM llvm/lib/Target/AMDGPU/SISchedule.td (pass classes per target)",
            "AMD Matrix Instruction Calculator (ROCm/amd_matrix_instruction_calculator): layouts, cycles",
            "AMD 'Matrix Cores' article (CDNA2 table, worked layouts)",
            "AMD ROCm blog 'Matrix Core Programming on CDNA3 and CDNA4' (fp8/fp4 f8f6f4 layouts, scales)",
            "llvm-mc 22 (-mcpu=gfx908/gfx90a/gfx942/gfx950) as oracle for spellings",
        ],
        "targets": list(TARGETS),
        "element_types": {k: {"bits": v[0], "dtype": v[1], "description": v[2]}
                          for k, v in ELEMENT_TYPES.items()},
        "f8f6f4_formats": F8F6F4_FORMATS,
        "instructions": insts,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="verify the committed JSON is up to date")
    args = ap.parse_args(argv)
    text = json.dumps(build(), indent=1) + "\n"
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is out of date; run tools/gen_mfma_catalog.py", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    n = sum(len(i["targets"]) for i in build()["instructions"])
    print(f"wrote {OUT} ({len(build()['instructions'])} instructions, {n} instruction/target rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
