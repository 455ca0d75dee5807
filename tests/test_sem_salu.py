"""Scalar ALU semantics against Python integer references (results and SCC).

Each test runs one snippet that applies an instruction to a batch of operand
pairs (edge values first, then random ones) and captures SCC after every
instruction with s_cselect, so carries, borrows and overflow flags are checked
pair by pair.
"""
from __future__ import annotations

import numpy as np
import pytest

from semhelpers import RNG, run

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF
EDGES32 = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 31, 32, 0x10000]


def s32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def s64(x: int) -> int:
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def pairs32(n: int = 12) -> list[tuple[int, int]]:
    out = [(a, b) for a in (0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF) for b in (0, 1, 0x7FFFFFFF, 0x80000000,
                                                                                0xFFFFFFFF)]
    out += [(int(a), int(b)) for a, b in RNG.integers(0, 2**32, (n, 2), dtype=np.uint64)]
    return out


def run_binary(op: str, pairs: list[tuple[int, int]], width: int = 1, scc_in: int | None = None,
               target: str = "gfx90a"):
    """op D, A, B for every pair; returns [(D, SCC)]. Registers: A at s[0..], B at s[32..], D at s[64..]."""
    results = []
    chunk = 8 if width == 1 else 4
    for start in range(0, len(pairs), chunk):
        part = pairs[start:start + chunk]
        lines, sregs = [], {}
        for k, (a, b) in enumerate(part):
            ra, rb, rd, rc = (4 * k, 32 + 4 * k, 64 + 4 * k, 101 - k)
            A = f"s{ra}" if width == 1 else f"s[{ra}:{ra + 1}]"
            B = f"s{rb}" if width == 1 else f"s[{rb}:{rb + 1}]"
            D = f"s{rd}" if width == 1 else f"s[{rd}:{rd + 1}]"
            sregs[A] = a
            sregs[B] = b
            if scc_in is not None:
                lines.append(f"s_cmp_eq_u32 {1 if scc_in else 0}, 1")
            lines.append(f"{op} {D}, {A}, {B}")
            lines.append(f"s_cselect_b32 s{rc}, 1, 0")
        r = run("\n".join(lines), s=sregs, target=target)
        for k in range(len(part)):
            d = r.s(64 + 4 * k) if width == 1 else r.s64(64 + 4 * k)
            results.append((d, r.s(101 - k)))
    return results


def _add_i32_ref(a, b):
    r = s32(a) + s32(b)
    return r & M32, int(not -(2**31) <= r < 2**31)


def _sub_i32_ref(a, b):
    r = s32(a) - s32(b)
    return r & M32, int(not -(2**31) <= r < 2**31)


