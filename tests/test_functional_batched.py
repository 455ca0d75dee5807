"""The batched paths of the functional engine: what one execution per group of waves must give.

- EXEC-masked writes (the xor-blend both engines use) leave inactive lanes' bits alone,
  64-bit values and NaN payloads included;
- a kernel mixing lane-wise VALU families, per-workgroup SGPR sources, partial EXEC, compares
  into VCC and memory computes over a grid exactly what the timed engine computes per workgroup,
  and a never-written register read still gets the timed engine's note;
- the MFMA matmul shortcut equals the error-free summation bit for bit;
- a grid too large for memory is refused before anything is allocated, with the estimate;
- waves that spin on each other (which PC groups cannot run) fall back to the timed engine.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gcnemu.asm.diagnostics import GcnemuError
from gcnemu.cli import main
from gcnemu.grid import GridJob, functional_bytes, run_functional, run_grid
from gcnemu.sim.masked import exec_words, lane_words, masked_write
from gcnemu.snippets.runner import load_snippet

# ---------------------------------------------------------------- masked writes


def test_a_masked_write_changes_exactly_the_enabled_lanes():
    rng = np.random.default_rng(5)
    dst = rng.integers(0, 2 ** 32, (1024, 64), dtype=np.uint64).astype(np.uint32)
    new = rng.integers(0, 2 ** 32, (1024, 64), dtype=np.uint64).astype(np.uint32)
    mask = rng.random((1024, 64)) < 0.5
    before = dst.copy()
    masked_write(dst, new, mask)
    assert np.array_equal(dst[mask], new[mask])
    assert np.array_equal(dst[~mask], before[~mask])


def test_exec_words_follow_the_exec_bits_of_each_wave():
    lo = np.array([0xFFFFFFFF, 0x00000001, 0], dtype=np.uint32)
    hi = np.array([0x00000000, 0x80000000, 0], dtype=np.uint32)
    words = exec_words(lo, hi)
    assert words.dtype == np.uint32 and words.shape == (3, 64)
    assert (words[0, :32] == 0xFFFFFFFF).all() and (words[0, 32:] == 0).all()
    assert set(np.flatnonzero(words[1])) == {0, 63}
    assert not words[2].any()
    dst = np.zeros((3, 64), dtype=np.uint32)
    masked_write(dst, np.uint32(7), words)
    assert np.array_equal(dst != 0, words != 0)


def test_a_masked_write_of_64_bit_values_keeps_both_halves_of_inactive_lanes():
    dst = np.full(64, 0x0123456789ABCDEF, dtype=np.uint64)
    new = np.arange(64, dtype=np.uint64) << np.uint64(40)
    mask = np.arange(64) % 3 == 0
    masked_write(dst, new, mask)
    assert np.array_equal(dst[mask], new[mask])
    assert (dst[~mask] == 0x0123456789ABCDEF).all()
    words = lane_words(mask, np.uint64)
    assert words.dtype == np.uint64 and (words[mask] == np.uint64(2 ** 64 - 1)).all()


@pytest.mark.parametrize("dtype, payloads", [(np.float32, [0x7FA00001, 0xFFC12345, 0x80000000]),
                                             (np.float64, [0x7FF4000000000001, 0xFFF8DEADBEEF0001])])
def test_a_masked_write_keeps_nan_payloads_and_signed_zeros_bit_for_bit(dtype, payloads):
    u = np.uint32 if dtype == np.float32 else np.uint64
    old = np.array(payloads * 8, dtype=u).view(dtype)
    new = np.array(payloads[::-1] * 8, dtype=u).view(dtype)
    dst = old.copy()
    mask = np.arange(len(dst)) % 2 == 1
    masked_write(dst, new, mask)
    assert np.array_equal(dst.view(u)[mask], new.view(u)[mask])
    assert np.array_equal(dst.view(u)[~mask], old.view(u)[~mask])


def test_a_masked_write_refuses_values_of_another_width():
    with pytest.raises(ValueError, match="values of"):
        masked_write(np.zeros(64, dtype=np.uint32), np.zeros(64, dtype=np.uint64), np.ones(64, dtype=bool))


# ---------------------------------------------------------------- a VALU mix over a grid

MIX = """\
// gcnemu:
//   arch: {arch}
//   workgroup: 128
//   grid: 3
//   buffer A: f32[384] = randn(seed=3)
//   buffer O: u32[7680] = 0
//   arg: A, O
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_and_b32 v1, 0x3ff, v0
  s_lshl_b32 s3, s2, 7                 // per-workgroup scalar: differs between groups
  v_add_u32 v1, s3, v1
  v_lshlrev_b32 v2, 2, v1
  s_waitcnt lgkmcnt(0)
  global_load_dword v3, v2, s[4:5]
  s_waitcnt vmcnt(0)
  v_mul_f32 v4, v3, v3
  v_fma_f32 v5, v3, 0.5, v4
  v_fmac_f32 v5, v3, v4
  v_max_f32 v6, v3, -v4
  v_cvt_i32_f32 v7, v5
  v_cvt_f32_i32 v8, v7
  v_cmp_gt_f32 vcc, v3, 0
  v_cndmask_b32 v9, v7, v1, vcc
  v_cmp_lt_u32 s[10:11], v1, s3        // never true: v1 >= s3
  v_mul_lo_u32 v10, v1, s2
  v_mad_u32_u24 v11, v1, 3, s3
  v_lshlrev_b64 v[12:13], 33, v[2:3]
  v_add_co_u32 v14, s[12:13], v1, -1
  v_addc_co_u32 v15, s[12:13], 0, v2, s[12:13]
  v_pk_add_f16 v16, v3, v4
  v_bfe_u32 v17, v2, 3, 5
  v_xad_u32 v18, v1, v2, v3
  s_mov_b32 exec_lo, 0x00ff00ff        // partial EXEC: only these lanes change below
  s_mov_b32 exec_hi, 0x0f0f0f0f
  v_mov_b32 v19, v18
  v_sub_f32 v20, v3, v8
  v_add_u32 v21, v22, v1               // v22 never written: the timed engine notes the read
  s_mov_b64 exec, -1
  v_cndmask_b32 v19, 0, v19, s[10:11]
  v_mov_b32 v23, s12
  v_mul_u32_u24 v24, 80, v1            // 20 dwords out per work-item
  {stores}
  s_endpgm
