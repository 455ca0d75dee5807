"""The timing engine's interfaces: latency overrides, memory regions, inspection, snapshots."""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.diagnostics import GcnemuError
from gcnemu.isa.targets import TARGETS, Latencies, get_target
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.engine import wave_summary
from gcnemu.sim.latency import TimingConfig, load_toml, parse_overrides
from gcnemu.sim.semantics import lookup as sem_lookup
from gcnemu.simulation import Simulation

LANE = np.arange(64, dtype=np.uint32)

LOADS = """
global_load_dword v2, v1, s[0:1]
global_load_dword v3, v1, s[2:3]
s_waitcnt vmcnt(0)
v_add_u32 v4, v2, v3
s_endpgm
"""


def make(src: str = LOADS, latencies=None, target: str = "gfx90a", waves: int = 1) -> Simulation:
    setup = Setup(workgroup_size=(64 * waves, 1, 1), vgprs={"v1": LANE * 4})
    setup.buffers.append(BufferSpec("A", np.arange(256, dtype=np.uint32), sgpr="s[0:1]"))
    setup.buffers.append(BufferSpec("B", np.arange(64, dtype=np.uint32) * 100, sgpr="s[2:3]"))
    return Simulation(resolve(gcnemu.parse(src.strip() + "\n"), target, validate_first=False), setup,
                      latencies=latencies)


def done(sim: Simulation) -> Simulation:
    sim.run()
    assert sim.error is None, sim.error
    return sim


def test_every_target_has_latencies_and_the_documented_defaults():
    for t in TARGETS.values():
        assert isinstance(t.latencies, Latencies)
        assert t.latencies.issue_interval == 4 and t.latencies.mfma_pass == 4
    assert get_target("gfx908").latencies.valu_dp == 2 * get_target("gfx90a").latencies.valu_dp


def test_unknown_or_negative_latency_is_refused():
    with pytest.raises(KeyError):
        Latencies().override(nope=3)
    with pytest.raises(ValueError):
        Latencies().override(vmem=-1)
    with pytest.raises(ValueError):
        Latencies().override(issue_interval=0)


def test_cli_style_overrides_parse_and_reject_bad_input():
    assert parse_overrides(["vmem=700", "lds=32,smem=10"]).overrides == {"vmem": 700, "lds": 32, "smem": 10}
    for bad in ("vmem", "vmem=", "vmem=fast", "nosuch=3", "=4", "vmem=-5"):
        with pytest.raises(GcnemuError):
            parse_overrides([bad])


def test_vmem_override_moves_the_load_completion():
    fast = done(make(latencies={"vmem": 200}))
    slow = done(make(latencies={"vmem": 500}))
    assert slow.engine.records[0].complete - fast.engine.records[0].complete == 300
    assert slow.cycles > fast.cycles


def test_a_flat_vmem_latency_wins_over_the_cache_hierarchy():
    """By default a cold load comes from HBM (the target's hierarchy); `vmem` makes every load flat."""
    cold = done(make())
    rec = cold.engine.records[0]
    hbm = TARGETS["gfx90a"].hierarchy.memory_latency
    assert rec.complete - rec.issue == hbm + 64 * 4 // cold.engine.lat.vmem_bytes_per_cycle
    assert cold.engine.cache_hits[0] == {"HBM": 1}
    flat = done(make(latencies={"vmem": 123}))
    assert flat.engine.records[0].complete - flat.engine.records[0].issue == 123 + 64 * 4 // flat.engine.lat.vmem_bytes_per_cycle
    assert flat.engine.cache_hits == {}


def test_toml_file_overrides_latencies_and_a_buffer_region(tmp_path):
    f = tmp_path / "lat.toml"
    f.write_text('[latency]\nvmem = 100\n\n[[memory]]\nbuffer = "B"\nvmem = 900\n')
    cfg = load_toml(str(f))
    sim = done(make(latencies=cfg))
    a, b = sim.engine.records[0], sim.engine.records[1]
    nbytes = 64 * 4 // sim.engine.lat.vmem_bytes_per_cycle
    assert a.complete - a.issue == 100 + nbytes  # buffer A: the [latency] value
    assert b.complete - b.issue == 900 + nbytes  # buffer B: its region
    np.testing.assert_array_equal(sim.wave(0).v[4], LANE * 101)