BINARY32 = {
    "s_add_u32": lambda a, b: ((a + b) & M32, int(a + b > M32)),
    "s_sub_u32": lambda a, b: ((a - b) & M32, int(a < b)),
    "s_add_i32": _add_i32_ref,
    "s_sub_i32": _sub_i32_ref,
    "s_min_i32": lambda a, b: (a if s32(a) < s32(b) else b, int(s32(a) < s32(b))),
    "s_max_i32": lambda a, b: (a if s32(a) > s32(b) else b, int(s32(a) > s32(b))),
    "s_min_u32": lambda a, b: (min(a, b), int(a < b)),
    "s_max_u32": lambda a, b: (max(a, b), int(a > b)),
    "s_and_b32": lambda a, b: (a & b, int(a & b != 0)),
    "s_or_b32": lambda a, b: (a | b, int(a | b != 0)),
    "s_xor_b32": lambda a, b: (a ^ b, int(a ^ b != 0)),
    "s_andn2_b32": lambda a, b: (a & (M32 ^ b), int(a & (M32 ^ b) != 0)),
    "s_orn2_b32": lambda a, b: ((a | (M32 ^ b)) & M32, int((a | (M32 ^ b)) != 0)),
    "s_nand_b32": lambda a, b: (M32 ^ (a & b), int(M32 ^ (a & b) != 0)),
    "s_nor_b32": lambda a, b: (M32 ^ (a | b), int(M32 ^ (a | b) != 0)),
    "s_xnor_b32": lambda a, b: (M32 ^ (a ^ b), int(M32 ^ (a ^ b) != 0)),
    "s_lshl_b32": lambda a, b: ((a << (b % 32)) & M32, int((a << (b % 32)) & M32 != 0)),
    "s_lshr_b32": lambda a, b: (a >> (b % 32), int(a >> (b % 32) != 0)),
    "s_ashr_i32": lambda a, b: ((s32(a) >> (b % 32)) & M32, int(s32(a) >> (b % 32) != 0)),
    "s_absdiff_i32": lambda a, b: (abs(s32(a - b)) & M32, int(abs(s32(a - b)) & M32 != 0)),
    "s_lshl1_add_u32": lambda a, b: (((a << 1) + b) & M32, int((a << 1) + b > M32)),
    "s_lshl2_add_u32": lambda a, b: (((a << 2) + b) & M32, int((a << 2) + b > M32)),
    "s_lshl3_add_u32": lambda a, b: (((a << 3) + b) & M32, int((a << 3) + b > M32)),
    "s_lshl4_add_u32": lambda a, b: (((a << 4) + b) & M32, int((a << 4) + b > M32)),
}
# instructions that leave SCC alone: the reference gives None and the test checks SCC kept its old value
NO_SCC32 = {
    "s_mul_i32": lambda a, b: (s32(a) * s32(b)) & M32,
    "s_mul_hi_u32": lambda a, b: (a * b) >> 32,
    "s_mul_hi_i32": lambda a, b: ((s32(a) * s32(b)) >> 32) & M32,
    "s_bfm_b32": lambda a, b: ((((1 << (a % 32)) - 1) << (b % 32)) & M32),
    "s_pack_ll_b32_b16": lambda a, b: (a & 0xFFFF) | ((b & 0xFFFF) << 16),
    "s_pack_lh_b32_b16": lambda a, b: (a & 0xFFFF) | (b & 0xFFFF0000),
    "s_pack_hh_b32_b16": lambda a, b: (a >> 16) | (b & 0xFFFF0000),
}


@pytest.mark.parametrize("op", sorted(BINARY32))
def test_sop2_32(op):
    pairs = pairs32()
    got = run_binary(op, pairs)
    for (a, b), (d, scc) in zip(pairs, got):
        want_d, want_scc = BINARY32[op](a, b)
        assert (d, scc) == (want_d, want_scc), f"{op} 0x{a:x}, 0x{b:x}"


@pytest.mark.parametrize("op", sorted(NO_SCC32))
@pytest.mark.parametrize("scc_before", [0, 1])
def test_sop2_32_without_scc(op, scc_before):
    pairs = pairs32(6)
    got = run_binary(op, pairs, scc_in=scc_before)
    for (a, b), (d, scc) in zip(pairs, got):
        assert d == NO_SCC32[op](a, b), f"{op} 0x{a:x}, 0x{b:x}"
        assert scc == scc_before


@pytest.mark.parametrize("op,scc_in", [(o, c) for o in ("s_addc_u32", "s_subb_u32") for c in (0, 1)])
def test_carry_in(op, scc_in):
    pairs = pairs32()
    got = run_binary(op, pairs, scc_in=scc_in)
    for (a, b), (d, scc) in zip(pairs, got):
        if op == "s_addc_u32":
            total = a + b + scc_in
            want = (total & M32, int(total > M32))
        else:
            want = ((a - b - scc_in) & M32, int(a < b + scc_in))
        assert (d, scc) == want, f"{op} 0x{a:x}, 0x{b:x}, scc={scc_in}"


def test_64_bit_add_chain():
    """s_add_u32 + s_addc_u32 implement a 64-bit add (the carry crosses through SCC)."""
    for a, b in [(0xFFFFFFFF, 1), (0x1_FFFF_FFFF, 0xFFFF_FFFF), (2**64 - 1, 1), (0x1234_5678_9ABC_DEF0, 0x0FED_CBA9)]:
        r = run("s_add_u32 s4, s0, s2\ns_addc_u32 s5, s1, s3", s={"s[0:1]": a, "s[2:3]": b})
        assert r.s64(4) == (a + b) & M64
        assert r.scc == int(a + b > M64)


