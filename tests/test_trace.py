"""Chrome trace-event export: valid JSON with wave, pipe and counter tracks."""
from __future__ import annotations

import json

import numpy as np

import gcnemu
from gcnemu.cli import main
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.trace import PID_COUNTERS, PID_PIPES, PID_WAVES, trace_json, write_trace
from gcnemu.simulation import Simulation

SRC = """\
global_load_dword v2, v1, s[0:1]
global_load_dword v3, v1, s[0:1] offset:4
v_mfma_f32_4x4x1f32 a[0:3], v1, v1, 0
s_waitcnt vmcnt(0)
v_add_u32 v4, v2, v3
s_endpgm
"""


def sim(waves: int = 2) -> Simulation:
    setup = Setup(workgroup_size=(64 * waves, 1, 1), vgprs={"v1": np.arange(64) * 4})
    setup.buffers.append(BufferSpec("A", np.arange(128, dtype=np.uint32), sgpr="s[0:1]"))
    s = Simulation(resolve(gcnemu.parse(SRC), "gfx90a", validate_first=False), setup).run()
    assert s.error is None, s.error
    return s


def test_trace_has_wave_pipe_and_counter_tracks(tmp_path):
    s = sim()
    path = tmp_path / "t.json"
    write_trace(s, str(path))
    data = json.loads(path.read_text())
    ev = data["traceEvents"]
    names = {e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] in ("thread_name", "process_name")}
    assert {"waves", "pipes", "counters", "wave 0 issue (SIMD 0)", "wave 1 in flight"} <= names
    assert any(n.startswith("mfma SIMD") for n in names) and "vmem (CU)" in names
    counters = [e for e in ev if e["ph"] == "C"]
    vm = [e["args"]["vmcnt"] for e in counters if e["name"] == "wave 0 vmcnt"]
    assert max(vm) == 2 and vm[-1] == 0
    assert all(e["pid"] == PID_COUNTERS for e in counters)
    assert any(e["ph"] == "X" and e["pid"] == PID_PIPES for e in ev)


def test_issue_track_slices_do_not_overlap_and_stalls_are_named():
    ev = trace_json(sim())["traceEvents"]
    for tid in (0, 2):
        xs = sorted((e["ts"], e["ts"] + e["dur"]) for e in ev
                    if e["ph"] == "X" and e["pid"] == PID_WAVES and e["tid"] == tid)
        assert xs and all(a_end <= b_start for (_, a_end), (b_start, _) in zip(xs, xs[1:]))
    stalls = {e["name"] for e in ev if e.get("cat") == "stall"}
    assert "stall: waitcnt vmcnt" in stalls


def test_async_slices_pair_up():
    ev = trace_json(sim(1))["traceEvents"]
    begins = {e["id"]: e["ts"] for e in ev if e["ph"] == "b"}
    ends = {e["id"]: e["ts"] for e in ev if e["ph"] == "e"}
    assert begins.keys() == ends.keys() and all(ends[k] > begins[k] for k in begins)


def test_timeline_trace_option_writes_the_file(tmp_path, capsys):
    src = tmp_path / "k.s"
    src.write_text("v_mov_b32 v1, 0\ns_nop 2\ns_endpgm\n")
    out = tmp_path / "out.json"
    assert main(["timeline", str(src), "--trace", str(out)]) == 0
    assert "trace written" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["otherData"]["cycles"] > 0 and data["traceEvents"]
