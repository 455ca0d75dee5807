"""Chrome trace-event export: valid trace-event JSON with workgroup, wave, pipe and counter tracks."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

import gcnemu
from gcnemu.cli import main
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.trace import PIPE_TID0, trace_json, wave_tids, write_trace
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
    assert {"workgroup (0, 0, 0)", "wave 0 issue (SIMD 0)", "wave 0 stalls", "wave 1 in flight"} <= names
    assert any(n.startswith("mfma SIMD") for n in names) and "vmem (CU)" in names
    counters = [e for e in ev if e["ph"] == "C"]
    vm = [e["args"]["vmcnt"] for e in counters if e["name"] == "wave 0 vmcnt"]
    assert max(vm) == 2 and vm[-1] == 0
    assert {e["pid"] for e in ev} == {1}  # one workgroup: one process
    assert any(e["ph"] == "X" and e["tid"] >= PIPE_TID0 for e in ev)


def test_stalls_are_named_on_their_own_track():
    ev = trace_json(sim())["traceEvents"]
    issue, stalls, _ = wave_tids(0)
    on_stalls = [e for e in ev if e["ph"] == "X" and e["tid"] == stalls]
    assert on_stalls and all(e["cat"] == "stall" for e in on_stalls)
    assert "stall: waitcnt vmcnt" in {e["name"] for e in on_stalls}
    assert all(e["cat"] != "stall" for e in ev if e["ph"] == "X" and e["tid"] == issue)


def test_async_slices_pair_up():
    ev = trace_json(sim(1))["traceEvents"]
    begins = {e["id"]: e["ts"] for e in ev if e["ph"] == "b"}
    ends = {e["id"]: e["ts"] for e in ev if e["ph"] == "e"}
    assert begins.keys() == ends.keys() and all(ends[k] > begins[k] for k in begins)


def test_units_are_stated_and_one_cycle_is_one_trace_microsecond():
    s = sim(1)
    data = trace_json(s)
    assert data["displayTimeUnit"] in ("ms", "ns")  # the only values the format allows
    assert data["otherData"]["trace_us_per_cycle"] == 1
    assert "1 us of trace time = 1 cycle" in data["otherData"]["time_unit"]
    begins = {e["id"]: e for e in data["traceEvents"] if e["ph"] == "b"}
    ends = {e["id"]: e["ts"] for e in data["traceEvents"] if e["ph"] == "e"}
    assert begins and all(ends[k] == b["args"]["complete"] and b["ts"] == b["args"]["issue"]
                          for k, b in begins.items())  # in flight from its issue cycle to its completion cycle
    assert max(ends.values()) <= s.engine.cycle
    x = next(e for e in data["traceEvents"] if e["ph"] == "X" and e["name"] == "global_load_dword")
    assert x["ts"] == x["args"]["issue"] and x["dur"] == s.engine.interval


# ---------------------------------------------------------------- the trace-event format

# The parts of the Trace Event Format (the JSON Object Format: traceEvents plus metadata) gcnemu
# writes, as a JSON Schema: per phase, the fields the format requires.
_BASE = {"pid": {"type": "integer"}, "tid": {"type": "integer"}, "name": {"type": "string"},
         "cat": {"type": "string"}, "args": {"type": "object"}, "ts": {"type": "number", "minimum": 0}}
SCHEMA = {
    "type": "object",
    "required": ["traceEvents"],
    "properties": {
        "displayTimeUnit": {"enum": ["ms", "ns"]},
        "otherData": {"type": "object"},
        "traceEvents": {"type": "array", "items": {"oneOf": [
            {"properties": {"ph": {"const": "X"}, **_BASE, "dur": {"type": "number", "minimum": 0}},
             "required": ["ph", "pid", "tid", "ts", "dur", "name"]},
            {"properties": {"ph": {"enum": ["B", "E"]}, **_BASE}, "required": ["ph", "pid", "tid", "ts"]},
            {"properties": {"ph": {"enum": ["b", "e"]}, **_BASE, "id": {"type": ["string", "integer"]}},
             "required": ["ph", "pid", "ts", "id", "cat", "name"]},
            {"properties": {"ph": {"const": "C"}, **_BASE,
                            "args": {"type": "object", "additionalProperties": {"type": "number"}}},
             "required": ["ph", "pid", "ts", "name", "args"]},
            {"properties": {"ph": {"const": "M"}, **_BASE,
                            "name": {"enum": ["process_name", "thread_name", "process_sort_index",
                                              "thread_sort_index"]}},
             "required": ["ph", "pid", "name", "args"]},
        ]}},
    },
}


def check_trace_format(data: dict) -> None:
    """The schema, then what a schema cannot say: every B has its E (and b its e) on the same
    track, and no two complete slices on one pid/tid overlap partly (viewers nest slices; one
    that starts inside another must end inside it)."""
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(data, SCHEMA)
    ev = data["traceEvents"]
    open_b: dict[tuple, list] = defaultdict(list)
    for e in sorted((e for e in ev if e["ph"] in "BE"), key=lambda e: (e["ts"], e["ph"] == "B")):
        key = (e["pid"], e["tid"])
        if e["ph"] == "B":
            open_b[key].append(e)
        else:
            assert open_b[key], f"E without its B: {e}"
            open_b[key].pop()
    assert not any(open_b.values()), "B without its E"
    asyncs: dict[tuple, list] = defaultdict(list)
    for e in ev:
        if e["ph"] in "be":
            asyncs[(e["pid"], e["cat"], e["id"])].append(e)
    for key, pair in asyncs.items():
        assert sorted(p["ph"] for p in pair) == ["b", "e"], key
        b, e = sorted(pair, key=lambda p: p["ph"])
        assert b["ts"] <= e["ts"], key
    tracks: dict[tuple, list] = defaultdict(list)
    for e in ev:
        if e["ph"] == "X":
            tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e["name"]))
    for key, xs in tracks.items():
        stack: list = []
        for start, end, name in sorted(xs, key=lambda x: (x[0], -x[1])):
            while stack and stack[-1][1] <= start:
                stack.pop()
            assert not stack or end <= stack[-1][1], f"{key}: {name} [{start}, {end}) overlaps {stack[-1]} partly"
            stack.append((start, end, name))


ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("program", ["gemm_lds_dma_gfx942.s", "batched_hgemm_4x4_lds.s", "sgemm_vector.s"])
def test_traces_of_the_example_programs_follow_the_trace_event_format(tmp_path, program, capsys):
    """The flagship GEMM's s_barrier once overlapped the barrier stall after it on one track."""
    out = tmp_path / "t.json"
    main(["timeline", str(ROOT / "programs" / program), "--trace", str(out)])
    capsys.readouterr()
    check_trace_format(json.loads(out.read_text()))


