"""Specification of MFMA register layouts.

Three kinds of evidence pin the layouts down:
1. the worked examples of AMD's Matrix Cores article (shared/seeds/000_*),
   written out as explicit assertions;
2. the closed-form equations the AMD Matrix Instruction Calculator prints for
   gfx9 (``--detail-instruction``), transcribed here independently of the
   generic implementation in gcnemu.isa.mfma;
3. the gfx950 examples of AMD's CDNA3/CDNA4 Matrix Core blog (fp8 32x32x16,
   f8f6f4 FP8 and FP4) and the gfx950 32x32x16 f16 kernel of carlushuang/gcnasm.
Plus properties: every layout is a bijection and pack/unpack round-trips.
"""
from __future__ import annotations

import numpy as np
import pytest

from gcnemu.isa import mfma as M

ALL = [(t, i.name) for t in M.TARGETS for i in M.catalog(t)]


def info(name: str, target: str = "gfx90a") -> M.MfmaInfo:
    i = M.lookup(name, target)
    assert i is not None, (name, target)
    return i


# -- 1. worked examples of the article ---------------------------------------

def test_article_16x16x4f32_one_block():
    """lane = tx + 16*ty holds A[tx][ty] and B[ty][tx]; D reg i holds D[4ty+i][tx]."""
    mi = info("v_mfma_f32_16x16x4f32")
    for ty in range(4):
        for tx in range(16):
            lane = tx + 16 * ty
            assert M.locate(mi, "A", 0, tx, ty) == (0, lane, 0, 32)
            assert M.locate(mi, "B", 0, ty, tx) == (0, lane, 0, 32)
            for i in range(4):
                assert M.locate(mi, "D", 0, 4 * ty + i, tx) == (i, lane, 0, 32)


def test_article_16x16x1f32_four_blocks():
    """Same lanes, 'k' selects the block; D register 4b+i holds D_b[4ty+i][tx]."""
    mi = info("v_mfma_f32_16x16x1f32")
    assert (mi.blocks, mi.cd_regs) == (4, 16)
    for ty in range(4):
        for tx in range(16):
            lane = tx + 16 * ty
            b = ty
            assert M.locate(mi, "A", b, tx, 0) == (0, lane, 0, 32)
            assert M.locate(mi, "B", b, 0, tx) == (0, lane, 0, 32)
            for blk in range(4):
                for i in range(4):
                    assert M.locate(mi, "D", blk, 4 * ty + i, tx).reg == 4 * blk + i
                    assert M.locate(mi, "D", blk, 4 * ty + i, tx).lane == lane


def test_article_4x4x4f64_four_blocks():
    """One fp64 (two VGPRs) per lane for A, B, C/D; C/D laid out like B."""
    mi = info("v_mfma_f64_4x4x4f64")
    assert (mi.a_regs, mi.b_regs, mi.cd_regs) == (2, 2, 2)
    lanes_b = {M.locate(mi, "B", b, k, j).lane for b in range(4) for k in range(4) for j in range(4)}
    assert lanes_b == set(range(64))
    for b in range(4):
        for x in range(4):
            for j in range(4):
                # "output D and input C have the same layout as input B"
                assert M.locate(mi, "D", b, x, j) == M.locate(mi, "B", b, x, j)
                assert M.locate(mi, "D", b, x, j) == (0, 16 * x + 4 * b + j, 0, 64)
                assert M.locate(mi, "A", b, j, x) == (0, 16 * x + 4 * b + j, 0, 64)


# -- 2. the calculator's gfx9 equations, transcribed ----------------------------

