"""The dynamic monitor applies the linter's rules to the executed issue stream.

Static and dynamic verdicts must agree on straight-line code: for every
positive and negative hazard case the simulator can run, the set of
(rule, consumer, producer) the monitor reports over ``engine.records`` equals
the linter's.  Cases with instructions the simulator does not model yet are
skipped with the simulator's reason; the pure issue-stream tests below do not
need the simulator at all.
"""
from __future__ import annotations

import numpy as np
import pytest

from gcnemu.analysis.lint import analyze_program
from gcnemu.analysis.monitor import HazardMonitor, replay
from gcnemu.asm.parse import parse
from gcnemu.asm.resolve import resolve
from gcnemu.setup import Setup
from gcnemu.simulation import Simulation
from hazard_cases import gen

BUILT = gen.all_built()
PROGRAMS = [(f"{b.label}:{kind}", b.target, text) for b in BUILT
            for kind, text in (("pos", b.positive), ("neg", b.negative)) if text]


def static_set(text: str, target: str) -> set[tuple]:
    an = analyze_program(parse(text, "c.s"), target)
    return ({(h.rule.id, h.consumer, h.producer) for h in an.wait_hazards}
            | {(h.rule, h.consumer, h.producer) for h in an.counter_hazards})


ADDRESS_PAIRS = (100, 240)  # the cases address memory through v[100:101] / v[240:241]


def run(text: str, target: str, setup: Setup | None = None):
    kernel = resolve(parse(text, "c.s"), target, validate_first=False)
    setup = setup or Setup().add_buffer("scratch", np.zeros(4096, dtype=np.uint32))
    sim = Simulation(kernel, setup)
    if any(b.name == "scratch" for b in setup.buffers):
        base = sim.buffer_address("scratch")
        for w in sim.waves:
            for r in ADDRESS_PAIRS:
                w.vgpr[r] = base & 0xFFFFFFFF
                w.vgpr[r + 1] = base >> 32
                w.vgpr_init[r] = w.vgpr_init[r + 1] = True
    sim.run()
    return kernel, sim


def dynamic_set(kernel, sim) -> set[tuple]:
    return {(e.rule, e.consumer, e.producer) for e in replay(kernel, sim.engine.records)}


@pytest.mark.parametrize("label,target,text", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_static_and_dynamic_agree_on_straight_line_cases(label, target, text):
    try:
        kernel, sim = run(text, target)
    except Exception as e:  # launch problems belong to the simulator's tests
        pytest.skip(f"simulator: {e}")
    if sim.error is not None:
        pytest.skip(f"simulator: {sim.error.message}")
    st = static_set(text, target)
    assert dynamic_set(kernel, sim) == st
    if label.endswith(":pos"):
        assert st, "a positive case must report something"


def test_enough_cases_run_in_the_simulator():
    """Guard against the agreement test silently skipping everything."""
    ran = 0
    for _, target, text in PROGRAMS:
        try:
            _, sim = run(text, target)
        except Exception:
            continue
        ran += sim.error is None
    assert ran >= 100


COUNTER_PROGRAM = """\t.text
k:
\tv_mov_b32 v1, 0
\tglobal_load_dword v4, v1, s[4:5]
\tglobal_load_dword v5, v1, s[4:5] offset:4
\tglobal_load_dword v6, v1, s[4:5] offset:8
\ts_waitcnt vmcnt(2)
\tv_add_f32 v7, v5, v5
\ts_waitcnt vmcnt(0)
\tds_write_b32 v1, v4
\tds_read_b32 v8, v1
\tv_add_f32 v9, v8, v8
\ts_waitcnt lgkmcnt(0)
\ts_endpgm
"""


def test_counter_hazards_agree_with_a_real_run():
    setup = Setup().add_buffer("buf", np.arange(16, dtype=np.float32), sgpr="s[4:5]")
    kernel, sim = run(COUNTER_PROGRAM, "gfx90a", setup)
    assert sim.error is None
    st = static_set(COUNTER_PROGRAM, "gfx90a")
    assert {r for r, _, _ in st} == {"vmem-result-before-vmcnt", "ds-result-before-lgkmcnt"}
    assert dynamic_set(kernel, sim) == st


def test_issue_stream_without_the_simulator():
    """on_issue over a hand-made stream (wave 0 straight line, wave 1 interleaved) matches the linter."""
    text = next(b.positive for b in BUILT if b.label == "xdl-result-valu-read@gfx90a/16p")
    prog = parse(text, "c.s")
    kernel = resolve(prog, "gfx90a", validate_first=False)
    mon = HazardMonitor(kernel)
    events = []
    n = len(kernel.instructions)
    for i in range(n):  # two waves issuing alternately must not see each other's instructions
        events += mon.on_issue(0, i, 2 * i)
        events += mon.on_issue(1, i, 2 * i + 1)
    st = static_set(text, "gfx90a")
    assert {(e.rule, e.consumer, e.producer) for e in events if e.wave == 0} == st
    assert {(e.rule, e.consumer, e.producer) for e in events if e.wave == 1} == st
    e = next(e for e in events if e.wave == 0)
    assert e.registers == [("v", 1)] and "19 required" in e.message


def test_loop_hazard_seen_on_the_executed_back_edge():
    text = """\t.text
k:
\ts_mov_b32 s2, 2
loop:
\tv_add_f32 v20, v1, v21
\tv_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]
\ts_sub_u32 s2, s2, 1
\ts_cmp_lg_u32 s2, 0
\ts_cbranch_scc1 loop
\ts_nop 15
\ts_nop 3
\ts_endpgm
"""
    kernel, sim = run(text, "gfx90a")
    if sim.error is not None:
        pytest.skip(f"simulator: {sim.error.message}")
    events = replay(kernel, sim.engine.records)
    # the second iteration's v_add reads v1 three wait states after the first iteration's MFMA
    assert [(e.rule, e.consumer, e.producer) for e in events] == [("xdl-result-valu-read", 1, 2)]
    assert static_set(text, "gfx90a") == {("xdl-result-valu-read", 1, 2)}