"""
OUT_REGS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23]


def _mix(tmp_path: Path, arch: str) -> Path:
    stores = "\n  ".join(f"global_store_dword v24, v{r}, s[6:7] offset:{4 * k}" for k, r in enumerate(OUT_REGS))
    p = tmp_path / f"mix_{arch}.s"
    p.write_text(MIX.format(arch=arch, stores=stores))
    return p


@pytest.mark.parametrize("arch", ["gfx90a", "gfx942"])
def test_a_valu_mix_over_a_grid_matches_the_timed_engine_bit_for_bit(tmp_path, arch):
    path = _mix(tmp_path, arch)
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    job = GridJob(str(path), None)
    timed, grun = run_grid(snippet, kernel, (3, 1, 1), job, jobs=1)
    assert all(r.error is None for r in grun.results)
    functional, frun = run_functional(snippet, kernel, (3, 1, 1), job)
    assert functional.error is None and frun.fallback is None
    # every instruction ran once per group but the four that read registers written in some lanes
    # only (v22, and v19/v20/v21 after the partial EXEC): those go per wave, for the notes
    assert frun.batched == frun.instructions - 4 * frun.waves
    out_t, out_f = timed.memory.buffer("O").data, functional.memory.buffer("O").data
    assert out_t.view(np.uint32).any()
    assert np.array_equal(out_t, out_f)
    # workgroup 0's registers, as `run` shows them
    for t, f in zip(timed.waves, functional.waves):
        assert np.array_equal(t.vgpr_init, f.vgpr_init)
        assert np.array_equal(t.vgpr[t.vgpr_init], f.vgpr[f.vgpr_init])
        assert np.array_equal(t.sgpr[t.sgpr_init], f.sgpr[f.sgpr_init])


def test_reading_a_never_written_register_is_noted_as_by_the_timed_engine(tmp_path, capsys):
    path = _mix(tmp_path, "gfx90a")
    assert main(["run", str(path), "--functional"]) == 0
    functional = capsys.readouterr().err
    assert main(["run", str(path)]) == 0
    timed = capsys.readouterr().err
    assert "reads v22 before anything wrote it (lanes 0-7,16-23,32-35,40-43,48-51,56-59)" in functional
    assert [x for x in functional.splitlines() if "note:" in x] == [x for x in timed.splitlines() if "note:" in x]


# ---------------------------------------------------------------- MFMA shortcut


def test_the_mfma_matmul_shortcut_equals_the_error_free_sum_bit_for_bit():
    from gcnemu.sim import mfma_exec as X
    rng = np.random.default_rng(11)
    quick = 0
    for t in range(300):
        b, m, k, n = rng.integers(1, 4), rng.integers(1, 9), rng.integers(1, 9), rng.integers(1, 9)
        if t % 3 == 0:  # fp16 inputs
            a = rng.standard_normal((b, m, k)).astype(np.float16).astype(np.float64)
            bb = rng.standard_normal((b, k, n)).astype(np.float16).astype(np.float64)
            pa = pb = 11
        elif t % 3 == 1:  # fp32 with a wide exponent spread: many elements need the slow path
            a = (rng.standard_normal((b, m, k)) * np.exp2(rng.integers(-40, 40, (b, m, k)))).astype(np.float32)
            a = a.astype(np.float64)
            bb = rng.standard_normal((b, k, n)).astype(np.float32).astype(np.float64)
            pa = pb = 24
        else:  # zeros and negative zeros: the sum's zero is +0
            a = np.zeros((b, m, k))
            bb = -rng.integers(0, 3, (b, k, n)).astype(np.float64)
            pa = pb = 24
        c = (rng.standard_normal((b, m, n)) * np.exp2(rng.integers(-30, 30, (b, m, n)))).astype(np.float32)
        c = -np.zeros((b, m, n)) if t % 3 == 2 else c.astype(np.float64)
        ref = X._accurate_sum(a[:, :, None, :] * np.swapaxes(bb, 1, 2)[:, None, :, :], c)
        got = X._exact_by_matmul(a, bb, c, pa, pb)
        assert got is not None
        quick += 1
        assert np.array_equal(ref.view(np.uint64), got.view(np.uint64)), f"case {t}"
    a = np.full((1, 2, 2), np.inf)
    assert X._exact_by_matmul(a, np.zeros((1, 2, 2)), np.zeros((1, 2, 2))) is None  # NaN: the error-free path


# ---------------------------------------------------------------- bad input


def test_a_grid_too_large_for_memory_is_refused_up_front_with_the_estimate():
    path = Path(__file__).resolve().parent.parent / "programs" / "sgemm_vector.s"
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    with pytest.raises(GcnemuError) as e:
        run_functional(snippet, kernel, (4096, 1, 1), GridJob(str(path), None), available=64 << 20)
    msg = str(e.value)
    assert "4096 workgroups x 4 waves need about" in msg and "bytes" in msg and "smaller grid" in msg
    need = int(msg.split("need about ")[1].split(" bytes")[0].replace(",", ""))
    assert need > 64 << 20
    assert need <= functional_bytes(kernel, 4, 4096)  # (the full-register bound)


def test_the_cli_refuses_a_grid_that_cannot_fit_without_a_traceback(capsys):
    path = Path(__file__).resolve().parent.parent / "programs" / "sgemm_vector.s"
    rc = main(["run", str(path), "--grid", str(1 << 20), "--functional"])
    err = capsys.readouterr()
    assert rc != 0
    assert "need about" in err.err + err.out and "Traceback" not in err.err


SPIN = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 128
//   buffer O: u32[128] = 0
//   arg: O

  // Wave 0 waits for a flag that wave 1 sets in LDS: no s_barrier between them. Run one PC
  // group after the other, wave 0 (at the lower PC) would wait forever.
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_mov_b32 v9, 0
  v_readfirstlane_b32 s6, v0
  s_cmp_ge_u32 s6, 64
  s_cbranch_scc1 writer
spin:
  ds_read_b32 v1, v9 offset:256
  s_waitcnt lgkmcnt(0)
  v_readfirstlane_b32 s7, v1
  s_cmp_eq_u32 s7, 0
  s_cbranch_scc1 spin
  s_branch done
writer:
  v_mov_b32 v2, 42
  ds_write_b32 v9, v2 offset:256
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 42
done:
  v_lshlrev_b32 v3, 2, v0
  s_waitcnt lgkmcnt(0)
  global_store_dword v3, v1, s[4:5]
  s_endpgm
"""


