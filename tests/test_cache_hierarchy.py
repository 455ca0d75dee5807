"""Global loads walk the target's cache hierarchy: a repeated load hits the vector L1, a load of
lines nothing touched comes from HBM, a working set larger than the L1 comes back from L2. A flat
latency the user chooses wins; the TOML file can change a level and names a bad one at its line."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.diagnostics import GcnemuError
from gcnemu.asm.resolve import resolve
from gcnemu.cli import main
from gcnemu.isa.targets import TARGETS
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.latency import load_toml
from gcnemu.simulation import Simulation

LANE = np.arange(64, dtype=np.uint32)
VECTOR_ADD = str(Path(__file__).resolve().parents[1] / "programs" / "vector_add.s")


def run(src: str, target: str = "gfx942", latencies=None, stride: int = 4) -> Simulation:
    setup = Setup(workgroup_size=(64, 1, 1), vgprs={"v1": LANE * stride})
    setup.buffers.append(BufferSpec("A", np.zeros(64 * 1024, dtype=np.uint32), sgpr="s[0:1]"))
    sim = Simulation(resolve(gcnemu.parse(src.strip() + "\ns_endpgm\n"), target, validate_first=False), setup,
                     latencies=latencies)
    sim.run()
    assert sim.error is None, sim.error
    return sim


def latency(sim: Simulation, n: int) -> int:
    """Issue to data of the n-th issued instruction."""
    rec = sim.engine.records[n]
    return rec.complete - rec.issue


def levels(sim: Simulation) -> list[str]:
    """The level each load hit, in program order."""
    return [next(iter(sim.engine.cache_hits[i])) for i in sorted(sim.engine.cache_hits)]


TWICE = """
global_load_dword v2, v1, s[0:1]
s_waitcnt vmcnt(0)
global_load_dword v3, v1, s[0:1]
s_waitcnt vmcnt(0)
"""


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_repeated_load_hits_l1_after_coming_from_hbm(target):
    sim = run(TWICE, target)
    h = TARGETS[target].hierarchy
    assert levels(sim) == ["HBM", "L1"]
    extra = 64 * 4 // sim.engine.lat.vmem_bytes_per_cycle
    assert latency(sim, 0) == h.memory_latency + extra
    assert latency(sim, 2) == h.levels[0].latency + extra


def test_a_working_set_larger_than_l1_comes_back_from_l2():
    # 64 lanes x 8 loads x 128-byte stride = 512 lines of 128 B: twice gfx942's 32 KiB L1
    sweep = "".join(f"global_load_dword v{10 + k}, v1, s[0:1] offset:{k * 64 * 128}\n" for k in range(8))
    sim = run(sweep + "s_waitcnt vmcnt(0)\nglobal_load_dword v2, v1, s[0:1]\ns_waitcnt vmcnt(0)\n", stride=128)
    assert levels(sim) == ["HBM"] * 8 + ["L2"]


def test_a_flat_vmem_latency_wins_and_no_level_is_named():
    sim = run(TWICE, latencies={"vmem": 300})
    assert latency(sim, 0) == latency(sim, 2) == 300 + 64 * 4 // sim.engine.lat.vmem_bytes_per_cycle
    assert sim.engine.cache_hits == {}


def test_a_store_leaves_l1_and_the_next_load_hits_l2():
    sim = run("global_load_dword v2, v1, s[0:1]\ns_waitcnt vmcnt(0)\nglobal_store_dword v1, v2, s[0:1]\n"
              "s_waitcnt vmcnt(0)\nglobal_load_dword v3, v1, s[0:1]\ns_waitcnt vmcnt(0)\n")
    assert levels(sim) == ["HBM", "L2"]


def test_the_toml_file_changes_a_level(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("[cache.L1]\nlatency = 40\n\n[cache.HBM]\nlatency = 2000\n")
    sim = run(TWICE, latencies=load_toml(str(f)))
    extra = 64 * 4 // sim.engine.lat.vmem_bytes_per_cycle
    assert (latency(sim, 0), latency(sim, 2)) == (2000 + extra, 40 + extra)


@pytest.mark.parametrize("text, where, message", [
    ("[latency]\nlds = 40\n\n[cache.L3]\nlatency = 400\n", ":4:8: error: ", "unknown cache level 'L3'"),
    ("[cache.L1]\nlatency = 50\nways = 4\n", ":3:1: error: ", "unknown setting 'ways' for cache level L1"),
    ("[cache.HBM]\nsize = 4096\n", ":2:1: error: ", "unknown setting 'size' for cache level HBM"),
    ("[cache.L2]\nline = 96\n", ":2:1: error: ", "must be a power of two"),
    ("[latency]\nvmemx = 3\n", ":2:1: error: ", "unknown latency 'vmemx'"),
])
def test_a_bad_cache_name_is_an_error_at_its_line(tmp_path, text, where, message):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(GcnemuError) as e:
        load_toml(str(f))
    assert f"{f}{where}" in str(e.value) and message in str(e.value) and "^" in str(e.value)


def test_run_notes_user_latencies_once(capsys):
    main(["run", VECTOR_ADD, "--latency", "vmem=300"])
    out = capsys.readouterr().out
    assert len(re.findall(r"note: this run uses user latencies \(vmem=300\)", out)) == 1
    main(["run", VECTOR_ADD])
    assert "user latencies" not in capsys.readouterr().out