BINARY64 = {
    "s_and_b64": lambda a, b: a & b, "s_or_b64": lambda a, b: a | b, "s_xor_b64": lambda a, b: a ^ b,
    "s_andn2_b64": lambda a, b: a & (M64 ^ b), "s_orn2_b64": lambda a, b: (a | (M64 ^ b)) & M64,
    "s_nand_b64": lambda a, b: M64 ^ (a & b), "s_nor_b64": lambda a, b: M64 ^ (a | b),
    "s_xnor_b64": lambda a, b: M64 ^ (a ^ b),
}


@pytest.mark.parametrize("op", sorted(BINARY64))
def test_sop2_logic_64(op):
    pairs = [(0, 0), (M64, M64), (0x8000000000000000, 0x1), (0xFFFFFFFF, 0xFFFFFFFF00000000)]
    pairs += [(int(a) | (int(b) << 32), int(c) | (int(d) << 32)) for a, b, c, d in RNG.integers(0, 2**32, (4, 4),
                                                                                                 dtype=np.uint64)]
    got = run_binary(op, pairs, width=2)
    for (a, b), (d, scc) in zip(pairs, got):
        want = BINARY64[op](a, b)
        assert (d, scc) == (want, int(want != 0)), f"{op} 0x{a:x}, 0x{b:x}"


@pytest.mark.parametrize("op,fn", [
    ("s_lshl_b64", lambda a, n: (a << (n % 64)) & M64),
    ("s_lshr_b64", lambda a, n: a >> (n % 64)),
    ("s_ashr_i64", lambda a, n: (s64(a) >> (n % 64)) & M64),
])
def test_shift_64(op, fn):
    cases = [(0x8000000000000001, 0), (0x8000000000000001, 1), (0x8000000000000001, 63), (0x8000000000000001, 64),
             (0x123456789ABCDEF0, 36), (1, 65), (M64, 31)]
    for a, n in cases:
        r = run(f"{op} s[4:5], s[0:1], s2", s={"s[0:1]": a, "s2": n})
        want = fn(a, n)
        assert r.s64(4) == want, f"{op} 0x{a:x} by {n}"
        assert r.scc == int(want != 0)


def bfe_ref(x: int, offset: int, width: int, bits: int, signed: bool) -> int:
    """Extract `width` bits at `offset`, bits above the value are copies of the sign for signed."""
    if width == 0:
        return 0
    v = x - (1 << bits) if signed and x >> (bits - 1) else x
    field = (v >> offset) & ((1 << min(width, bits)) - 1)
    if signed and width < bits and field >> (width - 1):
        field -= 1 << width
    return field & ((1 << bits) - 1)


@pytest.mark.parametrize("op,bits,signed", [("s_bfe_u32", 32, False), ("s_bfe_i32", 32, True),
                                             ("s_bfe_u64", 64, False), ("s_bfe_i64", 64, True)])
def test_bfe(op, bits, signed):
    values = [0xF0F0_8765_4321_ABCD if bits == 64 else 0x8765_4321, 0xFFFF_FFFF_FFFF_FFFF >> (64 - bits), 0x7F]
    fields = [(0, 8), (4, 4), (28, 4), (30, 4), (bits - 1, 1), (0, 0), (8, 40), (3, 127)]
    for x in values:
        for offset, width in fields:
            s1 = offset | (width << 16)
            dst = "s[4:5]" if bits == 64 else "s4"
            src = "s[0:1]" if bits == 64 else "s0"
            r = run(f"{op} {dst}, {src}, s2", s={src: x, "s2": s1})
            got = r.s64(4) if bits == 64 else r.s(4)
            want = bfe_ref(x, offset % bits, width, bits, signed)
            assert got == want, f"{op} 0x{x:x} offset {offset} width {width}"
            assert r.scc == int(want != 0)


def test_bfe_i32_known_values():
    """Hand-checked: bits 4..11 of 0x00000F80 are 0xF8, sign-extended from bit 7: -8."""
    r = run("s_bfe_i32 s4, s0, 0x80004\ns_bfe_u32 s5, s0, 0x80004", s={0: 0xF80})
    assert r.s(4) == 0xFFFFFFF8
    assert r.s(5) == 0xF8