def test_waves_spinning_on_each_other_fall_back_to_the_timed_engine_with_a_note(tmp_path, monkeypatch):
    import gcnemu.sim.functional as F
    monkeypatch.setattr(F, "SPIN_LIMIT", 200)
    path = tmp_path / "spin.s"
    path.write_text(SPIN)
    snippet = load_snippet(str(path))
    sim, frun = run_functional(snippet, snippet.kernel(), None, GridJob(str(path), None))
    assert frun.fallback is not None and "wait on each other outside s_barrier" in frun.fallback
    assert "timed engine" in frun.text()
    assert sim.error is None
    assert (sim.memory.buffer("O").data.view(np.uint32) == 42).all()  # the right answer, not a hang


BRANCHY = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   grid: 6
//   buffer O: u32[384] = 0
//   arg: O
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_lshl_b32 s3, s2, 6
  v_add_u32 v1, s3, v0
  v_lshlrev_b32 v2, 2, v1
  s_mov_b32 s6, s2                     // a loop whose trip count is the workgroup id
  v_mov_b32 v3, 1
  s_cmp_eq_u32 s6, 0
  s_cbranch_scc1 skip
again:
  v_mul_lo_u32 v3, v3, 3
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 again
skip:
  s_and_b32 s7, s2, 1                  // odd and even workgroups part ways, then meet again
  s_cmp_eq_u32 s7, 1
  s_cbranch_scc1 odd
  v_add_u32 v3, v3, v1
  s_branch join