def test_a_grid_trace_has_one_process_per_workgroup(tmp_path, capsys):
    """`grid:` in the header no longer refuses --trace; each workgroup is a process track."""
    out = tmp_path / "g.json"
    assert main(["run", str(ROOT / "programs" / "grid_scale.s"), "--trace", str(out), "--jobs", "2"]) == 0
    capsys.readouterr()
    data = json.loads(out.read_text())
    check_trace_format(data)
    processes = {e["pid"]: e["args"]["name"] for e in data["traceEvents"] if e["name"] == "process_name"}
    assert sorted(processes.values()) == sorted(f"workgroup ({x}, 0, 0)" for x in range(16))
    assert {e["pid"] for e in data["traceEvents"]} == set(processes)
    assert data["otherData"]["grid"] == [16, 1, 1]
    one, src = tmp_path / "one.json", tmp_path / "first.s"
    src.write_text("\n".join(line for line in (ROOT / "programs" / "grid_scale.s").read_text().splitlines()
                             if "expect C" not in line))  # (C is only whole with all 16 workgroups)
    assert main(["run", str(src), "--grid", "1", "--trace", str(one)]) == 0
    capsys.readouterr()
    assert [e["args"]["name"] for e in json.loads(one.read_text())["traceEvents"]
            if e["name"] == "process_name"] == ["workgroup (0, 0, 0)"]


def test_perfetto_loads_the_trace_when_its_trace_processor_is_available(tmp_path, capsys):
    tp_mod = pytest.importorskip("perfetto.trace_processor")
    out = tmp_path / "t.json"
    main(["timeline", str(ROOT / "programs" / "gemm_lds_dma_gfx942.s"), "--trace", str(out)])
    capsys.readouterr()
    try:
        tp = tp_mod.TraceProcessor(trace=str(out))
    except Exception as e:  # it downloads its trace_processor_shell binary on first use
        pytest.skip(f"Perfetto's trace processor cannot start here: {type(e).__name__}")
    try:
        data = json.loads(out.read_text())
        n_x = sum(1 for e in data["traceEvents"] if e["ph"] == "X")
        rows = list(tp.query("select count(*) as n from slice where dur >= 0"))
        assert rows[0].n >= n_x
        stats = list(tp.query("select name, value from stats where severity = 'error' and value > 0"))
        assert not stats, [(s.name, s.value) for s in stats]
    finally:
        tp.close()


def test_timeline_trace_option_writes_the_file(tmp_path, capsys):
    src = tmp_path / "k.s"
    src.write_text("v_mov_b32 v1, 0\ns_nop 2\ns_endpgm\n")
    out = tmp_path / "out.json"
    assert main(["timeline", str(src), "--trace", str(out)]) == 0
    assert "trace written" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["otherData"]["cycles"] > 0 and data["traceEvents"]
