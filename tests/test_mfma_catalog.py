"""Specification of the MFMA catalog: which instructions exist where, and their facts.

The CDNA2 table of shared/isa/mfma.md (from AMD's Matrix Cores article) is the
anchor: every row must be found on gfx90a with the same shape, block count,
cycles and FLOPs/cycle/CU.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gcnemu.isa import mfma as M

ROOT = Path(__file__).resolve().parents[1]

# (A/B type, C/D type, M, N, K, blocks, cycles, FLOPs/cycle/CU) -- shared/isa/mfma.md
CDNA2_TABLE = [
    ("fp32", "fp32", 32, 32, 2, 1, 64, 256),
    ("fp32", "fp32", 32, 32, 1, 2, 64, 256),
    ("fp32", "fp32", 16, 16, 4, 1, 32, 256),
    ("fp32", "fp32", 16, 16, 1, 4, 32, 256),
    ("fp32", "fp32", 4, 4, 1, 16, 8, 256),
    ("fp16", "fp32", 32, 32, 8, 1, 64, 1024),
    ("fp16", "fp32", 32, 32, 4, 2, 64, 1024),
    ("fp16", "fp32", 16, 16, 16, 1, 32, 1024),
    ("fp16", "fp32", 16, 16, 4, 4, 32, 1024),
    ("fp16", "fp32", 4, 4, 4, 16, 8, 1024),
    ("int8", "int32", 32, 32, 8, 1, 64, 1024),
    ("int8", "int32", 32, 32, 4, 2, 64, 1024),
    ("int8", "int32", 16, 16, 16, 1, 32, 1024),
    ("int8", "int32", 16, 16, 4, 4, 32, 1024),
    ("int8", "int32", 4, 4, 4, 16, 8, 1024),
    # bf16 _1k
    ("bf16_1k", "fp32", 32, 32, 8, 1, 64, 1024),
    ("bf16_1k", "fp32", 32, 32, 4, 2, 64, 1024),
    ("bf16_1k", "fp32", 16, 16, 16, 1, 32, 1024),
    ("bf16_1k", "fp32", 16, 16, 4, 4, 32, 1024),
    ("bf16_1k", "fp32", 4, 4, 4, 16, 8, 1024),
    # bf16 original
    ("bf16", "fp32", 32, 32, 4, 1, 64, 512),
    ("bf16", "fp32", 32, 32, 2, 2, 64, 512),
    ("bf16", "fp32", 16, 16, 8, 1, 32, 512),
    ("bf16", "fp32", 16, 16, 2, 4, 32, 512),
    ("bf16", "fp32", 4, 4, 2, 16, 8, 512),
    ("fp64", "fp64", 16, 16, 4, 1, 32, 256),
    ("fp64", "fp64", 4, 4, 4, 4, 16, 128),
]


def _find(target: str, ab: str, cd: str, m: int, n: int, k: int, blocks: int) -> list[M.MfmaInfo]:
    want_1k = ab == "bf16_1k"
    ab = "bf16" if want_1k else ab
    return [i for i in M.catalog(target)
            if (i.a_type, i.cd_type, i.m, i.n, i.k, i.blocks) == (ab, cd, m, n, k, blocks)
            and not i.sparse and (ab != "bf16" or i.name.endswith("_1k") == want_1k)]


@pytest.mark.parametrize("row", CDNA2_TABLE, ids=lambda r: f"{r[0]}-{r[2]}x{r[3]}x{r[4]}-{r[5]}b")
def test_cdna2_table_anchor(row):
    ab, cd, m, n, k, blocks, cycles, flops = row
    found = _find("gfx90a", ab, cd, m, n, k, blocks)
    assert len(found) == 1, f"expected exactly one gfx90a instruction for {row}, got {found}"
    info = found[0]
    assert info.cycles == cycles
    assert info.flops_per_cycle_cu == flops


def test_gfx908_has_the_cdna2_rows_except_fp64_and_1k():
    for ab, cd, m, n, k, blocks, cycles, flops in CDNA2_TABLE:
        found = _find("gfx908", ab, cd, m, n, k, blocks)
        if ab in ("fp64", "bf16_1k"):
            assert not found
        else:
            assert [i.cycles for i in found] == [cycles]


def test_catalog_counts_per_target():
    counts = {t: len(M.catalog(t)) for t in M.TARGETS}
    # 20 CDNA1 instructions; CDNA2 adds 5 bf16_1k + 2 fp64; gfx942 drops 7
    # (orig. bf16, i8 K=8/16) and adds 2 i8, 2 xf32, 8 fp8, 14 smfmac;
    # gfx950 drops the 2 xf32 and adds 6 dense, 4 f8f6f4 and 14 smfmac.
    assert counts == {"gfx908": 20, "gfx90a": 27, "gfx942": 46, "gfx950": 68}


def test_lookup_is_case_insensitive_and_accepts_aliases():
    a = M.lookup("V_MFMA_F32_32X32X1F32", "gfx942")
    b = M.lookup("v_mfma_f32_32x32x1_2b_f32", "gfx942")
    assert a is b and a.name == "v_mfma_f32_32x32x1_2b_f32"
    assert M.lookup("v_mfma_f32_32x32x1_2b_f32", "gfx90a") is None  # gfx940 spelling only
    assert M.lookup("v_mfma_f32_32x32x1f32", "gfx90a").name == "v_mfma_f32_32x32x1f32"
    assert M.lookup("v_smfmac_f32_16x16x32f16", "gfx950").name == "v_smfmac_f32_16x16x32_f16"
    assert M.lookup("v_mfma_f32_16x16x16bf16_1k", "gfx942").name == "v_mfma_f32_16x16x16_bf16"
    assert M.lookup("v_mfma_f32_16x16x16_bf16", "gfx942") is M.lookup("v_mfma_f32_16x16x16bf16", "gfx942")
    assert M.lookup("v_add_f32", "gfx942") is None


def test_one_spelling_can_name_different_instructions_per_target():
    # original bf16 (1 block, K=4) on CDNA1/2; the 2-block _1k form on gfx942+
    old = M.lookup("v_mfma_f32_32x32x4bf16", "gfx90a")
    new = M.lookup("v_mfma_f32_32x32x4bf16", "gfx942")
    assert (old.blocks, old.k, old.a_regs, old.cd_regs) == (1, 4, 1, 16)
    assert (new.blocks, new.k, new.a_regs, new.cd_regs) == (2, 4, 2, 32)
    assert new.name == "v_mfma_f32_32x32x4_2b_bf16"


def test_target_names_are_normalised():
    assert M.lookup("v_mfma_f32_4x4x1f32", "gfx940").target == "gfx942"
    assert M.lookup("v_mfma_f32_4x4x1f32", "gfx90a:xnack+").target == "gfx90a"
    with pytest.raises(ValueError):
        M.lookup("v_mfma_f32_4x4x1f32", "gfx1100")


@pytest.mark.parametrize("target", M.TARGETS)
def test_register_counts_follow_from_shape_and_type(target):
    for i in M.catalog(target):
        if i.format_select:
            continue
        a_bits = M.element_type(i.a_type).bits
        b_bits = M.element_type(i.b_type).bits
        cd_bits = M.element_type(i.cd_type).bits
        assert i.a_regs == max(1, i.m * i.a_k * i.blocks * a_bits // 64 // 32), i.name
        assert i.b_regs == max(1, i.n * i.k * i.blocks * b_bits // 64 // 32), i.name
        assert i.cd_regs == i.m * i.n * i.blocks * cd_bits // 64 // 32, i.name
        assert i.cycles == 4 * i.passes


def test_brief_examples_of_register_counts():
    assert M.lookup("v_mfma_f32_32x32x8f16", "gfx90a").a_regs == 2  # four fp16 in v[0:1]
    assert M.lookup("v_mfma_f32_32x32x8f16", "gfx90a").cd_regs == 16
    assert M.lookup("v_mfma_f32_16x16x16f16", "gfx90a").cd_regs == 4
    assert M.lookup("v_mfma_f32_32x32x1f32", "gfx90a").cd_regs == 32
    f64 = M.lookup("v_mfma_f64_4x4x4f64", "gfx90a")
    assert (f64.a_regs, f64.b_regs, f64.cd_regs) == (2, 2, 2)


def test_gfx942_and_gfx950_pass_counts():
    def cyc(name, t):
        return M.lookup(name, t).cycles
    assert cyc("v_mfma_f32_32x32x8_f16", "gfx942") == 32      # double rate vs CDNA2
    assert cyc("v_mfma_f32_16x16x16_f16", "gfx942") == 16
    assert cyc("v_mfma_f32_32x32x2_f32", "gfx942") == 64      # fp32 unchanged
    assert cyc("v_mfma_f32_16x16x4_4b_f16", "gfx942") == 32   # multi-block keeps CDNA2 rate
    assert cyc("v_mfma_f32_16x16x32_fp8_fp8", "gfx942") == 16
    assert cyc("v_mfma_f64_16x16x4_f64", "gfx942") == 32
    assert cyc("v_mfma_f64_16x16x4_f64", "gfx950") == 64      # DGEMM 16 passes on gfx950
    assert cyc("v_mfma_f32_16x16x32_f16", "gfx950") == 16
    assert cyc("v_mfma_f32_32x32x16_bf16", "gfx950") == 32
    assert cyc("v_smfmac_f32_32x32x16_f16", "gfx942") == 32
    f8 = M.lookup("v_mfma_f32_16x16x128_f8f6f4", "gfx950")
    assert f8.cycles == 32 and f8.with_formats(4, 4).cycles == 16 and f8.with_formats(0, 4).cycles == 32
    assert M.lookup("v_mfma_f32_32x32x64_f8f6f4", "gfx950").with_formats(2, 3).cycles == 32
    # MI355X: fp4 10 PF at 256 CUs x 2.4 GHz ~ 16384 FLOPs/cycle/CU
    assert f8.with_formats(4, 4).flops_per_cycle_cu == 16384


def test_fp8_flavour_per_target():
    g942 = M.lookup("v_mfma_f32_16x16x32_fp8_bf8", "gfx942")
    g950 = M.lookup("v_mfma_f32_16x16x32_fp8_bf8", "gfx950")
    assert (g942.a_type, g942.b_type) == ("fp8_e4m3fnuz", "bf8_e5m2fnuz")
    assert (g950.a_type, g950.b_type) == ("fp8_e4m3fn", "bf8_e5m2")


def test_modifiers_and_kinds():
    f64 = M.lookup("v_mfma_f64_16x16x4f64", "gfx942")
    assert f64.is_dgemm and set(f64.modifiers) == {"cbsz", "abid", "neg"}
    assert "blgp" in M.lookup("v_mfma_f64_16x16x4f64", "gfx90a").modifiers
    sp = M.lookup("v_smfmac_i32_16x16x64_i8", "gfx942")
    assert sp.sparse and set(sp.modifiers) == {"cbsz", "abid"}
    assert (sp.a_regs, sp.b_regs, sp.idx_bits, sp.idx_sets) == (2, 4, 16, 2)
    assert M.lookup("v_smfmac_f32_16x16x64_f16", "gfx950").idx_sets == 2
    assert M.lookup("v_smfmac_i32_16x16x128_i8", "gfx950").idx_sets == 1
    sc = M.lookup("v_mfma_scale_f32_32x32x64_f8f6f4", "gfx950")
    assert sc.scaled and "op_sel" in sc.modifiers and "abid" not in sc.modifiers
    assert M.lookup("v_mfma_f32_16x16x8_xf32", "gfx950") is None


def test_suggestions_for_typos():
    assert "v_mfma_f32_16x16x16_f16" in M.suggest("v_mfma_f32_16x16x16_f61")


def test_generated_catalog_is_up_to_date():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_mfma_catalog.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