odd:
  v_xor_b32 v3, v3, v1
join:
  s_waitcnt lgkmcnt(0)
  global_store_dword v2, v3, s[4:5]
  s_endpgm
"""


def test_scalar_branches_split_the_grid_into_groups_that_rejoin(tmp_path):
    path = tmp_path / "branchy.s"
    path.write_text(BRANCHY)
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    job = GridJob(str(path), None)
    timed, grun = run_grid(snippet, kernel, (6, 1, 1), job, jobs=1)
    functional, frun = run_functional(snippet, kernel, (6, 1, 1), job)
    assert np.array_equal(timed.memory.buffer("O").data, functional.memory.buffer("O").data)
    # the same path per wave: 0..5 loop trips, then the even or the odd side
    assert frun.instructions == sum(r.instructions for r in grun.results)
    out = functional.memory.buffer("O").data.view(np.uint32).reshape(6, 64)
    lane = np.arange(64, dtype=np.uint32)
    for wg in range(6):
        idx = lane + 64 * wg
        want = (3 ** wg) ^ idx if wg & 1 else 3 ** wg + idx
        assert np.array_equal(out[wg], want.astype(np.uint32))
    assert frun.batched == frun.instructions  # every group, split or whole, ran as one


def test_the_cli_says_when_a_functional_run_fell_back_to_the_timed_engine(tmp_path, monkeypatch, capsys):
    import json

    import gcnemu.sim.functional as F
    monkeypatch.setattr(F, "SPIN_LIMIT", 200)
    path = tmp_path / "spin.s"
    path.write_text(SPIN)
    assert main(["run", str(path), "--functional"]) == 0
    out = capsys.readouterr().out
    assert "note: the waves of a workgroup wait on each other outside s_barrier" in out
    assert "ran on the timed engine instead" in out
    assert main(["run", str(path), "--functional", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "timed engine" in report["functional"]["fallback"] and report["functional"]["batched"] == 0


@pytest.mark.parametrize("program", ["gemm_lds_dma_gfx942.s", "mfma_16x16x4f32.s"])
def test_mfma_numerics_in_uneven_pieces_of_a_group_give_the_same_results(program, monkeypatch):
    """The MFMA path calls the numerics MFMA_LANES lanes of blocks at a time (arrays that stay in
    cache); uneven pieces of a grid (the last one shorter) must give exactly the registers and
    memory of one piece (and so of the timed engine)."""
    import gcnemu.sim.functional as F
    path = Path(__file__).resolve().parent.parent / "programs" / program
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    grid = (12 // snippet.setup.num_waves, 1, 1)  # 12 waves
    whole, wrun = run_functional(snippet, kernel, grid, GridJob(str(path), None))
    monkeypatch.setattr(F, "MFMA_LANES", 5 * 64)  # pieces of 5 one-block waves: 5, 5 and 2
    pieces, prun = run_functional(snippet, kernel, grid, GridJob(str(path), None))
    assert prun.batched == wrun.batched and prun.instructions == wrun.instructions
    for a, b in zip(whole.memory.buffers, pieces.memory.buffers):
        assert np.array_equal(a.data, b.data), a.name
    for a, b in zip(whole.waves, pieces.waves):
        assert np.array_equal(a.vgpr, b.vgpr) and np.array_equal(a.agpr, b.agpr)
        assert np.array_equal(a.sgpr, b.sgpr) and np.array_equal(a.vgpr_init, b.vgpr_init)


# ---------------------------------------------------------------- per-lane loops run on groups too

PER_LANE = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 128
//   grid: 3
//   buffer O: u32[3840] = 0
//   arg: O
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_and_b32 v1, 0x3ff, v0
  s_lshl_b32 s3, s2, 7
  v_add_u32 v1, s3, v1                 // global work-item id
  v_mul_u32_u24 v2, 0x9e3779b1, v1     // per-lane bit patterns
  v_xor_b32 v3, 0x5bd1e995, v2
  v_cvt_f64_u32 v[4:5], v1
  v_ldexp_f64 v[4:5], v[4:5], 20       // 2^20 .. 2^29 times the id: segments after the first
  v_trig_preop_f64 v[6:7], v[4:5], 1
  v_trig_preop_f64 v[8:9], |v[4:5]|, v1
  v_perm_b32 v10, v2, v3, v1
  v_sad_u8 v11, v2, v3, v1
  v_msad_u8 v12, v2, v3, 7
  v_lerp_u8 v13, v2, v3, v1
  v_fma_f64 v[16:17], v[4:5], v[6:7], -v[4:5]  // exact-rational fma, element by element
  v_mul_u32_u24 v14, 40, v1            // 10 dwords out per work-item
  s_waitcnt lgkmcnt(0)
  {stores}
  s_endpgm
"""


