"""Scalar memory: s_load_* / s_buffer_load_* / s_store_* addressing, range checking and timing of the result."""
from __future__ import annotations

import numpy as np
import pytest

from semhelpers import run

DATA = (np.arange(256, dtype=np.uint32) * 0x01010101 + 0x10203) & 0xFFFFFFFF


@pytest.mark.parametrize("size,n", [("dword", 1), ("dwordx2", 2), ("dwordx4", 4), ("dwordx8", 8),
                                    ("dwordx16", 16)])
def test_s_load_sizes_and_imm_offset(size, n):
    dst = "s20" if n == 1 else f"s[20:{19 + n}]"
    r = run(f"s_load_{size} {dst}, s[4:5], 0x24\ns_waitcnt lgkmcnt(0)", buffers={"A": (DATA, "s[4:5]")})
    assert [r.s(20 + k) for k in range(n)] == [int(x) for x in DATA[9:9 + n]]


def test_s_load_sgpr_offset_plus_imm_and_negative_imm():
    r = run("""s_load_dword s20, s[4:5], s6 offset:0x8
s_add_u32 s8, s4, 64
s_addc_u32 s9, s5, 0
s_load_dwordx2 s[22:23], s[8:9], -0x8
s_waitcnt lgkmcnt(0)""", s={6: 12}, buffers={"A": (DATA, "s[4:5]")})
    assert r.s(20) == DATA[(12 + 8) // 4]
    assert (r.s(22), r.s(23)) == (DATA[14], DATA[15])


def test_s_load_ignores_the_low_address_bits():
    r = run("s_load_dword s20, s[4:5], s6\ns_waitcnt lgkmcnt(0)", s={6: 7}, buffers={"A": (DATA, "s[4:5]")})
    assert r.s(20) == DATA[1]
    assert any("not dword aligned" in n for n in r.notes)


def test_result_lands_at_completion_not_at_issue():
    """Reading the destination before s_waitcnt sees the old value (the hazard the emulator exists to show)."""
    r = run("""s_load_dword s20, s[4:5], 0x0
s_mov_b32 s21, s20
s_waitcnt lgkmcnt(0)
s_mov_b32 s22, s20""", s={20: 0xDEAD}, buffers={"A": (DATA, "s[4:5]")})
    assert r.s(21) == 0xDEAD
    assert r.s(22) == DATA[0]
    assert r.sim.hazards, "the early read is reported"


def test_s_load_out_of_buffer_is_a_runtime_error():
    run("s_load_dwordx4 s[20:23], s[4:5], 0x3f8\ns_waitcnt lgkmcnt(0)", buffers={"A": (DATA, "s[4:5]")},
        expect_error="runs past the end")


def test_s_buffer_load_range_check():
    """num_records = 1024 bytes: the dwords of a load that straddles the end read 0."""
    r = run("""s_buffer_load_dwordx4 s[20:23], s[8:11], 0x3f8
s_buffer_load_dword s24, s[8:11], s6
s_buffer_load_dwordx2 s[26:27], s[8:11], 0x400
s_waitcnt lgkmcnt(0)""", s={6: 0x100}, buffers={"A": (DATA, "s[8:11]", "rsrc")})
    assert [r.s(20 + k) for k in range(4)] == [DATA[254], DATA[255], 0, 0]
    assert r.s(24) == DATA[64]
    assert (r.s(26), r.s(27)) == (0, 0)


def test_s_buffer_load_uses_descriptor_fields():
    """A hand-built V#: base from word0/word1[15:0], num_records from word2 (here 16 bytes)."""
    r = run("""s_mov_b32 s10, 16
s_buffer_load_dwordx8 s[20:27], s[8:11], 0x8
s_waitcnt lgkmcnt(0)""", s={11: 0x27000}, buffers={"A": (DATA, "s[8:9]")})
    assert [r.s(20 + k) for k in range(8)] == [DATA[2], DATA[3], 0, 0, 0, 0, 0, 0]


def test_s_store_and_reload():
    r = run("""s_store_dwordx2 s[10:11], s[4:5], 0x10
s_waitcnt lgkmcnt(0)
s_load_dwordx2 s[12:13], s[4:5], 0x10
s_waitcnt lgkmcnt(0)""", s={"s[10:11]": 0x1111_2222_3333_4444}, buffers={"A": (DATA, "s[4:5]")})
    assert r.s64(12) == 0x1111_2222_3333_4444
    out = r.sim.buffer("A", np.uint32)
    assert (out[4], out[5]) == (0x33334444, 0x11112222)
    assert (out[:4] == DATA[:4]).all() and (out[6:] == DATA[6:]).all()


def test_s_buffer_store_drops_out_of_range_dwords():
    r = run("""s_buffer_store_dwordx4 s[12:15], s[8:11], 0x3f8
s_waitcnt lgkmcnt(0)""", s={"s[12:13]": 0x0000_0002_0000_0001, "s[14:15]": 0x0000_0004_0000_0003},
            buffers={"A": (DATA, "s[8:11]", "rsrc")})
    out = r.sim.buffer("A", np.uint32)
    assert (out[254], out[255]) == (1, 2)
    assert (out[:254] == DATA[:254]).all()


def test_cache_maintenance_changes_nothing():
    r = run("s_dcache_wb\ns_dcache_inv\ns_dcache_discard s[4:5], 0x0\ns_load_dword s20, s[4:5], 0x0\ns_waitcnt lgkmcnt(0)",
            buffers={"A": (DATA, "s[4:5]")})
    assert r.s(20) == DATA[0] and (r.sim.buffer("A", np.uint32) == DATA).all()