def calc_input(mi: M.MfmaInfo, outer: int, block: int, o: int, k: int) -> tuple[int, int]:
    """Calculator: lane = M*block + (M*blocks)*floor(k/kpl) + i; element k % kpl."""
    kpl = outer * mi.k * mi.blocks // 64
    lane = outer * block + outer * mi.blocks * (k // kpl) + o
    return lane, k % kpl


def calc_output(mi: M.MfmaInfo, block: int, i: int, j: int) -> tuple[int, int]:
    """Calculator output equations for 32-bit and fp64 C/D (register, lane)."""
    m, n, b = mi.m, mi.n, mi.blocks
    if mi.cd_type == "fp64":
        if b == 1:
            return 2 * (i // 4), 16 * (i % 4) + j
        return 0, 16 * (i % 4) + n * block + j
    if m == 4:
        return i, 4 * block + j
    if m == 16:
        return 4 * block + i % 4, 16 * (i // 4) + j
    return 16 * block + 4 * (i // 8) + i % 4, (32 * (i // 4)) % 64 + j


CDNA12 = [(t, i.name) for t in ("gfx908", "gfx90a") for i in M.catalog(t)]


@pytest.mark.parametrize("target,name", CDNA12)
def test_calculator_equations_cdna1_cdna2(target, name):
    """The calculator covers CDNA1/CDNA2; gfx942+ reuse the same gfx9 rules."""
    mi = info(name, target)
    width = M.element_type(mi.a_type).bits
    for op, outer in (("A", mi.m), ("B", mi.n)):
        em = M.element_map(mi, op)
        for e in em:
            b, r, c = int(e["block"]), int(e["row"]), int(e["col"])
            o, k = (r, c) if op == "A" else (c, r)
            lane, item = calc_input(mi, outer, b, o, k)
            assert int(e["lane"]) == lane
            assert int(e["reg"]) * 32 + int(e["bit"]) == item * width
    for e in M.element_map(mi, "D"):
        reg, lane = calc_output(mi, int(e["block"]), int(e["row"]), int(e["col"]))
        assert (int(e["reg"]), int(e["lane"])) == (reg, lane)


def test_calculator_register_equations_for_packed_types():
    """Calculator register equations: 32x32x8f16 A is
    '(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]'; 32x32x8i8 B (one VGPR) is
    '0.[8*(k % 4)+7 : 8*(k % 4)]'."""
    mi = info("v_mfma_f32_32x32x8f16")
    for k in range(8):
        loc = M.locate(mi, "A", 0, 5, k)
        assert (loc.reg, loc.bit, loc.lane) == ((k // 2) % 2, 16 * (k % 2), 5 + 32 * (k // 4))
    i8 = info("v_mfma_i32_32x32x8i8")
    for k in range(8):
        loc = M.locate(i8, "B", 0, k, 7)
        assert (loc.reg, loc.bit, loc.lane) == (0, 8 * (k % 4), 7 + 32 * (k // 4))


# -- 3. gfx942/gfx950 examples -------------------------------------------------

def test_blog_fp8_32x32x16():
    """a_reg[i] = A[lane%32][8*(lane/32) + i]; b_reg[i] = B[8*(lane/32)+i][lane%32]."""
    for t in ("gfx942", "gfx950"):
        mi = info("v_mfma_f32_32x32x16_fp8_fp8", t)
        for lane in (0, 5, 31, 32, 63):
            for it in range(8):
                k = 8 * (lane // 32) + it
                assert M.locate(mi, "A", 0, lane % 32, k) == (it // 4, lane, 8 * (it % 4), 8)
                assert M.locate(mi, "B", 0, k, lane % 32) == (it // 4, lane, 8 * (it % 4), 8)


def test_gcnasm_gfx950_32x32x16_f16():
    """offset_a = (lane/32)*8 + (lane%32)*stride: eight contiguous K per lane."""
    mi = info("v_mfma_f32_32x32x16_f16", "gfx950")
    assert mi.a_regs == 4
    for lane in range(64):
        for it in range(8):
            loc = M.locate(mi, "A", 0, lane % 32, 8 * (lane // 32) + it)
            assert (loc.lane, loc.reg, loc.bit) == (lane, it // 2, 16 * (it % 2))


def test_blog_f8f6f4_fp8_split_layout():
    """32x32x64 FP8: a_reg[h*16+j] = A[lane%32][16*(lane/32) + 32*h + j]."""
    mi = info("v_mfma_f32_32x32x64_f8f6f4", "gfx950").with_formats(0, 0)
    for lane in (0, 17, 32, 63):
        for h in range(2):
            for j in range(16):
                item = h * 16 + j
                k = 16 * (lane // 32) + 32 * h + j
                assert M.locate(mi, "A", 0, lane % 32, k) == (item // 4, lane, 8 * (item % 4), 8)
                assert M.locate(mi, "B", 0, k, lane % 32) == (item // 4, lane, 8 * (item % 4), 8)


def test_blog_f8f6f4_fp4_contiguous_layout():
    """32x32x64 FP4: 32 contiguous K per lane group in 4 VGPRs, low nibble first."""
    mi = info("v_mfma_f32_32x32x64_f8f6f4", "gfx950").with_formats(4, 4)
    assert (mi.a_regs, mi.b_regs) == (4, 4)
    for lane in (0, 9, 40):
        for it in range(32):
            k = 32 * (lane // 32) + it
            assert M.locate(mi, "A", 0, lane % 32, k) == (it // 8, lane, 4 * (it % 8), 4)
            assert M.locate(mi, "B", 0, k, lane % 32) == (it // 8, lane, 4 * (it % 8), 4)


def test_fp6_elements_pack_contiguously_across_registers():
    mi = info("v_mfma_f32_16x16x128_f8f6f4", "gfx950").with_formats(2, 3)
    assert (mi.a_regs, mi.b_regs) == (6, 6)
    loc = M.locate(mi, "A", 0, 0, 5)  # 6th element: bits 30..35 straddle v0/v1
    assert (loc.reg, loc.bit, loc.width) == (0, 30, 6)
    assert M.element_at(mi, "A", 1, 0, 2) == (0, 0, 5)


def test_scale_lanes_match_blog():
    """16x16x128: scale of row i, K block kb in lane i + 16*kb; 32x32x64: i + 32*kb."""
    s16 = M.scale_lanes(info("v_mfma_scale_f32_16x16x128_f8f6f4", "gfx950"), "A")
    assert s16.shape == (16, 4) and s16[3, 2] == 35
    s32 = M.scale_lanes(info("v_mfma_scale_f32_32x32x64_f8f6f4", "gfx950"), "B")
    assert s32.shape == (32, 2) and s32[5, 1] == 37


# -- modifiers -------------------------------------------------------------------

def test_blgp_patterns_as_the_article_states():
    src = {b: M.blgp_source_lanes(b) for b in range(8)}
    lanes = np.arange(64)
    assert (src[0] == lanes).all()
    assert (src[1][32:] == lanes[:32]).all() and (src[1][:32] == lanes[:32]).all()
    assert (src[2][:32] == lanes[32:]).all() and (src[2][32:] == lanes[32:]).all()
    assert src[3][48] == 0 and src[3][0] == 16  # lane 0's data -> lane 48, lane 16's -> lane 0
    for b in range(4, 8):
        g = b - 4
        assert (src[b] == 16 * g + lanes % 16).all()


def test_cbsz_abid_broadcast_as_the_article_states():
    src = M.cbsz_source_blocks(16, 2, 1)
    assert list(src[:8]) == [1, 1, 1, 1, 5, 5, 5, 5] and list(src[8:12]) == [9] * 4
    assert list(M.cbsz_source_blocks(16, 1, 0)[:4]) == [0, 0, 2, 2]
    # a group wider than the instruction is the whole instruction, fed by block abid
    assert list(M.cbsz_source_blocks(4, 3, 0)) == [0, 0, 0, 0]
    with pytest.raises(ValueError):
        M.cbsz_source_blocks(4, 3, 5)
    with pytest.raises(ValueError):
        M.cbsz_source_blocks(16, 1, 2)


def test_locate_with_modifiers_reports_the_source():
    mi = info("v_mfma_f32_4x4x1f32")
    # cbsz=2 abid=1: block 2 reads block 1's storage (lanes 4..7)
    assert M.locate(mi, "A", 2, 3, 0, cbsz=2, abid=1).lane == 4 + 3
    # blgp=3: B element normally in lane 0 is read from lane 16
    assert M.locate(mi, "B", 0, 0, 0, blgp=3).lane == 16


# -- properties for every instruction ----------------------------------------------

def _variants(mi: M.MfmaInfo):
    if mi.format_select:
        return [mi.with_formats(a, b) for a in range(5) for b in range(5)]
    return [mi]


@pytest.mark.parametrize("target,name", ALL)
def test_layout_is_a_bijection_and_roundtrips(target, name):
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    for mi in _variants(info(name, target)):
        for op in M.OPERANDS:
            em = M.element_map(mi, op)
            width = M.element_type(mi.operand_type(op)).bits
            nregs = mi.operand_regs(op)
            # every element has distinct storage and all storage is used
            start = em["lane"].astype(np.int64) * nregs * 32 + em["reg"] * 32 + em["bit"]
            assert len(np.unique(start)) == len(em)
            assert em.size * width == nregs * 32 * 64
            assert (em["reg"] * 32 + em["bit"] + width <= nregs * 32).all()
            # random bit patterns survive pack -> unpack -> pack
            raw = rng.integers(0, 2**32, size=(nregs, 64), dtype=np.uint64).astype(np.uint32)
            again = M.pack(mi, op, M.unpack(mi, op, raw))
            assert (again == raw).all()


def test_element_at_inverts_locate():
    for name in ("v_mfma_f32_32x32x2f32", "v_mfma_i32_4x4x4i8", "v_mfma_f64_16x16x4f64"):
        mi = info(name)
        for op in M.OPERANDS:
            for e in M.element_map(mi, op)[::7]:
                got = M.element_at(mi, op, int(e["reg"]), int(e["lane"]), int(e["bit"]))
                assert got == (int(e["block"]), int(e["row"]), int(e["col"]))


def test_pack_rejects_wrong_shapes():
    mi = info("v_mfma_f32_16x16x4f32")
    with pytest.raises(ValueError):
        M.pack(mi, "A", np.zeros((16, 5)))
    with pytest.raises(ValueError):
        M.unpack(mi, "D", np.zeros((3, 64), dtype=np.uint32))


def test_pack_converts_to_the_element_type():
    mi = info("v_mfma_f32_32x32x8f16")
    regs = M.pack(mi, "A", np.full((32, 8), 1.0))
    assert regs[0, 0] == 0x3C003C00  # two fp16 1.0 in one VGPR
    bf = info("v_mfma_f32_32x32x8bf16_1k")
    assert M.pack(bf, "A", np.full((32, 8), -2.0))[1, 40] == 0xC000C000
    i8 = info("v_mfma_i32_16x16x16i8")
    assert M.pack(i8, "A", np.full((16, 16), -1))[0, 3] == 0xFFFFFFFF


# -- sparse index ------------------------------------------------------------------

@pytest.mark.parametrize("target,name", [(t, n) for t, n in ALL if n.startswith("v_smfmac")])
def test_sparse_index_roundtrip(target, name):
    mi = info(name, target)
    rng = np.random.default_rng(7)
    pos = np.sort(np.stack([rng.choice(4, 2, replace=False)
                            for _ in range(mi.m * mi.a_k // 2)]), axis=1).reshape(1, mi.m, mi.a_k)
    reg = np.zeros(64, dtype=np.uint32)
    for s in range(mi.idx_sets):
        reg = M.pack_sparse_index(mi, (pos + s) % 4, index_set=s, into=reg)
    for s in range(mi.idx_sets):
        assert (M.unpack_sparse_index(mi, reg, index_set=s) == (pos + s) % 4).all()
    if mi.idx_sets == 1:
        assert mi.idx_bits == 32


def test_sparse_index_bits_for_16x16x32_f16():
    """Lane 0 stores A[0][0..3] (K' 0..3 = dense K 0..7): idx bits [7:0] of set 0."""
    mi = info("v_smfmac_f32_16x16x32_f16", "gfx942")
    pos = np.zeros((1, 16, 16), dtype=np.int64)
    pos[0, 0, :4] = [1, 3, 0, 2]
    reg = M.pack_sparse_index(mi, pos, index_set=2)
    assert reg[0] == (1 | 3 << 2 | 0 << 4 | 2 << 6) << 16


def test_sparse_compress_expand():
    mi = info("v_smfmac_f32_16x16x32_f16", "gfx942")
    rng = np.random.default_rng(3)
    dense = rng.standard_normal((1, 16, 32))
    g = dense.reshape(1, 16, 8, 4)
    for idx in np.ndindex(g.shape[:3]):
        g[idx][rng.choice(4, 2 + int(rng.integers(0, 2)), replace=False)] = 0
    vals, pos = M.sparse_compress(mi, dense)
    assert (np.diff(pos.reshape(-1, 2), axis=1) > 0).all()  # ascending, distinct
    assert np.array_equal(M.sparse_expand(mi, vals, pos), dense)
    with pytest.raises(ValueError):
        M.sparse_compress(mi, np.ones((16, 32)))