def test_instructions_with_per_lane_loops_run_on_groups_of_waves(tmp_path):
    """Semantics written as a loop over the 64 lanes (the 2/pi table lookup of v_trig_preop_f64,
    the exact fma_f64, the byte loops of v_perm_b32, v_sad/msad and v_lerp_u8) also get the functional engine's
    arrays of several waves at once, and must give what the timed engine gives per wave.
    (v_trig_preop_f64 and v_fma_f64 in ocml's double sine raised TypeErrors there, tests/test_ocml.py.)"""
    stores = "\n  ".join(f"global_store_dword v14, v{r}, s[4:5] offset:{4 * k}"
                         for k, r in enumerate([6, 7, 8, 9, 10, 11, 12, 13, 16, 17]))
    path = tmp_path / "per_lane.s"
    path.write_text(PER_LANE.format(stores=stores))
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    job = GridJob(str(path), None)
    timed, grun = run_grid(snippet, kernel, (3, 1, 1), job, jobs=1)
    assert all(r.error is None for r in grun.results)
    functional, frun = run_functional(snippet, kernel, (3, 1, 1), job)
    assert functional.error is None and frun.fallback is None
    assert frun.batched > 0
    out_t, out_f = timed.memory.buffer("O").data.view(np.uint32), functional.memory.buffer("O").data.view(np.uint32)
    assert np.count_nonzero(out_t.reshape(-1, 10), axis=0).min() > 100  # every column computed something
    assert np.array_equal(out_t, out_f)


# ---------------------------------------------------------------- table ops under both denormal modes