UNARY32 = {
    "s_not_b32": (lambda a: M32 ^ a, True),
    "s_brev_b32": (lambda a: int(f"{a:032b}"[::-1], 2), False),
    "s_bcnt0_i32_b32": (lambda a: 32 - bin(a).count("1"), True),
    "s_bcnt1_i32_b32": (lambda a: bin(a).count("1"), True),
    "s_ff0_i32_b32": (lambda a: next((k for k in range(32) if not a >> k & 1), -1) & M32, False),
    "s_ff1_i32_b32": (lambda a: next((k for k in range(32) if a >> k & 1), -1) & M32, False),
    "s_flbit_i32_b32": (lambda a: next((k for k in range(32) if a >> (31 - k) & 1), -1) & M32, False),
    "s_flbit_i32": (lambda a: next((k for k in range(1, 32) if (a >> (31 - k) & 1) != a >> 31), -1) & M32
                    if a not in (0, M32) else M32, False),
    "s_sext_i32_i8": (lambda a: (a & 0xFF) - (0x100 if a & 0x80 else 0) & M32, False),
    "s_sext_i32_i16": (lambda a: (a & 0xFFFF) - (0x10000 if a & 0x8000 else 0) & M32, False),
    "s_abs_i32": (lambda a: abs(s32(a)) & M32, True),
    "s_wqm_b32": (lambda a: sum(0xF << q for q in range(0, 32, 4) if a >> q & 0xF), True),
    "s_quadmask_b32": (lambda a: sum(1 << (q // 4) for q in range(0, 32, 4) if a >> q & 0xF), True),
    "s_mov_b32": (lambda a: a, False),
}


@pytest.mark.parametrize("op", sorted(UNARY32))
def test_sop1_32(op):
    fn, sets_scc = UNARY32[op]
    values = EDGES32 + [0x00010000, 0x40000000, 0xFFFF0000, 0x0000F00F, 0x80] + \
        [int(x) for x in RNG.integers(0, 2**32, 8, dtype=np.uint64)]
    lines = []
    regs = {}
    for k, a in enumerate(values):
        regs[k] = a
        lines += ["s_cmp_eq_u32 0, 0", f"{op} s{40 + k}, s{k}", f"s_cselect_b32 s{70 + k}, 1, 0"]
    r = run("\n".join(lines), s=regs)
    for k, a in enumerate(values):
        want = fn(a) & M32
        assert r.s(40 + k) == want, f"{op} 0x{a:x}"
        assert r.s(70 + k) == (int(want != 0) if sets_scc else 1), f"SCC of {op} 0x{a:x}"


def test_sop1_64():
    a = 0x8000_0001_0000_F00F
    r = run("""s_not_b64 s[4:5], s[0:1]
s_brev_b64 s[6:7], s[0:1]
s_bcnt1_i32_b64 s8, s[0:1]
s_ff1_i32_b64 s9, s[2:3]
s_flbit_i32_b64 s10, s[2:3]
s_flbit_i32_i64 s11, s[0:1]
s_bitreplicate_b64_b32 s[12:13], s14
s_quadmask_b64 s[16:17], s[0:1]
s_wqm_b64 s[18:19], s[0:1]
s_ff0_i32_b64 s20, s[22:23]""", s={"s[0:1]": a, "s[2:3]": 1 << 40, "s14": 0x8000_0003, "s[22:23]": M64})
    assert r.s64(4) == M64 ^ a
    assert r.s64(6) == int(f"{a:064b}"[::-1], 2)
    assert r.s(8) == bin(a).count("1")
    assert r.s(9) == 40
    assert r.s(10) == 23
    assert r.s(11) == 1  # the first bit below the sign that differs from it is bit 62: position 1
    assert r.s64(12) == 0xC000_0000_0000_000F
    assert r.s64(16) == sum(1 << q for q in range(16) if (a >> (4 * q)) & 0xF)
    assert r.s64(18) == sum(0xF << (4 * q) for q in range(16) if (a >> (4 * q)) & 0xF)
    assert r.s(20) == M32  # no zero bit: -1


def test_movk_cmovk_addk_mulk():
    r = run("""s_movk_i32 s0, 0x8000
s_movk_i32 s1, 0x7fff
s_mov_b32 s2, 5
s_cmp_eq_u32 s2, 5
s_cmovk_i32 s2, 0xfffe
s_cmp_eq_u32 s2, 0
s_cmovk_i32 s3, 0x1234
s_mov_b32 s4, 0x7fffffff
s_addk_i32 s4, 1
s_cselect_b32 s5, 1, 0
s_mov_b32 s6, 3
s_mulk_i32 s6, 0xfffe""", s={3: 77})
    assert r.s(0) == 0xFFFF8000  # sign-extended
    assert r.s(1) == 0x7FFF
    assert r.s(2) == 0xFFFFFFFE  # moved: SCC was 1
    assert r.s(3) == 77  # not moved: SCC was 0
    assert r.s(4) == 0x80000000 and r.s(5) == 1  # signed overflow sets SCC
    assert r.s(6) == (3 * -2) & M32


CMP = {"eq": lambda a, b: a == b, "lg": lambda a, b: a != b, "gt": lambda a, b: a > b,
       "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b}


@pytest.mark.parametrize("rel", sorted(CMP))
def test_s_cmp(rel):
    pairs = pairs32(4) + [(5, 5)]
    for start in range(0, len(pairs), 20):
        part = pairs[start:start + 20]
        lines, regs = [], {}
        for k, (a, b) in enumerate(part):
            regs[k] = a
            regs[20 + k] = b
            lines += [f"s_cmp_{rel}_i32 s{k}, s{20 + k}", f"s_cselect_b32 s{40 + k}, 1, 0",
                      f"s_cmp_{rel}_u32 s{k}, s{20 + k}", f"s_cselect_b32 s{60 + k}, 1, 0"]
        r = run("\n".join(lines), s=regs)
        for k, (a, b) in enumerate(part):
            assert r.s(40 + k) == int(CMP[rel](s32(a), s32(b))), f"s_cmp_{rel}_i32 0x{a:x} 0x{b:x}"
            assert r.s(60 + k) == int(CMP[rel](a, b)), f"s_cmp_{rel}_u32 0x{a:x} 0x{b:x}"


@pytest.mark.parametrize("rel", sorted(CMP))
def test_s_cmpk(rel):
    """simm16 is sign-extended for _i32, zero-extended for _u32."""
    for a in (0xFFFF8000, 0x8000, 0, 0xFFFFFFFF, 5):
        for k in (0x8000, 0x0005, 0xFFFF):
            r = run(f"s_cmpk_{rel}_i32 s0, 0x{k:x}\ns_cselect_b32 s1, 1, 0\ns_cmpk_{rel}_u32 s0, 0x{k:x}",
                    s={0: a})
            ks = k - 0x10000 if k & 0x8000 else k
            assert r.s(1) == int(CMP[rel](s32(a), ks)), f"s_cmpk_{rel}_i32 0x{a:x}, 0x{k:x}"
            assert r.scc == int(CMP[rel](a, k)), f"s_cmpk_{rel}_u32 0x{a:x}, 0x{k:x}"


def test_s_cmp_u64_and_bitcmp():
    a, b = 0x1_0000_0000, 0x0_0000_0000
    r = run("""s_cmp_eq_u64 s[0:1], s[2:3]
s_cselect_b32 s10, 1, 0
s_cmp_lg_u64 s[0:1], s[2:3]
s_cselect_b32 s11, 1, 0
s_bitcmp1_b32 s4, 3
s_cselect_b32 s12, 1, 0
s_bitcmp0_b32 s4, 3
s_cselect_b32 s13, 1, 0
s_bitcmp1_b64 s[0:1], 32
s_cselect_b32 s14, 1, 0
s_bitcmp1_b64 s[0:1], 31
s_cselect_b32 s15, 1, 0""", s={"s[0:1]": a, "s[2:3]": b, 4: 0b1000})
    assert [r.s(k) for k in range(10, 16)] == [0, 1, 1, 0, 1, 0]


def test_cselect_and_cmov():
    r = run("""s_cmp_eq_u32 0, 0
s_cselect_b32 s4, s0, s1
s_cselect_b64 s[6:7], s[8:9], s[10:11]
s_cmov_b32 s12, s0
s_cmp_eq_u32 0, 1
s_cselect_b32 s5, s0, s1
s_cmov_b64 s[14:15], s[8:9]""", s={0: 11, 1: 22, "s[8:9]": 0x1_0000_0001, "s[10:11]": 7, 12: 0, "s[14:15]": 99})
    assert (r.s(4), r.s(5)) == (11, 22)
    assert r.s64(6) == 0x1_0000_0001
    assert r.s(12) == 11
    assert r.s64(14) == 99


def test_bitset_and_bfm_64():
    r = run("s_bitset1_b32 s0, 31\ns_bitset0_b32 s1, 0\ns_bitset1_b64 s[2:3], 40\ns_bfm_b64 s[4:5], 36, 20",
            s={0: 1, 1: 3, "s[2:3]": 0})
    assert r.s(0) == 0x80000001
    assert r.s(1) == 2
    assert r.s64(2) == 1 << 40
    assert r.s64(4) == ((1 << 36) - 1) << 20


SAVEEXEC = {
    "s_and_saveexec_b64": lambda s, e: s & e, "s_or_saveexec_b64": lambda s, e: s | e,
    "s_xor_saveexec_b64": lambda s, e: s ^ e, "s_andn2_saveexec_b64": lambda s, e: s & ~e,
    "s_orn2_saveexec_b64": lambda s, e: s | ~e, "s_nand_saveexec_b64": lambda s, e: ~(s & e),
    "s_nor_saveexec_b64": lambda s, e: ~(s | e), "s_xnor_saveexec_b64": lambda s, e: ~(s ^ e),
    "s_andn1_saveexec_b64": lambda s, e: ~s & e, "s_orn1_saveexec_b64": lambda s, e: ~s | e,
}


@pytest.mark.parametrize("op", sorted(SAVEEXEC))
def test_saveexec(op):
    for s0, ex in [(0xF0F0_0000_FFFF_0001, 0xFFFF_FFFF_0000_FFFF), (0, M64), (M64, M64), (0x5, 0xA)]:
        r = run(f"{op} s[4:5], s[0:1]", s={"s[0:1]": s0}, exec=ex)
        new = SAVEEXEC[op](s0, ex) & M64
        assert r.s64(4) == ex, "D gets the old EXEC"
        assert r.exec == new
        assert r.scc == int(new != 0)


@pytest.mark.parametrize("op,fn", [("s_andn1_wrexec_b64", lambda s, e: ~s & e),
                                   ("s_andn2_wrexec_b64", lambda s, e: s & ~e)])
def test_wrexec(op, fn):
    s0, ex = 0xFF00_FF00_FF00_FF00, 0x0FF0_0FF0_0FF0_0FF0
    r = run(f"{op} s[4:5], s[0:1]", s={"s[0:1]": s0}, exec=ex)
    assert r.exec == fn(s0, ex) & M64
    assert r.s64(4) == r.exec, "wrexec writes the new EXEC to D"


def test_saveexec_masks_following_vector_ops():
    """The if/else idiom: EXEC narrowed by s_and_saveexec, restored by s_or_b64 exec."""
    r = run("""v_cmp_gt_u32 vcc, 32, v0
s_and_saveexec_b64 s[4:5], vcc
v_mov_b32 v1, 1
s_or_b64 exec, exec, s[4:5]
v_add_u32 v1, v1, 10""", v={0: np.arange(64), 1: 0})
    assert (r.v(1) == np.where(np.arange(64) < 32, 11, 10)).all()
    assert r.exec == M64


def test_getpc_setpc_swappc_roundtrip():
    """s_getpc_b64 gives the next instruction's address; s_setpc_b64 to getpc + 8 skips one instruction."""
    r = run("""s_getpc_b64 s[0:1]
s_add_u32 s2, s0, 12
s_addc_u32 s3, s1, 0
s_setpc_b64 s[2:3]
s_mov_b32 s10, 1
s_mov_b32 s11, 2""", s={10: 0, 11: 0})
    # getpc (index 0) returns the address of index 1; +12 is index 4 -> s_mov_b32 s10 executes? no: index 4 is
    # "s_mov_b32 s10, 1" counted from 0: getpc=0, add=1, addc=2, setpc=3, mov s10=4, mov s11=5
    assert r.s(10) == 1 and r.s(11) == 2
    r2 = run("""s_getpc_b64 s[0:1]
s_add_u32 s2, s0, 16
s_addc_u32 s3, s1, 0
s_setpc_b64 s[2:3]
s_mov_b32 s10, 1
s_mov_b32 s11, 2""", s={10: 0, 11: 0})
    assert r2.s(10) == 0 and r2.s(11) == 2, "jumping one instruction further skips s_mov_b32 s10"
    assert r2.s64(0) - r.s64(0) == 0  # deterministic code base


def test_swappc_and_call_return():
    r = run("""s_getpc_b64 s[0:1]
s_add_u32 s0, s0, 20
s_addc_u32 s1, s1, 0
s_swappc_b64 s[30:31], s[0:1]
s_mov_b32 s20, 7
s_branch finish
s_mov_b32 s21, 9
s_setpc_b64 s[30:31]
finish:
s_nop 0""", s={20: 0, 21: 0})
    assert r.s(21) == 9 and r.s(20) == 7, "the callee ran and returned to the instruction after s_swappc_b64"


def test_setpc_to_a_non_instruction_address_is_an_error():
    run("s_mov_b64 s[0:1], 3\ns_setpc_b64 s[0:1]", expect_error="not an instruction address")


def test_literal_zero_extension_note():
    """llvm-mc encodes -100 for a b64 operand in 32 bits; the hardware zero-extends it."""
    r = run("s_mov_b64 s[0:1], -100\ns_mov_b64 s[2:3], -16\ns_ashr_i64 s[4:5], -100, 0")
    assert r.s64(0) == 0xFFFFFF9C
    assert r.s64(2) == M64 - 15, "inline constants are sign-extended to 64 bits"
    assert r.s64(4) == (-100) & M64, "a signed operand sign-extends the literal"
    assert any("zero-extended" in n for n in r.notes)


def test_float_constants_in_scalar_ops():
    r = run("s_mov_b32 s0, 1.0\ns_mov_b64 s[2:3], 0.5\ns_mov_b32 s4, 0.15915494\ns_add_u32 s5, 1.5, 0")
    assert r.s(0) == 0x3F800000
    assert r.s64(2) == 0x3FE0000000000000, "a 64-bit operand gets the f64 inline constant"
    assert r.s(4) == 0x3E22F983
    assert r.s(5) == 0x3FC00000


def test_movrel():
    r = run("s_mov_b32 m0, 2\ns_movrels_b32 s0, s10\ns_movreld_b32 s20, s11",
            s={10: 100, 11: 101, 12: 102, 22: 0})
    assert r.s(0) == 102
    assert r.s(22) == 101


def test_uninitialised_sgpr_read_is_noted():
    r = run("s_add_u32 s1, s0, 1")
    assert any("s0" in n and "poison" in n for n in r.notes)
    assert r.s(1) == (0xBADC0DE5 + 1) & M32


@pytest.mark.parametrize("target", ["gfx908", "gfx942", "gfx950"])
def test_salu_same_on_every_target(target):
    got = run_binary("s_add_i32", [(0x7FFFFFFF, 1), (5, 6)], target=target)
    assert got == [(0x80000000, 1), (11, 0)]


def test_getreg_setreg_mode_changes_denormal_handling():
    """MODE.FP_DENORM f32 = 0 flushes later f32 denormals; s_getreg reads fields back."""
    den = np.full(64, 1e-39, np.float32)
    r = run("""s_getreg_b32 s1, hwreg(HW_REG_MODE)
v_add_f32 v1, v0, 0
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
v_add_f32 v2, v0, 0
s_getreg_b32 s2, hwreg(HW_REG_MODE, 4, 4)
s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s3
v_add_f32 v3, v0, 0
s_setreg_b32 hwreg(HW_REG_TRAPSTS, 0, 8), s4
s_getreg_b32 s5, hwreg(HW_REG_TRAPSTS, 0, 8)
s_getreg_b32 s6, 0x1801""", v={0: den}, s={3: 3, 4: 0x1AB})
    assert r.s(1) == 0x3F0, "launch MODE: denormals kept (FP_DENORM 0xf), DX10_CLAMP and IEEE set"
    assert r.v(1)[0] == den.view(np.uint32)[0] and r.v(2)[0] == 0 and r.v(3)[0] == den.view(np.uint32)[0]
    assert r.s(2) == 0xC, "f32 field 0, f64/f16 field 3"
    assert r.s(5) == 0xAB
    assert r.s(6) == 0, "raw simm16 0x1801 is MODE bits [3:0]: FP_ROUND, 0 = nearest even"


def test_unmodelled_hwreg_stops_the_run():
    run("s_getreg_b32 s0, hwreg(HW_REG_HW_ID)", expect_error="HW_REG_HW_ID is not modelled")
