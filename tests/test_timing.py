"""The timing model's facts, pinned: issue spacing, counters, waits, barriers, overflow.

Each test states one fact of the model (see gcnemu/sim/engine.py and the sources in
gcnemu/isa/targets.py Latencies) and checks it on a small program. Cycles are
derived from the target's Latencies, not hard-coded, so a changed default moves
both sides; the *relations* (which load releases a wait, which wave waits) are the
facts under test.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.isa import mfma
from gcnemu.isa.targets import get_target
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.counters import (RULE_LDS_DMA_READ, RULE_MFMA_READ, RULE_SMEM_READ, RULE_VMEM_READ)
from gcnemu.sim.semantics import lookup as sem_lookup
from gcnemu.simulation import Simulation

LANE = np.arange(64, dtype=np.uint32)


def build(src: str, target: str = "gfx90a", setup: Setup | None = None, latencies=None,
          unmodelled: bool = False) -> Simulation:
    kernel = resolve(gcnemu.parse(src.strip() + "\n"), target, validate_first=False)
    sim = Simulation(kernel, setup or Setup(), latencies=latencies)
    sim.engine.allow_unmodelled = unmodelled
    return sim


def run(sim: Simulation) -> Simulation:
    sim.run()
    assert sim.error is None, sim.error
    return sim


def recs(sim: Simulation, wave: int = 0):
    """Issue records of one wave by source line (last execution wins)."""
    return {sim.kernel.instructions[r.index].span.line: r for r in sim.engine.records if r.wave == wave}


def turn(cycle: int, simd: int = 0, target: str = "gfx90a") -> int:
    """The first issue turn of `simd` at or after `cycle`: a released wave issues then."""
    iv = get_target(target).latencies.issue_interval
    return cycle + (simd - cycle) % iv


def buffer_setup(n: int = 64, waves: int = 1, sgpr: str = "s[0:1]") -> Setup:
    s = Setup(workgroup_size=(64 * waves, 1, 1), vgprs={"v1": LANE * 4})
    s.buffers.append(BufferSpec("A", np.arange(1, n + 1, dtype=np.uint32) * 10, sgpr=sgpr))
    return s


# ------------------------------------------------------------------ MFMA issue spacing

def _mfma_classes():
    for target in mfma.TARGETS:
        seen = {}
        for info in mfma.catalog(target):
            key = (info.passes, info.kind)
            if key not in seen and not info.sparse and not info.scaled:
                seen[key] = info
        for (passes, kind), info in sorted(seen.items()):
            yield pytest.param(target, info.name, id=f"{target}-{kind}-{passes}pass-{info.name}")


def _mfma_line(info, dst: int) -> str:
    def rng(p, base, n):
        return f"{p}{base}" if n == 1 else f"{p}[{base}:{base + n - 1}]"
    d = rng("a", dst, info.cd_regs)
    return f"{info.name} {d}, {rng('v', 0, info.a_regs)}, {rng('v', 16, info.b_regs)}, {d}"


@pytest.mark.parametrize("target,name", list(_mfma_classes()))
def test_back_to_back_independent_mfmas_issue_passes_x4_cycles_apart(target, name):
    info = mfma.lookup(name, target)
    src = f"{_mfma_line(info, 0)}\n{_mfma_line(info, 64)}\n{_mfma_line(info, 128)}\ns_endpgm"
    sim = run(build(src, target))
    first, second, third = sim.engine.records[:3]
    assert second.issue - first.issue == info.passes * 4
    assert third.issue - second.issue == info.passes * 4
    assert second.stalls == {"pipe busy": second.issue - second.ready}
    assert first.complete - first.issue == info.passes * 4


def test_mfma_result_read_before_its_passes_is_a_hazard_and_reads_the_old_value():
    src = """
    v_mov_b32 v1, 1.0
    v_mov_b32 v2, 1.0
    v_accvgpr_write_b32 a0, 0
    s_nop 1
    v_mfma_f32_4x4x1f32 a[0:3], v1, v2, a[0:3]
    v_accvgpr_read_b32 v3, a0
    s_endpgm
    """
    if sem_lookup("v_accvgpr_write_b32") is None or sem_lookup("v_accvgpr_read_b32") is None:
        pytest.skip("v_accvgpr_read/write semantics not written yet")
    sim = run(build(src))
    # one race, named by the hazard table's rule and carrying the stale value the engine saw
    assert [h.rule for h in sim.hazards] == ["xdl-result-valu-read"]
    assert sim.hazards[0].values["a0"][0] == 0
    assert sim.wave(0).v[3].f32[0] == 0.0  # the value before the MFMA landed


def test_mfma_result_read_after_the_required_wait_states_is_clean():
    """gfx90a: a 2-pass MFMA result needs 5 wait states before a VALU (v_accvgpr_read) reads it."""
    if sem_lookup("v_accvgpr_read_b32") is None:
        pytest.skip("v_accvgpr_read semantics not written yet")
    src = """
    v_mov_b32 v1, 1.0
    v_mov_b32 v2, 1.0
    s_nop 1
    v_mfma_f32_4x4x1f32 a[0:3], v1, v2, 0
    s_nop 4
    v_accvgpr_read_b32 v3, a0
    s_endpgm
    """
    sim = run(build(src))
    assert sim.hazards == []
    assert sim.wave(0).v[3].f32[0] == 1.0


# ------------------------------------------------------------------ issue and wait states

def test_one_wave_issues_once_per_simd_turn():
    lat = get_target("gfx90a").latencies
    sim = run(build("s_mov_b32 s4, 1\ns_mov_b32 s5, 2\ns_mov_b32 s6, 3\ns_endpgm"))
    issues = [r.issue for r in sim.engine.records]
    assert issues == [0, lat.issue_interval, 2 * lat.issue_interval, 3 * lat.issue_interval]


@pytest.mark.parametrize("n", [0, 1, 7, 15])
def test_s_nop_n_gives_n_plus_1_wait_states(n):
    iv = get_target("gfx90a").latencies.issue_interval
    sim = run(build(f"s_nop {n}\ns_mov_b32 s4, 1\ns_endpgm"))
    nop, nxt = sim.engine.records[:2]
    assert nxt.issue - nop.issue == (n + 1) * iv
    assert nxt.stalls == ({"nop": n * iv} if n else {})
    assert nxt.slot - nop.slot == n + 1  # wait states counted for the hazard monitor


def test_interlocked_alu_dependency_stalls_instead_of_reading_stale():
    lat = get_target("gfx90a").latencies
    src = """
    v_mov_b32 v1, 2.0
    v_exp_f32 v2, v1
    v_add_u32 v3, v2, v2
    s_endpgm
    """
    if sem_lookup("v_exp_f32") is None:
        pytest.skip("v_exp_f32 semantics not written yet")
    sim = run(build(src))
    r = recs(sim)
    assert r[3].issue == r[2].issue + lat.valu_trans
    # the transcendental also holds the SIMD's VALU for those cycles (isa.coissue), and the
    # pipe is checked first: either way the reader waits, it never reads the stale v2
    assert set(r[3].stalls) & {"dependency", "pipe busy"}
    assert sim.hazards == []


def test_latency_override_from_the_api_moves_completion():
    sim = run(build("v_mov_b32 v1, 0\ns_endpgm", latencies={"valu": 12}))
    assert sim.engine.records[0].complete - sim.engine.records[0].issue == 12


# ------------------------------------------------------------------ vmcnt

THREE_LOADS = """
v_mov_b32 v9, 0  ; v1 = lane * 4 comes from the setup
global_load_dword v2, v1, s[0:1]
global_load_dword v3, v1, s[0:1] offset:256
global_load_dwordx4 v[4:7], v1, s[0:1] offset:512
s_waitcnt vmcnt(1)
v_mov_b32 v8, v4
v_mov_b32 v9, v3
s_endpgm
"""


def _need(*names):
    missing = [n for n in names if sem_lookup(n) is None]
    if missing:
        pytest.skip(f"semantics not written yet: {', '.join(missing)}")


def test_waitcnt_vmcnt_1_after_three_loads_releases_when_the_second_returns():
    _need("global_load_dword", "global_load_dwordx4")
    sim = run(build(THREE_LOADS, setup=buffer_setup(512)))
    r = recs(sim)
    load1, load2, load3, wait = r[2], r[3], r[4], r[5]
    assert load1.complete < load2.complete < load3.complete  # vector memory returns in order
    assert wait.issue == turn(load2.complete) and wait.issue < load3.complete
    assert wait.stalls == {"waitcnt vmcnt": wait.issue - wait.ready}
    # v3 (second load) is there; v4 (third, a wider and slower load) is not: the
    # read right after the wait is stale and reported
    A = np.arange(1, 513, dtype=np.uint32) * 10
    np.testing.assert_array_equal(sim.wave(0).v[9], A[64:128])
    assert not (sim.wave(0).v[8] == A[128:192]).any()  # v4 had not landed yet
    np.testing.assert_array_equal(sim.wave(0).v[4], A[128:192])  # it did later
    assert [h.rule for h in sim.hazards] == [RULE_VMEM_READ]
    assert sim.hazards[0].registers == [("v", 4)]


def test_vector_memory_returns_in_order_even_when_a_younger_access_is_faster():
    _need("global_load_dword", "global_store_dword")
    src = """
    v_mov_b32 v9, 0  ; v1 = lane * 4 comes from the setup
    global_load_dword v2, v1, s[0:1]
    global_store_dword v1, v1, s[0:1] offset:256
    s_endpgm
    """
    sim = run(build(src, setup=buffer_setup(128), latencies={"vmem": 800, "vmem_store": 100}))
    r = recs(sim)
    assert r[3].complete >= r[2].complete  # the store is counted on vmcnt behind the load


def test_counter_overflow_stalls_issue_until_the_oldest_returns():
    _need("global_load_dword")
    vmax = get_target("gfx90a").vmcnt_max
    loads = "\n".join(f"global_load_dword v{2 + (k % 8)}, v1, s[0:1]" for k in range(vmax + 1))
    src = f"v_mov_b32 v9, 0  ; v1 = lane * 4 comes from the setup\n{loads}\ns_waitcnt vmcnt(0)\ns_endpgm"
    sim = run(build(src, setup=buffer_setup(64)))
    loads_r = [r for r in sim.engine.records if sim.engine.decoded[r.index].pipe == "vmem"]
    last = loads_r[-1]
    assert "counter full" in last.stalls
    assert last.issue >= loads_r[0].complete  # waited for the oldest to return
    for r in loads_r[:-1]:
        assert "counter full" not in r.stalls


# ------------------------------------------------------------------ lgkmcnt and SMEM order

SMEM_OOO = """
s_load_dwordx16 s[8:23], s[0:1], 0x0
s_load_dword s24, s[0:1], 0x40
s_waitcnt lgkmcnt({n})
s_mov_b32 s30, s8
s_endpgm
"""


def test_smem_returns_out_of_order_and_only_lgkmcnt_0_covers_it():
    unmodelled = sem_lookup("s_load_dwordx16") is None
    wide, narrow, wait = 1, 2, 3
    sim = build(SMEM_OOO.format(n=1), setup=buffer_setup(64), unmodelled=unmodelled)
    run(sim)
    r = recs(sim)
    assert r[narrow].complete < r[wide].complete  # out of order: the narrow one is back first
    assert r[wait].issue == turn(r[narrow].complete)  # lgkmcnt(1) releases on it...
    if not unmodelled:
        assert any(h.rule == RULE_SMEM_READ for h in sim.hazards)  # ...and s8 is read stale
    sim0 = run(build(SMEM_OOO.format(n=0), setup=buffer_setup(64), unmodelled=unmodelled))
    r0 = recs(sim0)
    assert r0[wait].issue == turn(r0[wide].complete)  # lgkmcnt(0) waits for the slow SMEM
    assert r0[wait].stalls == {"waitcnt lgkmcnt": r0[wait].issue - r0[wait].ready}
    assert sim0.hazards == []


def test_lgkmcnt_counts_lds_and_smem_together():
    _need("ds_read_b32")
    unmodelled = sem_lookup("s_load_dword") is None
    src = """
    v_mov_b32 v1, 0
    s_load_dword s24, s[0:1], 0x0
    ds_read_b32 v2, v1
    s_waitcnt lgkmcnt(1)
    s_waitcnt lgkmcnt(0)
    s_endpgm
    """
    sim = run(build(src, setup=buffer_setup(64), unmodelled=unmodelled))
    r = recs(sim)
    first_back = min(r[2].complete, r[3].complete)
    assert r[4].issue == turn(max(first_back, r[4].ready))
    assert r[5].issue == turn(max(r[2].complete, r[3].complete, r[5].ready))


# ------------------------------------------------------------------ LDS DMA on vmcnt

LDS_DMA = """
s_mov_b32 m0, 0
v_mov_b32 v9, 0  ; v1 = lane * 4 comes from the setup
s_nop 0
buffer_load_dword v1, s[8:11], 0 offen lds
{wait}
ds_read_b32 v2, v1
s_waitcnt lgkmcnt(0)
s_endpgm
"""


def _lds_dma_sim(wait: str) -> Simulation:
    _need("buffer_load_dword", "ds_read_b32")
    setup = Setup(vgprs={"v1": LANE * 4})
    setup.buffers.append(BufferSpec("A", np.arange(100, 164, dtype=np.uint32), rsrc="s[8:11]"))
    setup.lds_init = np.full(64, 7, dtype=np.uint32)
    return run(build(LDS_DMA.format(wait=wait), setup=setup))


def test_lds_dma_then_waitcnt_vmcnt_0_then_ds_read_reads_the_new_data():
    sim = _lds_dma_sim("s_waitcnt vmcnt(0)")
    np.testing.assert_array_equal(sim.wave(0).v[2], np.arange(100, 164))
    assert sim.hazards == []
    r = recs(sim)
    assert r[5].stalls.get("waitcnt vmcnt", 0) > 0  # the DMA is counted on vmcnt, not lgkmcnt


def test_lds_dma_without_the_wait_reads_the_old_data_and_raises_a_hazard():
    sim = _lds_dma_sim("")
    np.testing.assert_array_equal(sim.wave(0).v[2], np.full(64, 7))
    assert [h.rule for h in sim.hazards] == [RULE_LDS_DMA_READ]
    h = sim.hazards[0]
    assert sim.kernel.instructions[h.producer].mnemonic == "buffer_load_dword"
    assert sim.kernel.instructions[h.consumer].mnemonic == "ds_read_b32"


def test_lds_dma_waited_with_lgkmcnt_only_is_still_a_hazard():
    sim = _lds_dma_sim("s_waitcnt lgkmcnt(0)")
    assert [h.rule for h in sim.hazards] == [RULE_LDS_DMA_READ]


# ------------------------------------------------------------------ workgroups

BARRIER = """
v_mov_b32 v1, 1
v_mov_b32 v2, 2
v_mov_b32 v3, 3
v_mov_b32 v4, 4
s_barrier
s_mov_b32 s4, 1
s_endpgm
"""


def test_a_barrier_holds_the_fastest_wave():
    # Waves 0 and 4 share SIMD 0; wave 0 wins every VALU turn (older), so it reaches the
    # barrier first and must wait there for wave 4.
    sim = run(build(BARRIER, setup=Setup(workgroup_size=(64 * 5, 1, 1))))
    fast, slow = recs(sim, 0), recs(sim, 4)
    assert fast[5].ready < slow[5].ready  # wave 0 arrived first
    assert fast[5].stalls.get("barrier", 0) == slow[5].ready - fast[5].ready
    assert fast[5].issue == slow[5].ready  # released when the last wave arrived
    assert fast[6].issue > slow[5].ready  # its next instruction waited for wave 4
    without = run(build(BARRIER.replace("s_barrier", "s_nop 0"), setup=Setup(workgroup_size=(64 * 5, 1, 1))))
    assert recs(without, 0)[6].issue < fast[6].issue


def test_waves_go_to_simds_round_robin_and_run_mfmas_in_parallel():
    info = mfma.lookup("v_mfma_f32_32x32x2f32", "gfx90a")
    src = f"{_mfma_line(info, 0)}\n{_mfma_line(info, 64)}\ns_endpgm"
    sim = run(build(src, setup=Setup(workgroup_size=(256, 1, 1))))
    assert [w.simd for w in sim.engine.waves] == [0, 1, 2, 3]
    ends = [recs(sim, w)[2].issue for w in range(4)]
    assert max(ends) - min(ends) < get_target("gfx90a").latencies.issue_interval  # no SIMD waited for another
    st = sim.engine.stats()
    assert st["flops"] == 8 * info.flops
    assert 0 < st["mfma_utilisation"] <= 1
    assert st["peak_flops_per_cycle"] == pytest.approx(4 * info.flops / (info.passes * 4))


def test_two_waves_on_one_simd_share_its_matrix_core():
    info = mfma.lookup("v_mfma_f32_32x32x2f32", "gfx90a")
    sim = run(build(f"{_mfma_line(info, 0)}\ns_endpgm", setup=Setup(workgroup_size=(64 * 5, 1, 1))))
    a, b = recs(sim, 0)[1], recs(sim, 4)[1]
    assert b.issue - a.issue == info.passes * 4
    assert b.stalls == {"pipe busy": b.issue - b.ready}


def test_arbitration_prefers_priority_then_age():
    src = "v_mov_b32 v1, 1\nv_mov_b32 v2, 2\nv_mov_b32 v3, 3\ns_endpgm"
    setup = Setup(workgroup_size=(64 * 5, 1, 1))
    same = run(build(src, setup=setup))
    assert recs(same, 0)[3].issue < recs(same, 4)[3].issue  # equal priority: the older wave first
    raised = build(src, setup=Setup(workgroup_size=(64 * 5, 1, 1)))
    raised.engine.waves[4].priority = 3  # what `s_setprio 3` in wave 4 does
    run(raised)
    assert recs(raised, 4)[3].issue < recs(raised, 0)[3].issue
    assert recs(raised, 0)[1].stalls.get("pipe busy", 0) > 0


def test_s_setprio_sets_the_wave_priority_used_by_arbitration():
    sim = run(build("s_setprio 2\ns_endpgm"))
    assert sim.engine.waves[0].priority == 2