DENORMALS = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 128
//   grid: 3
//   buffer A: f32[384] = randn(seed=4)
//   buffer O: u32[1536] = 0
//   arg: A, O
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_and_b32 v1, 0x3ff, v0
  s_lshl_b32 s3, s2, 7
  v_add_u32 v1, s3, v1
  v_lshlrev_b32 v2, 2, v1
  s_waitcnt lgkmcnt(0)
  global_load_dword v3, v2, s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 s8, 0x00400000             // 2^-127, an f32 denormal, as an SGPR source
  v_mov_b32 v9, 3                      // an integer constant: a denormal as an f32 source
  v_mul_f32 v4, v3, s8
  v_mul_f32 v5, 0x0d800000, v3         // 2^-100 x
  v_mul_f32 v5, 0x30800000, v5         // 2^-130 x: denormal results
  v_fmac_f32 v4, v3, v9
  v_fma_f32 v6, v3, s8, v5
  v_add_f32 v7, v5, v9
  s_mov_b32 exec_lo, 0x0ff00ff0        // partial EXEC: the other lanes keep their bits
  v_fmac_f32 v5, v3, v3
  v_xor_b32 v7, s3, v7
  s_mov_b64 exec, -1
  v_mul_u32_u24 v10, 16, v1           // 4 dwords out per work-item
  global_store_dword v10, v4, s[6:7]
  global_store_dword v10, v5, s[6:7] offset:4
  global_store_dword v10, v6, s[6:7] offset:8
  global_store_dword v10, v7, s[6:7] offset:12
  s_endpgm
{descriptor}"""
# without float_denorm_mode_32 an .amdhsa_kernel block asks for flushed f32 denormals (llvm-mc's default 0)
FLUSHING = """.amdhsa_kernel k
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
.end_amdhsa_kernel
"""


def test_table_ops_with_scalar_and_constant_sources_match_the_timed_engine_in_both_denormal_modes(tmp_path):
    """The group plans (one call of the table's lane function over the whole group) read SGPR,
    constant and VGPR sources, honour MODE's denormal flushing on input and output and merge
    under a partial EXEC exactly as the timed engine's per-wave path does."""
    outs = {}
    for name, descriptor in (("kept", ""), ("flushed", FLUSHING)):
        path = tmp_path / f"denormals_{name}.s"
        path.write_text(DENORMALS.format(descriptor=descriptor))
        snippet = load_snippet(str(path))
        kernel = snippet.kernel()
        job = GridJob(str(path), None)
        timed, grun = run_grid(snippet, kernel, (3, 1, 1), job, jobs=1)
        assert all(r.error is None for r in grun.results)
        functional, frun = run_functional(snippet, kernel, (3, 1, 1), job)
        assert functional.error is None and frun.batched == frun.instructions
        out = functional.memory.buffer("O").data.view(np.uint32)
        assert np.array_equal(timed.memory.buffer("O").data.view(np.uint32), out)
        outs[name] = out.reshape(-1, 4)
    denormal = lambda x: (x & 0x7F800000 == 0) & (x & 0x007FFFFF != 0)  # noqa: E731
    assert denormal(outs["kept"][:, 2]).sum() > 300  # the modes really differ on these lanes
    assert not denormal(outs["flushed"][:, :3]).any()  # (the fourth went through an xor)
    assert not np.array_equal(outs["kept"], outs["flushed"])


# ---------------------------------------------------------------- MFMAs on split groups of waves

MFMA_SPLIT = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   grid: 6
//   buffer O: u32[6144] = 0
//   arg: O
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_lshl_b32 s3, s2, 6
  v_add_u32 v1, s3, v0                 // global work-item id
  v_mul_u32_u24 v2, 0x9e3779, v1       // per-lane bits ...
  v_xor_b32 v3, 0x5bd1e995, v2
  v_and_b32 v2, 0x3bff3bff, v2         // ... as finite f16 pairs below 1
  v_and_b32 v3, 0x3bff3bff, v3
  v_lshrrev_b32 v4, 3, v3
  v_and_b32 v4, 0x3bff3bff, v4
  v_lshrrev_b32 v5, 5, v2
  v_and_b32 v5, 0x3bff3bff, v5
  v_cvt_f32_u32 v8, v1
{init_c}
  s_and_b32 s7, s2, 1                  // odd and even workgroups: MFMAs at different PCs
  s_cmp_eq_u32 s7, 1
  s_cbranch_scc1 odd
  v_mfma_f32_32x32x8f16 a[0:15], v[2:3], v[4:5], a[0:15]
  s_branch join
odd:
  v_mfma_f32_32x32x8f16 a[0:15], v[4:5], v[2:3], a[0:15]
join:
  s_nop 15
  s_nop 15
  s_nop 15
  v_mfma_f32_32x32x8f16 a[0:15], v[2:3], v[2:3], a[0:15]   // every wave again: one group
  s_nop 15
  s_nop 15
  s_nop 15
  v_lshlrev_b32 v6, 6, v1              // 16 dwords out per work-item
  s_waitcnt lgkmcnt(0)
{stores}
  s_endpgm
"""


def test_mfmas_on_groups_split_by_a_branch_match_the_timed_engine(tmp_path):
    """The MFMA path gathers a group's operands straight from the register arrays: for the whole
    grid, and for waves that a branch split into groups that are not consecutive (the odd and
    the even workgroups), with C and D in AGPRs."""
    init_c = "\n".join(f"  v_accvgpr_write_b32 a{r}, v{8 if r % 3 else 2 + r % 4}" for r in range(16))
    stores = "\n".join(f"  v_accvgpr_read_b32 v7, a{r}\n  s_nop 1\n  global_store_dword v6, v7, s[4:5] offset:{4 * r}"
                       for r in range(16))
    path = tmp_path / "mfma_split.s"
    path.write_text(MFMA_SPLIT.format(init_c=init_c, stores=stores))
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    job = GridJob(str(path), None)
    timed, grun = run_grid(snippet, kernel, (6, 1, 1), job, jobs=1)
    assert all(r.error is None for r in grun.results)
    functional, frun = run_functional(snippet, kernel, (6, 1, 1), job)
    assert functional.error is None and frun.batched == frun.instructions
    out = functional.memory.buffer("O").data.view(np.float32)
    assert np.isfinite(out).all() and np.count_nonzero(out) > 6000
    assert np.array_equal(timed.memory.buffer("O").data, functional.memory.buffer("O").data)


# ---------------------------------------------------------------- LDS accesses the group paths refuse

LDS_EDGE = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   grid: 4
//   buffer O: u32[512] = 0
//   arg: O
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32 v1, 3, v0              // 8 bytes per lane
  v_mov_b32 v2, v0
  v_mov_b32 v3, 7
  ds_write_b64 v1, v[2:3]
  s_waitcnt lgkmcnt(0)
  v_add_u32 v4, {shift}, v1
  ds_read_b64 v[6:7], v4 offset:{offset}
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s3, s2, 9
  v_add_u32 v5, s3, v1
  global_store_dwordx2 v5, v[6:7], s[4:5]
  s_endpgm
"""


@pytest.mark.parametrize("shift, offset, note", [(0, 8, None), (4, 8, "not 8-byte aligned"),
                                                 (0, 65528, "outside the 65536-byte LDS")])
def test_lds_reads_past_the_allocation_or_misaligned_go_per_wave_with_the_timed_engines_values(
        tmp_path, shift, offset, note):
    """A ds_read whose active lanes all fit and are aligned runs as one gather per group; one lane
    out of range or misaligned sends the group per wave (the notes, the zeros read past the end),
    with the same memory as the timed engine."""
    path = tmp_path / "lds_edge.s"
    path.write_text(LDS_EDGE.format(shift=shift, offset=offset))
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    job = GridJob(str(path), None)
    timed, _ = run_grid(snippet, kernel, (4, 1, 1), job, jobs=1)
    functional, frun = run_functional(snippet, kernel, (4, 1, 1), job)
    assert np.array_equal(timed.memory.buffer("O").data, functional.memory.buffer("O").data)
    notes = [str(n) for _wave, (_span, n) in functional.functional.notes]
    if note is None:
        assert frun.batched == frun.instructions and not notes
    else:
        assert frun.batched == frun.instructions - 4 and any(note in n for n in notes)


def test_a_mode_change_left_by_an_earlier_run_does_not_send_this_run_per_wave(tmp_path):
    """s_setreg's MODE changes are kept per WaveState until it is garbage collected; a wave of an
    earlier run (still alive here) must not make a later grid give up its batched paths, and
    the run's own wave that changes MODE still goes per wave."""
    from gcnemu.sim.context import _HWREGS, Ctx
    path = tmp_path / "denormals.s"
    path.write_text(DENORMALS.format(descriptor=""))
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    job = GridJob(str(path), None)
    earlier, _ = run_functional(snippet, kernel, (1, 1, 1), job)
    old_wave = earlier.waves[0]
    Ctx(old_wave, kernel.instructions[0]).set_hwreg(1, 0)  # MODE of a wave of the earlier run
    assert id(old_wave) in _HWREGS
    _, frun = run_functional(snippet, kernel, (3, 1, 1), job)
    assert frun.batched == frun.instructions

    changed = tmp_path / "changed.s"
    changed.write_text(DENORMALS.format(descriptor="").replace(
        "  s_mov_b32 s8, 0x00400000", "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0\n  s_mov_b32 s8, 0x00400000"))
    snippet = load_snippet(str(changed))
    kernel = snippet.kernel()
    job = GridJob(str(changed), None)
    timed, _ = run_grid(snippet, kernel, (3, 1, 1), job, jobs=1)
    functional, frun = run_functional(snippet, kernel, (3, 1, 1), job)
    assert frun.batched < frun.instructions
    assert np.array_equal(timed.memory.buffer("O").data, functional.memory.buffer("O").data)