@pytest.mark.parametrize("text,needle", [
    ("[latency]\nvmem = 'x'\n", "non-negative integer"),
    ("[latency]\nwarp = 3\n", "unknown latency"),
    ("[lat]\n", "unknown table"),
    ("[[memory]]\nvmem = 3\n", "needs 'buffer'"),
    ("[latency\n", "invalid TOML"),
])
def test_bad_toml_gives_a_message_naming_the_file(tmp_path, text, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(GcnemuError) as e:
        load_toml(str(f))
    assert needle in str(e.value) and "bad.toml" in str(e.value)


def test_memory_hook_makes_latency_depend_on_the_address():
    sim = make()
    b_base = sim.buffer_address("B")
    sim.engine.memtiming.hook = lambda kind, addrs, nbytes: 50 if int(addrs[0]) >= b_base else None
    done(sim)
    a, b = sim.engine.records[0], sim.engine.records[1]
    assert b.complete == max(a.complete, b.issue + 50)  # fast, but vmcnt order keeps it behind A


def test_wider_loads_take_longer():
    one = done(make("global_load_dword v2, v1, s[0:1]\ns_endpgm"))
    four = done(make("global_load_dwordx4 v[2:5], v1, s[0:1]\ns_endpgm"))
    lat = one.engine.lat
    extra = 64 * (16 - 4) // lat.vmem_bytes_per_cycle
    assert (four.engine.records[0].complete - four.engine.records[0].issue) - \
           (one.engine.records[0].complete - one.engine.records[0].issue) == extra


def test_lds_bank_conflicts_delay_the_result():
    if sem_lookup("ds_read_b32") is None:
        pytest.skip("ds_read semantics not written yet")
    src = "ds_read_b32 v2, v1\ns_waitcnt lgkmcnt(0)\ns_endpgm"
    free = make(src)  # v1 = lane * 4: 32 consecutive dwords per phase, no conflict
    done(free)
    conflicted = make(src)
    conflicted.wave(0).vgpr[1] = LANE * 128  # every lane in bank 0: 31 conflict cycles per phase
    done(conflicted)
    df = free.engine.records[0]
    dc = conflicted.engine.records[0]
    assert dc.complete - dc.issue > df.complete - df.issue
    # any conflict costs the same extra latency (pyhip: 4-bank 120, 32-bank 119 cycles); the degree
    # shows in how long the LDS stays busy (62 conflict cycles here)
    assert (dc.complete - dc.issue) - (df.complete - df.issue) == conflicted.engine.lat.lds_conflict_latency
    busy = [end - start for pipe, _simd, _wave, _index, start, end in conflicted.engine.pipe_log if pipe == "lds"]
    assert busy == [2 + 62 * conflicted.engine.lat.lds_conflict]


def test_inspection_shows_counters_in_flight_and_pipes_busy():
    sim = make()
    eng = sim.engine
    eng.run_until(10)
    assert eng.cycle == 10
    inflight = eng.inflight(0)
    assert [op.kind for op in inflight["vm"]] == ["load", "load"]
    assert all(op.complete > eng.cycle for op in inflight["vm"])
    assert inflight["lgkm"] == []
    assert {("v", 2), ("v", 3)} <= set(eng.pending_writes(0))
    busy = eng.pipes(eng.records[1].issue)
    assert [(u.pipe, u.index) for u in busy] == [("vmem", 1)]
    done(sim)
    assert eng.inflight(0)["vm"] == []


def test_snapshot_and_restore_replay_identically():
    sim = make()
    eng = sim.engine
    eng.run_until(100)
    snap = eng.snapshot()
    v4_before = sim.wave(0).v[4].copy()
    done(sim)
    first = [(r.index, r.issue, r.complete) for r in eng.records]
    final_v4 = sim.wave(0).v[4].copy()
    end = eng.cycle
    eng.restore(snap)
    assert eng.cycle == snap.cycle and len(eng.records) == snap.records
    np.testing.assert_array_equal(sim.wave(0).v[4], v4_before)  # the earlier value is back
    assert len(eng.inflight(0)["vm"]) == 2
    eng.run()
    assert [(r.index, r.issue, r.complete) for r in eng.records] == first
    np.testing.assert_array_equal(sim.wave(0).v[4], final_v4)
    assert eng.cycle == end


def test_restore_rewinds_memory_and_lds():
    if sem_lookup("global_store_dword") is None:
        pytest.skip("global_store_dword semantics not written yet")
    sim = make("global_store_dword v1, v1, s[0:1]\ns_waitcnt vmcnt(0)\ns_endpgm")
    snap = sim.engine.snapshot()
    before = sim.buffer("A", np.uint32).copy()
    done(sim)
    assert not (sim.buffer("A", np.uint32) == before).all()
    sim.engine.restore(snap)
    np.testing.assert_array_equal(sim.buffer("A", np.uint32), before)


def test_wave_summary_and_kernel_stats():
    sim = done(make())
    s = wave_summary(sim.engine, 0)
    assert s["instructions"] == 5
    # the stall total is the sum of its reasons; waiting for the loads is most of it (the second
    # load also waits a few cycles for the vector memory pipe: 256 bytes at vmem_bytes_per_cycle)
    assert sum(s["stalls"].values()) == s["stall_cycles"] > 0
    assert s["stalls"]["waitcnt vmcnt"] > 0.9 * s["stall_cycles"]
    st = sim.engine.stats()
    assert st["cycles"] == sim.cycles and st["mfma_busy_cycles"] == 0 and st["flops"] == 0


def test_too_many_waves_for_a_workgroup_is_an_error_not_a_crash():
    with pytest.raises(Exception) as e:
        make(waves=17)
    assert "16 waves" in str(e.value)


def test_timing_config_accepts_latencies_objects():
    lat = get_target("gfx90a").latencies.override(salu=9)
    sim = done(make("s_mov_b32 s4, 1\ns_endpgm", latencies=lat))
    assert sim.engine.records[0].complete == 9
    assert isinstance(TimingConfig().apply(lat), Latencies)


def test_an_attached_monitor_sees_every_issue_and_is_rewound_with_snapshots():
    class Counting:
        def __init__(self):
            self.waves = {}

        def on_issue(self, wave, index, cycle, complete):
            self.waves[wave] = self.waves.get(wave, 0) + 1
            return []

    sim = make()
    mon = Counting()
    sim.engine.attach_monitor(mon)
    sim.engine.run_until(4)
    snap = sim.engine.snapshot()
    seen = mon.waves[0]
    done(sim)
    assert mon.waves[0] == len(sim.engine.records) == 5
    sim.engine.restore(snap)
    assert mon.waves[0] == seen
