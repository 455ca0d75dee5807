"""The compiled issue loop (sim.accel_alu, numba) gives what the Python issue loop gives.

Why: a single wave's integer SALU/VALU stretches and branches issue through a compiled loop
once numba's kernels are loaded (`gcnemu[fast]`), ~15x faster on an ALU loop. It is a second
implementation of the table operations and of `Engine._run_alu`'s timing, so every result a
user sees (cycles, registers, records with their stalls, writes in flight, pipe bookkeeping,
hazards, notes) must be the Python loop's, on random programs that mix the operations it
takes with ones it leaves to Python (a float op, a load and its wait, an unplanned SALU op,
a never-written source), wherever a limit stops the run, with and without history.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim import accel, alu_compiled
from gcnemu.sim import accel_alu as A
from gcnemu.sim.engine import wave_summary
from gcnemu.simulation import Simulation

pytestmark = pytest.mark.skipif(not accel.enabled(), reason="numba (gcnemu[fast]) is not installed")

VALU2 = ["v_add_u32", "v_sub_u32", "v_subrev_u32", "v_mul_lo_u32", "v_mul_hi_u32", "v_lshlrev_b32",
         "v_lshrrev_b32", "v_and_b32", "v_or_b32", "v_xor_b32", "v_xnor_b32"]
VALU3 = ["v_add3_u32", "v_lshl_add_u32", "v_add_lshl_u32", "v_lshl_or_b32", "v_and_or_b32", "v_or3_b32",
         "v_bfi_b32", "v_bfe_u32"]
SALU2 = [m for m in A.SALU_OPS if m != "s_mov_b32"]
COMPARES = list(A.COMPARE_OPS)
# instructions the compiled loop leaves to the Python loop: each ends a compiled stretch
OTHERS = ["v_exp_f32 v{d}, v{a}", "s_bfe_u32 s{sd}, s{sa}, 0x10000", "v_cvt_f32_u32 v{d}, v{a}",
          "s_nop 1", "v_add_f32 v{d}, v{a}, v{b}"]
EDGES = [0, 1, 31, 32, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFF, 0x10000]


def _literal(rng: random.Random) -> str:
    return str(rng.choice(EDGES + [rng.getrandbits(32)])) if rng.random() < 0.5 else str(rng.randint(-16, 64))


def _instruction(rng: random.Random) -> str:
    v = lambda: f"v{rng.randint(1, 8)}"  # noqa: E731  (a source; v1 holds the load's addresses)
    d = lambda: f"v{rng.randint(2, 8)}"  # noqa: E731
    s = lambda: rng.choice([f"s{rng.randint(4, 15)}", "vcc_lo", "vcc_hi", "m0"])  # noqa: E731
    k = rng.random()
    if k < 0.3:
        src0 = rng.choice([v(), v(), s(), _literal(rng)])
        return f"{rng.choice(VALU2)} {d()}, {src0}, {v()}"
    if k < 0.4:
        return f"{rng.choice(VALU3)} {d()}, {v()}, {rng.choice([v(), s(), str(rng.randint(0, 40))])}, {v()}"
    if k < 0.5:
        return f"v_mov_b32 {d()}, {rng.choice([v(), s(), _literal(rng)])}"
    if k < 0.7:
        return f"{rng.choice(SALU2)} {s()}, {rng.choice([s(), _literal(rng)])}, {rng.choice([s(), _literal(rng)])}"
    if k < 0.78:
        return f"s_mov_b32 {s()}, {rng.choice([s(), _literal(rng)])}"
    if k < 0.85:
        return f"{rng.choice(COMPARES)} {rng.choice([s(), _literal(rng)])}, {s()}"
    if k < 0.9:  # EXEC changes: masked writes
        return f"s_mov_b32 exec_lo, {rng.choice(['-1', '0xff00ff0f', '0', str(rng.getrandbits(32))])}"
    if k < 0.93:
        return "v_add_u32 v9, v20, v1"  # v20 is never written: the general path's note
    if k < 0.96:
        return "global_load_dword v7, v1, s[0:1]\ns_waitcnt vmcnt(0)"
    return rng.choice(OTHERS).format(d=rng.randint(2, 8), a=rng.randint(1, 8), b=rng.randint(1, 8),
                                     sd=rng.randint(4, 15), sa=rng.randint(4, 15))


def program(seed: int, n: int = 24) -> str:
    rng = random.Random(seed)
    head = [f"s_mov_b32 s{i}, {rng.getrandbits(32)}" for i in range(4, 16)] + \
        ["s_mov_b32 vcc_lo, 0x12345", "s_mov_b32 vcc_hi, 7", "s_mov_b32 m0, 0", "s_mov_b32 s20, 6"]
    body = [_instruction(rng) for _ in range(n)]
    # the loop counter lives in s20, which no body instruction writes
    tail = ["s_mov_b32 exec_lo, -1", "s_sub_u32 s20, s20, 1", "s_cmp_lg_u32 s20, 0", "s_cbranch_scc1 .Lloop",
            "s_branch .Lend", "v_mov_b32 v1, 0", ".Lend:", "s_endpgm"]
    return "\n".join(head + [".Lloop:"] + body + tail) + "\n"


def simulate(src: str, compiled: bool, history: bool = True, limit: int = 100_000, latencies=None,
             waves: int = 1, target: str = "gfx90a", monitor: bool = True, max_cycles: int = 50_000_000,
             run: bool = True) -> Simulation:
    kernel = resolve(gcnemu.parse(src), target, validate_first=False)
    rng = np.random.default_rng(7)
    vgprs = {f"v{i}": rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32) for i in range(2, 9)}
    vgprs["v1"] = np.arange(64, dtype=np.uint32) * 4
    setup = Setup(workgroup_size=(64 * waves, 1, 1), vgprs=vgprs)
    setup.buffers.append(BufferSpec("A", np.arange(64, dtype=np.uint32), sgpr="s[0:1]"))
    sim = Simulation(kernel, setup, latencies=latencies, max_instructions=limit, max_cycles=max_cycles)
    sim.engine.compiled_alu = compiled
    sim.engine.keep_history = history
    if not monitor:  # (the engine's own hazard checks alone)
        sim.engine.monitor = None
    if run:
        sim.run()
    return sim


def seen(sim: Simulation) -> dict:
    eng = sim.engine
    return {
        "cycles": sim.cycles, "instructions": sim.instructions_executed,
        "error": None if sim.error is None else sim.error.message,
        "registers": [(w.sgpr.tobytes(), w.vgpr.tobytes(), w.sgpr_init.tobytes(), w.vgpr_init.tobytes(),
                       int(w.scc), int(w.pc), bool(w.done)) for w in sim.waves],
        "records": [(r.wave, r.index, r.ready, r.issue, r.complete, list(r.stalls.items()), r.slot)
                    for r in eng.records],
        "in flight": [[(reg, p.land, p.index, p.seq, p.pipe) for reg, p in w.pending.items()] for w in eng.waves],
        "events": sorted((e[0], e[1], e[3]) for e in eng.events),
        "pipes": (dict(eng.pipe_free), dict(eng.pipe_use), dict(eng.pipe_owner), list(eng.pipe_log)),
        "summary": [wave_summary(eng, i) for i in range(len(eng.waves))], "stalled": eng.stalled,
        "issued": eng.issued, "stall totals": [list(w.stall_totals.items()) for w in eng.waves],
        "waves": [(w.ready_at, w.first_try, w.hold_until, w.hold_reason, w.interlock_until, w.slots,
                   w.instructions, w.stall_reason, list(w.stalls.items())) for w in eng.waves],
        "hazards": [(h.rule, h.cycle, h.consumer, h.producer, h.message) for h in eng.hazards],
        "notes": [(wv, str(getattr(n, "message", n))) for wv, n in eng.notes],
        "monitor": {k: (v.pos, list(v.history)[-8:], v.recent[-8:], v.last) for k, v in eng.monitor.waves.items()}
        if eng.monitor is not None else None,
    }


@pytest.fixture(params=[1, alu_compiled.MIN_SPAN], ids=["every-stretch", "long-stretches"])
def min_span(request, monkeypatch):
    """The compiled loop entered at every instruction with a row (its entry and exit, with writes
    in flight both ways, at every turn), or only where the engine enters it (long stretches)."""
    monkeypatch.setattr(alu_compiled, "MIN_SPAN", request.param)
    return request.param


@pytest.mark.parametrize("monitor", [True, False], ids=["monitor", "no-monitor"])
@pytest.mark.parametrize("seed", range(12))
def test_random_programs_give_the_python_loops_results(seed: int, monitor: bool, min_span: int):
    src = program(seed)
    python = simulate(src, compiled=False, monitor=monitor)
    compiled = simulate(src, compiled=True, monitor=monitor)
    assert compiled.error is None
    if min_span == 1:
        assert compiled.engine._compiled.issued > compiled.instructions_executed // 2
    assert seen(compiled) == seen(python), src


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("limit", [5, 17, 40, 133])
def test_a_limit_stops_both_loops_at_the_same_place(seed: int, limit: int, min_span: int):
    src = program(100 + seed)
    assert seen(simulate(src, True, history=False, limit=limit)) == seen(simulate(src, False, history=False,
                                                                                  limit=limit))


@pytest.mark.parametrize("seed", range(4))
def test_other_latencies_and_no_history_give_the_same_results(seed: int, min_span: int):
    """SALU results slower than the issue interval: dependency stalls inside compiled stretches."""
    src = program(200 + seed)
    lat = {"salu": 7, "valu": 6}
    assert seen(simulate(src, True, history=False, latencies=lat)) == \
        seen(simulate(src, False, history=False, latencies=lat))


def test_a_long_loop_keeps_the_newest_records_as_the_python_loop_does():
    """Without history the run keeps only the newest issue records (RECENT_HISTORY): the compiled
    loop makes only those, across its buffer refills."""
    body = "v_add_u32 v2, v2, v1\ns_add_u32 s5, s5, 3\nv_mov_b32 v3, v2\n"
    src = f"s_mov_b32 s4, {(1 << 32) - 12000}\ns_mov_b32 s5, 0\n.Lloop:\n{body}s_add_u32 s4, s4, 1\n" \
          "s_cbranch_scc0 .Lloop\ns_endpgm\n"
    a = simulate(src, True, history=False, limit=10_000_000)
    b = simulate(src, False, history=False, limit=10_000_000)
    assert a.instructions_executed == 60_003
    assert seen(a) == seen(b)


def test_kept_counts_the_records_engine_record_leaves():
    keep = 5
    for old in range(0, 11):
        for new in range(0, 40):
            n = old
            for _ in range(new):
                n += 1
                if n > 2 * keep:
                    n = keep
            assert alu_compiled._kept(old, new, keep) == n


def test_rows_are_made_only_for_the_forms_the_loop_implements():
    src = "v_add_u32 v1, v2, v3\nv_add_u32 v1, v2, v3 clamp\nv_add_f32 v1, v2, v3\ns_add_u32 s1, s2, 5\n" \
          "s_mov_b64 s[2:3], 0\ns_cbranch_scc0 .L\nv_lshlrev_b32 v1, 2, v1\n.L:\ns_endpgm\n"
    kernel = resolve(gcnemu.parse(src), "gfx90a", validate_first=False)
    eng = Simulation(kernel, Setup(workgroup_size=(64, 1, 1))).engine
    comp = alu_compiled.CompiledALU(eng, None)
    rows = [comp.has_row(pc, eng.waves[0]) for pc in range(len(eng.decoded))]
    assert rows == [True, False, False, True, False, True, True, False]
    assert comp.prog[6, A.C_K0:A.C_K0 + 2].tolist() == [A.K_CONST, A.K_VGPR]


@pytest.mark.parametrize("op", sorted(A.VALU_OPS))
def test_every_vector_operation_matches_its_table_function(op: str, monkeypatch):
    """Random and edge-case lanes (v1, v2 set up per lane; v3 a shift-sized field) through each
    operation, compiled and through the table's lane function, under a partial EXEC too."""
    monkeypatch.setattr(alu_compiled, "MIN_SPAN", 1)
    srcs = {"v_mov_b32": "v1"}.get(op, "v1, v2, v3" if op in VALU3 else "v1, v2")
    src = f"{op} v4, {srcs}\n{op} v5, 0x80000001, {srcs.split(', ', 1)[-1]}\n" \
          f"s_mov_b32 exec_lo, 0xf0f0f0f0\n{op} v6, {srcs}\n{op} v4, s9, {srcs.split(', ', 1)[-1]}\n" \
          "s_mov_b32 exec_lo, -1\ns_endpgm\n"
    src = "s_mov_b32 s9, 0xfffffff0\n" + src
    assert seen(simulate(src, True)) == seen(simulate(src, False))


@pytest.mark.parametrize("op", sorted(set(A.SALU_OPS) | set(A.COMPARE_OPS)))
def test_every_scalar_operation_matches_its_table_function(op: str, monkeypatch):
    """Every pair of edge-case values through each scalar operation and compare; SCC kept in an
    SGPR after each (s_addc_u32 of zeros reads it back)."""
    monkeypatch.setattr(alu_compiled, "MIN_SPAN", 1)
    lines = ["s_mov_b32 s30, 0"]
    for a in EDGES:
        for b in EDGES:
            lines += [f"s_mov_b32 s4, {a}", f"s_mov_b32 s5, {b}"]
            if op in A.COMPARE_OPS:
                lines += [f"{op} s4, s5", "s_addc_u32 s6, 0, 0"]
            elif op == "s_mov_b32":
                lines += ["s_mov_b32 s6, s5"]
            else:
                lines += ["s_add_u32 s7, s4, s5", f"{op} s6, s4, s5", "s_addc_u32 s7, 0, 0"]
            lines += ["s_xor_b32 s30, s30, s6", "s_lshl_b32 s31, s30, 1", "s_add_u32 s30, s31, s7"]
    src = "s_mov_b32 s7, 0\n" + "\n".join(lines) + "\ns_endpgm\n"
    a, b = simulate(src, True), simulate(src, False)
    assert a.engine._compiled.issued == a.instructions_executed - 1  # (all but s_endpgm)
    assert seen(a) == seen(b)


def test_compiled_alu_false_keeps_the_python_loop():
    sim = simulate(program(3), compiled=False)
    assert sim.engine._compiled is None
    assert sim.engine.plan_stats()["compiled"] == {"calls": 0, "issues": 0}


def test_plan_stats_count_the_compiled_issues():
    sim = simulate(program(3), compiled=True)
    st = sim.engine.plan_stats()["compiled"]
    assert 0 < st["calls"] <= st["issues"] == sim.engine._compiled.issued
    assert st["issues"] <= sim.engine.plan_stats()["alu_runs"]["issues"]


def workgroup_program(seed: int, n: int = 20) -> str:
    """A random body for a workgroup: what `program` makes, plus s_barrier between the waves and
    per-wave work (v0 holds the lane id, s[2:3]... the waves differ by their loop counts)."""
    rng = random.Random(seed)
    body = []
    for _ in range(n):
        k = rng.random()
        if k < 0.06:
            body.append("s_barrier")
        elif k < 0.1:  # a load left in flight: ALU reads and writes of its register are hazards
            body.append(f"global_load_dword v{rng.randint(2, 8)}, v1, s[0:1]")
        elif k < 0.12:
            body.append("s_waitcnt vmcnt(0)")
        elif k < 0.14:
            body.append("s_setprio 1" if rng.random() < 0.5 else "s_setprio 0")
        else:
            body.append(_instruction(rng))
    head = [f"s_mov_b32 s{i}, {rng.getrandbits(32)}" for i in range(4, 16)] + \
        ["s_mov_b32 vcc_lo, 0x12345", "s_mov_b32 vcc_hi, 7", "s_mov_b32 m0, 0", "s_mov_b32 s20, 5"]
    tail = ["s_mov_b32 exec_lo, -1", "s_sub_u32 s20, s20, 1", "s_cmp_lg_u32 s20, 0", "s_cbranch_scc1 .Lloop",
            "s_endpgm"]
    return "\n".join(head + [".Lloop:"] + body + tail) + "\n"


@pytest.mark.parametrize("monitor", [True, False], ids=["monitor", "no-monitor"])
@pytest.mark.parametrize("waves", [2, 4])
@pytest.mark.parametrize("seed", range(8))
def test_a_workgroups_waves_give_the_python_loops_results(seed: int, waves: int, monitor: bool, min_span: int):
    """Several waves, one per SIMD (Engine._run_many): the compiled loop makes whole cycles in
    which every wave whose turn it is issues or stalls at a row, and leaves the others (a load,
    a barrier, s_setprio) to the engine, with the writes in flight handed over both ways."""
    src = workgroup_program(seed)
    python = simulate(src, compiled=False, waves=waves, monitor=monitor)
    compiled = simulate(src, compiled=True, waves=waves, monitor=monitor)
    assert seen(compiled) == seen(python), src


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("limit", [7, 50, 201])
def test_a_limit_stops_a_workgroup_at_the_same_place(seed: int, limit: int, min_span: int):
    src = workgroup_program(300 + seed)
    assert seen(simulate(src, True, history=False, limit=limit, waves=4)) == \
        seen(simulate(src, False, history=False, limit=limit, waves=4))


def test_a_workgroup_alu_loop_runs_compiled():
    """The benchmark's ALU loop on four waves: nearly every issue goes through the compiled loop."""
    body = "v_add_u32 v2, v2, v1\nv_mov_b32 v3, v2\ns_mov_b32 s5, s4\nv_add_u32 v4, v3, 1\n" \
           "s_add_u32 s6, s5, 3\nv_mov_b32 v5, v4\n"
    src = f"s_mov_b32 s4, {(1 << 32) - 300}\n.Lloop:\n{body}s_add_u32 s4, s4, 1\ns_cbranch_scc0 .Lloop\n" \
          "s_endpgm\n"
    a = simulate(src, True, waves=4)
    assert a.engine._compiled.issued > 0.95 * a.instructions_executed
    assert seen(a) == seen(simulate(src, False, waves=4))


@pytest.mark.parametrize("monitor", [True, False], ids=["monitor", "no-monitor"])
@pytest.mark.parametrize("waves", [1, 2, 4])
def test_a_load_in_flight_keeps_its_register_from_the_compiled_loop(waves: int, monitor: bool, min_span: int):
    """A VALU reading (or overwriting) a load's destination before s_waitcnt is a hazard the
    engine reports with the stale value; the compiled loop leaves such an instruction to it
    (with the monitor attached the instruction has no row; without, its register is blocked)."""
    src = "global_load_dword v3, v1, s[0:1]\n" + "v_add_u32 v5, v5, v1\n" * 6 + "v_add_u32 v4, v3, v1\n" \
          "v_mov_b32 v3, 7\n" + "v_add_u32 v5, v5, v1\n" * 6 + "s_waitcnt vmcnt(0)\ns_endpgm\n"
    a, b = simulate(src, True, waves=waves, monitor=monitor), simulate(src, False, waves=waves, monitor=monitor)
    assert b.engine.hazards  # (the read before the wait)
    assert seen(a) == seen(b)


def test_a_loop_numba_cannot_compile_leaves_the_python_loop_in_charge(monkeypatch):
    """numba compiles at the first call; if that fails, the run goes on in Python, no traceback."""
    def broken(*args):
        raise TypeError("no implementation of this signature")

    class K:
        run_alu = staticmethod(broken)

    monkeypatch.setitem(alu_compiled._COUNT, "compiles", None)
    monkeypatch.setattr(accel, "load", lambda: K)
    src = program(5)
    sim = simulate(src, compiled=True)
    assert sim.engine._compiled is None and sim.error is None
    assert seen(sim) == seen(simulate(src, compiled=False))


# ---------------------------------------------------------------- adversarial cases (found by fuzzing)
def test_pending_writes_keep_the_python_loops_order_after_a_register_is_written_again(min_span: int):
    """s5 lands, then is written again after s4: `_run_alu`'s lands dict (and the Pending entries
    made from it when a limit stops the run) lists s4 before s5. The compiled loop's ring reuses
    the first write's slot for the second, so ordering by slot gave s5 first."""
    src = "s_mov_b32 s5, 1\ns_mov_b32 s4, 2\ns_mov_b32 s5, 3\n" + "s_mov_b32 s6, 1\n" * 6 + "s_endpgm\n"
    a = simulate(src, True, limit=3, latencies={"salu": 7})
    b = simulate(src, False, limit=3, latencies={"salu": 7})
    assert [reg for reg, *_ in seen(b)["in flight"][0]] == [("s", 4), ("s", 5)]
    assert seen(a) == seen(b)


def _memory_program(seed: int, n: int = 40) -> str:
    """A loop over many SGPRs and VGPRs (dozens of writes in flight under long latencies) with
    stores, LDS writes and atomics whose completions fall due in the middle of ALU stretches,
    loads and waits, s_sleep/s_setprio/s_nop, EXEC, VCC and M0 written by compiled SALU ops and by
    ones it leaves to Python (s_mov_b64, s_and_saveexec, v_cmpx), and branches over one
    instruction or to the very next one."""
    rng = random.Random(seed)
    head = ["s_mov_b32 s92, s0", "s_mov_b32 s93, s1", "s_mov_b32 s94, 256", "s_mov_b32 s95, 0x00027000",
            "s_mov_b32 s90, -1", "s_mov_b32 s91, -1", "s_mov_b32 s80, 3", "s_mov_b32 m0, -1"]
    head += [f"s_mov_b32 s{i}, {rng.getrandbits(32)}" for i in range(4, 70)]
    head += [f"v_mov_b32 v{i}, s{i}" for i in range(9, 40)]
    body = []
    for i in range(n):
        k = rng.random()
        sd, sa, sb = rng.randint(4, 69), rng.randint(4, 69), rng.randint(4, 69)
        vd, va, vb = rng.randint(2, 39), rng.randint(1, 39), rng.randint(1, 39)
        if k < 0.35:
            body.append(f"{rng.choice(SALU2)} s{sd}, s{sa}, {rng.choice([f's{sb}', _literal(rng)])}")
        elif k < 0.65:
            body.append(f"{rng.choice(VALU2)} v{vd}, {rng.choice([f'v{va}', f's{sa}', _literal(rng)])}, v{vb}")
        elif k < 0.72:
            body.append(f"{rng.choice(COMPARES)} s{sa}, s{sb}")
        elif k < 0.78:
            body.append(rng.choice([f"global_store_dword v1, v{va}, s[0:1]", f"ds_write_b32 v1, v{va}",
                                    f"global_atomic_add v1, v{va}, s[0:1]", f"s_store_dword s{sd}, s[0:1], 0x40",
                                    f"buffer_store_dword v{va}, v1, s[92:95], 0 offen"]))
        elif k < 0.82:
            body.append(rng.choice(["s_waitcnt vmcnt(0)", "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(2)", "s_sleep 2",
                                    "s_setprio 2", "s_nop 4"]))
        elif k < 0.86:
            body.append(f"s_mov_b32 {rng.choice(['exec_lo', 'exec_hi', 'vcc_lo', 'm0'])}, "
                        f"{rng.choice(['-1', '0', f's{sa}', '0xf0f0f0f0'])}")
        elif k < 0.9:
            body.append(rng.choice([f"v_cmp_gt_u32 vcc, v{va}, v{vb}", "s_and_saveexec_b64 s[90:91], vcc",
                                    "s_mov_b64 exec, s[90:91]", f"v_cmpx_lt_u32 vcc, v{va}, v{vb}",
                                    "s_mov_b64 exec, -1", f"v_cndmask_b32 v{vd}, v{va}, v{vb}, vcc"]))
        elif k < 0.95:
            body.append(f"global_load_dword v{vd}, v1, s[0:1]" if rng.random() < 0.5
                        else f"s_load_dword s{sd}, s[0:1], 0x0")
        else:
            body += [f"{rng.choice(['s_branch', 's_cbranch_scc0', 's_cbranch_scc1'])} .Lx{i}",
                     *([f"{rng.choice(SALU2)} s{sd}, s{sa}, 1"] if rng.random() < 0.7 else []), f".Lx{i}:"]
    tail = ["s_mov_b64 exec, -1", "s_sub_u32 s80, s80, 1", "s_cmp_lg_u32 s80, 0", "s_cbranch_scc1 .Lloop",
            "s_waitcnt 0", "s_endpgm"]
    return "\n".join(head + [".Lloop:"] + body + tail) + "\n"


def _full_view(sim: Simulation) -> dict:
    """`seen` and what else a run leaves that a user (or the debugger) can look at: the wave's
    issue state, the Pending entries in their order, the write events, memory and LDS, the plan
    statistics and the engine's clock."""
    eng = sim.engine
    w = eng.waves[0]
    out = seen(sim)
    out["wave"] = [(k, getattr(w, k)) for k in ("ready_at", "first_try", "stalls", "interlock_until", "async_until",
                                                 "hold_until", "hold_reason", "priority", "instructions",
                                                 "end_cycle", "slots", "stall_reason")]
    out["pending"] = [(reg, p.land, p.interlocked, p.index, p.seq, p.pipe) for reg, p in w.pending.items()]
    # per register (the compiled loop hands a 64-bit SGPR write back as two 32-bit ones: they land the same)
    out["writes due"] = sorted((e[0], e[1], [(x.file, x.index + k, np.asarray(x.values[k]).tobytes(),
                                              None if x.mask is None or getattr(x, "full", False)
                                              else np.asarray(x.mask, dtype=bool).tobytes())
                                             for x in e[4][0] for k in range(len(x.values))])
                               for e in eng.events if e[3] == 0)
    out["memory"] = ([b.data.tobytes() for b in sim.memory.buffers], sim.lds.data.tobytes())
    out["clock"] = (eng.cycle, eng._next, eng._seq, eng.executed, eng.finished, eng.halt_reason)
    out["plan stats"] = {k: v for k, v in eng.plan_stats().items() if k != "compiled"}
    out["diagnostics"] = [str(d) for d in sim.diagnostics]
    # the dicts in their order (Engine.pipes and the reports list them as they iterate)
    out["dict orders"] = (list(eng.pipe_use), list(eng.pipe_owner), list(eng.pipe_free),
                          [(i, list(d.items())) for i, d in eng.stalled.items()])
    return out


def _both(src: str, **kw) -> tuple[dict, dict]:
    return _full_view(simulate(src, True, **kw)), _full_view(simulate(src, False, **kw))


@pytest.mark.parametrize("seed", range(6))
def test_memory_exec_and_branch_programs_give_the_python_loops_results(seed: int, min_span: int):
    src = _memory_program(seed)
    a, b = _both(src)
    assert a["error"] is None
    assert a == b, src


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 200))
def test_memory_exec_and_branch_programs_sweep(seed: int, min_span: int):
    rng = random.Random(seed)
    kw = {"target": rng.choice(["gfx908", "gfx90a", "gfx942", "gfx950"]), "history": rng.random() < 0.7,
          "latencies": rng.choice([None, {"salu": 40, "valu": 40}, {"issue_interval": 1}, {"salu": 7, "valu": 6}])}
    if rng.random() < 0.3:
        kw["limit"] = rng.randint(3, 400)
    if rng.random() < 0.3:
        kw["max_cycles"] = rng.randint(5, 5000)
    src = _memory_program(seed)
    a, b = _both(src, **kw)
    assert a == b, (kw, src)


@pytest.mark.parametrize("latencies", [{"valu": 1}, {"branch": 0}, {"salu": 0, "valu": 0}, {"salu": 1, "valu": 1},
                                       {"salu": 40, "valu": 40}, {"issue_interval": 1},
                                       {"issue_interval": 3, "salu": 5}, {"issue_interval": 1, "valu": 9, "branch": 0}],
                         ids=str)
def test_latency_overrides_give_the_same_results(latencies: dict, min_span: int):
    """Results that land the next cycle or the same one, branches without a hold, an issue turn
    every cycle or every third, and latencies long enough that more registers are in flight
    than the compiled loop's ring holds (it hands the stretch back to the Python loop)."""
    for seed in (0, 1):
        src = _memory_program(seed) if seed else program(300)
        a, b = _both(src, latencies=latencies)
        assert a == b, src


@pytest.mark.parametrize("target", ["gfx908", "gfx942", "gfx950"])
def test_other_targets_give_the_same_results(target: str, min_span: int):
    for src in (program(400), _memory_program(401)):
        a, b = _both(src, target=target)
        assert a == b, src


@pytest.mark.parametrize("max_cycles", [3, 10, 57, 200, 433, 777])
def test_a_cycle_limit_stops_both_loops_at_the_same_place(max_cycles: int, min_span: int):
    for src in (program(500), _memory_program(501)):
        a, b = _both(src, max_cycles=max_cycles, history=False)
        assert a["clock"][5] is not None  # (stopped by the limit, not by s_endpgm)
        assert a == b, src


def test_exec_written_outside_the_compiled_loop_holds_its_vector_ops_while_in_flight(min_span: int):
    """s_mov_b64 / s_and_saveexec_b64 (left to the Python loop) write EXEC with a long SALU
    latency; the VALU ops after them (compiled) read EXEC, so they wait for it and write only
    its lanes. Both loops stall them the same cycles and leave the same lanes."""
    body = "\n".join(f"v_add_u32 v{2 + i % 6}, v{2 + (i + 1) % 6}, v1" for i in range(8))
    src = ("s_mov_b32 s10, 0xff00ff00\ns_mov_b32 s11, 0x0f0f0f0f\nv_cmp_gt_u32 vcc, v2, v3\n"
           f"s_mov_b64 exec, s[10:11]\n{body}\ns_and_saveexec_b64 s[12:13], vcc\n{body}\n"
           f"s_mov_b32 exec_lo, 0\ns_mov_b32 exec_hi, 0\n{body}\ns_mov_b64 exec, -1\n{body}\ns_endpgm\n")
    a, b = _both(src, latencies={"salu": 9})
    assert dict(b["stall totals"][0]).get("dependency", 0) > 0
    assert a == b


def test_waves_sharing_a_simd_keep_the_python_loop():
    """The compiled loop makes cycles of waves on SIMDs of their own (Engine._run_many's `own`
    case); eight waves on four SIMDs take turns by _issue_turn, which stays in Python."""
    src = workgroup_program(600)
    a, b = simulate(src, True, waves=8), simulate(src, False, waves=8)
    assert a.engine._compiled is None
    assert seen(a) == seen(b)


@pytest.mark.parametrize("steps", [1, 5, 23])
def test_stepping_then_running_and_restoring_a_snapshot_give_the_same_results(steps: int, min_span: int):
    """The debugger's way: some single steps (the per-instruction path), then a run (compiled
    stretches), then back to a snapshot taken between and the run again."""
    src = _memory_program(700 + steps)
    views = []
    for compiled in (True, False):
        sim = simulate(src, compiled, run=False)
        for _ in range(steps):
            sim.step()
        snap = sim.engine.snapshot()
        sim.run()
        first = _full_view(sim)
        sim.engine.restore(snap)
        sim.run()
        again = _full_view(sim)
        del again["plan stats"], first["plan stats"]  # (Engine.alu_runs counts on: the snapshot leaves it out)
        assert again == first  # (the run from a restored snapshot is the same run)
        views.append(first)
    assert views[0] == views[1]


def test_a_load_and_a_younger_vector_write_landing_in_one_turn_leave_the_younger_value(min_span: int):
    """v_mov_b32 v7, 5 overwrites a load's destination while the load is in flight (a hazard the
    engine reports); once it lands the wave holds no Pending entry, so a compiled stretch starts
    while the load's write is still due. When a later v_mov_b32 v7, 9 lands in the same issue
    turn as the load, the Python loop lands the events due first and its own writes after: v7
    is 9. The compiled loop landed its writes first and left the event to the Python loop,
    which put the load's value last."""
    windows = 0
    for pad in range(150, 200):
        src = ("s_mov_b32 s4, 0\ns_mov_b32 s5, 0\nglobal_load_dword v7, v1, s[0:1]\nv_mov_b32 v7, 5\n"
               + "s_add_u32 s4, s4, 1\n" * pad + "v_mov_b32 v7, 9\n" + "s_add_u32 s5, s5, 1\n" * 8
               + "s_waitcnt vmcnt(0)\ns_endpgm\n")
        a, b = _both(src, monitor=False)  # (the monitor would leave the second v_mov to Python)
        assert a == b, pad
        recs = {r[1]: r for r in b["records"]}
        load, mov = recs[2][4], recs[pad + 4][4]  # (their completions)
        if mov - 4 < load <= mov:
            windows += 1
            assert (simulate(src, False, monitor=False).wave(0).vgpr[7] == 9).all()
    assert windows  # (some pad puts both writes in one turn)


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_a_long_quiet_run_keeps_the_monitors_notes_bounded(compiled: bool):
    """The monitor notes quiet issues and folds them into its state later; a long run of nothing
    but quiet instructions keeps at most DEFER_MAX of them, whichever loop issues them."""
    from gcnemu.analysis.monitor import DEFER_MAX
    src = f"s_mov_b32 s4, {(1 << 32) - 8000}\n.Lloop:\nv_add_u32 v2, v2, v1\nv_mov_b32 v3, v2\n" \
          "s_add_u32 s5, s4, 3\ns_add_u32 s4, s4, 1\ns_cbranch_scc0 .Lloop\ns_endpgm\n"
    sim = simulate(src, compiled, history=False, limit=10_000_000)
    assert sim.instructions_executed > DEFER_MAX
    assert all(len(v) <= DEFER_MAX for v in sim.engine.monitor._deferred.values())
    assert sim.engine.monitor.waves[0].pos >= sim.instructions_executed  # (every issue counted)


# ---------------------------------------------------------------- a workgroup (found by fuzzing run_many)
_WAVE_STATE = ("ready_at", "first_try", "stalls", "interlock_until", "async_until", "hold_until", "hold_reason",
               "priority", "instructions", "end_cycle", "slots", "stall_reason", "at_barrier", "stall_totals")


def _workgroup_view(sim: Simulation) -> dict:
    """`_full_view` for every wave: each one's issue state and Pending entries in their order,
    the write events with their waves, the co-issue gate and the debugger's next cycle."""
    eng = sim.engine
    out = _full_view(sim)
    out["every wave"] = [[(k, getattr(w, k, None)) for k in _WAVE_STATE] for w in eng.waves]
    out["every pending"] = [[(reg, p.land, p.interlocked, p.index, p.seq, p.pipe) for reg, p in w.pending.items()]
                            for w in eng.waves]
    out["events"] = sorted((e[0], e[1], e[2], e[3]) for e in eng.events)
    out["co-issue gate"] = dict(eng._coexec_gate)
    out["next cycle"] = eng.next_cycle
    if eng.monitor is not None:  # (its whole per-wave state: `seen` looks at the newest entries)
        out["monitor"] = {k: (v.pos, list(v.history), v.sid, list(v.last), list(v.recent))
                          for k, v in eng.monitor.waves.items()}
    return out


def _divergent_program(seed: int, n: int = 30) -> str:
    """A workgroup whose waves part ways: s81 is the wave's number (from v0, the lane id in the
    workgroup), so loop counts differ and per-wave branches skip ALU runs, end a wave early
    (s_endpgm), make it sleep or reach s_barrier at another time; with loads, stores, LDS reads
    and writes, atomics, waits, s_setprio, EXEC/VCC writes, VALU writes of SGPRs (v_cmp into an
    SGPR pair, v_readlane, v_readfirstlane), MFMAs and AGPR reads between the compiled runs."""
    rng = random.Random(seed)
    head = ["v_readfirstlane_b32 s81, v0", "s_lshr_b32 s81, s81, 6", "s_mov_b32 s92, s0", "s_mov_b32 s93, s1",
            "s_mov_b32 s94, 256", "s_mov_b32 s95, 0x00027000", "s_mov_b32 s90, -1", "s_mov_b32 s91, -1",
            "s_add_u32 s80, s81, 2", "s_mov_b32 m0, -1"]
    head += [f"s_mov_b32 s{i}, {rng.getrandbits(32)}" for i in range(4, 40)]
    head += [f"v_mov_b32 v{i}, s{i}" for i in range(9, 30)]
    if rng.random() < 0.5:
        head.append(f"s_setprio {rng.randint(0, 3)}")
    body: list = []
    for i in range(n):
        k = rng.random()
        sd, sa, sb = rng.randint(4, 39), rng.randint(4, 39), rng.randint(4, 39)
        vd, va, vb = rng.randint(2, 29), rng.randint(1, 29), rng.randint(1, 29)
        if k < 0.3:
            body.append(f"{rng.choice(SALU2)} s{sd}, s{sa}, {rng.choice([f's{sb}', _literal(rng)])}")
        elif k < 0.55:
            body.append(f"{rng.choice(VALU2)} v{vd}, {rng.choice([f'v{va}', f's{sa}', _literal(rng)])}, v{vb}")
        elif k < 0.6:
            body.append(f"{rng.choice(COMPARES)} s{sa}, s{sb}")
        elif k < 0.65:
            body.append(rng.choice([f"global_store_dword v1, v{va}, s[0:1]", f"ds_write_b32 v1, v{va}",
                                    f"ds_read_b32 v{vd}, v1", f"global_atomic_add v1, v{va}, s[0:1]",
                                    f"s_store_dword s{sd}, s[0:1], 0x40",
                                    f"buffer_store_dword v{va}, v1, s[92:95], 0 offen"]))
        elif k < 0.72:
            body.append(rng.choice(["s_waitcnt vmcnt(0)", "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(2)", "s_sleep 2",
                                    f"s_setprio {rng.randint(0, 3)}", "s_nop 4", "s_barrier", "s_waitcnt 0\ns_barrier"]))
        elif k < 0.76:
            body.append(f"s_mov_b32 {rng.choice(['exec_lo', 'exec_hi', 'vcc_lo', 'm0'])}, "
                        f"{rng.choice(['-1', '0', f's{sa}', '0xf0f0f0f0'])}")
        elif k < 0.8:
            pair = sd & ~1
            body.append(rng.choice([f"v_cmp_gt_u32 vcc, v{va}, v{vb}", "s_and_saveexec_b64 s[90:91], vcc",
                                    "s_mov_b64 exec, s[90:91]", f"v_cmpx_lt_u32 vcc, v{va}, v{vb}",
                                    "s_mov_b64 exec, -1", f"v_cndmask_b32 v{vd}, v{va}, v{vb}, vcc",
                                    f"v_cmp_eq_u32 s[{pair}:{pair + 1}], v{va}, v{vb}",
                                    f"v_readlane_b32 s{sd}, v{va}, 3", f"v_readfirstlane_b32 s{sd}, v{va}",
                                    f"v_writelane_b32 v{vd}, s{sa}, 5"]))
        elif k < 0.84:
            body.append(f"global_load_dword v{vd}, v1, s[0:1]" if rng.random() < 0.5
                        else f"s_load_dword s{sd}, s[0:1], 0x0")
        elif k < 0.87:
            body.append(rng.choice([f"v_mfma_f32_4x4x1f32 v[40:43], v{va}, v{vb}, v[40:43]",
                                    f"v_mfma_f32_32x32x2f32 a[0:15], v{va}, v{vb}, a[0:15]",
                                    f"v_accvgpr_read_b32 v{vd}, a{rng.randint(0, 15)}", "v_exp_f32 v3, v4"]))
        elif k < 0.92:  # one wave skips a stretch, which may end it, stall it or hold it at a barrier
            body += [f"s_cmp_eq_u32 s81, {rng.randint(0, 3)}", f"s_cbranch_scc1 .Lw{i}",
                     *[f"{rng.choice(SALU2)} s{rng.randint(4, 39)}, s{sa}, 1" for _ in range(rng.randint(0, 6))],
                     *([rng.choice(["s_endpgm", "s_sleep 3", "s_barrier", "s_nop 7"])] if rng.random() < 0.4 else []),
                     f".Lw{i}:"]
        else:
            body += [f"{rng.choice(['s_branch', 's_cbranch_scc0', 's_cbranch_scc1'])} .Lx{i}",
                     *([f"{rng.choice(SALU2)} s{sd}, s{sa}, 1"] if rng.random() < 0.7 else []), f".Lx{i}:"]
    tail = ["s_mov_b64 exec, -1", "s_sub_u32 s80, s80, 1", "s_cmp_lg_u32 s80, 0", "s_cbranch_scc1 .Lloop",
            "s_waitcnt 0", "s_endpgm"]
    return "\n".join(head + [".Lloop:"] + body + tail) + "\n"


def _divergent_options(seed: int) -> dict:
    rng = random.Random(seed * 7 + 1)
    kw = {"waves": rng.choice([2, 3, 4]), "target": rng.choice(["gfx908", "gfx90a", "gfx942", "gfx950"]),
          "history": rng.random() < 0.7, "monitor": rng.random() < 0.6,
          "latencies": rng.choice([None, None, {"salu": 40, "valu": 40}, {"issue_interval": 1}, {"salu": 7, "valu": 6},
                                   {"salu": 0, "valu": 0}, {"issue_interval": 1, "valu": 9, "branch": 0}])}
    if rng.random() < 0.25:
        kw["limit"] = rng.randint(3, 600)
    if rng.random() < 0.25:
        kw["max_cycles"] = rng.randint(5, 6000)
    return kw


def _workgroup_both(src: str, **kw) -> tuple[dict, dict]:
    return _workgroup_view(simulate(src, True, **kw)), _workgroup_view(simulate(src, False, **kw))


def test_a_workgroup_ending_after_a_compiled_stretch_leaves_the_python_loops_next_cycle(min_span: int):
    """next_cycle (the debugger's step target) after the run: the cycle the last cycle made
    named as the next. The compiled loop made the last ALU cycles without telling the engine,
    whose loop then made the s_endpgm cycle and finished: next_cycle was the cycle before the
    compiled call."""
    src = "v_add_u32 v2, v2, v1\n" * 8 + "s_endpgm\n"
    a, b = _workgroup_both(src, waves=2)
    assert b["next cycle"] > 1
    assert a == b


@pytest.mark.parametrize("seed", [24, 27, 192, 421, 1583, 1603, 1664, 3, 4, 5])
def test_waves_that_part_ways_give_the_python_loops_results(seed: int, min_span: int):
    src, kw = _divergent_program(seed), _divergent_options(seed)
    a, b = _workgroup_both(src, **kw)
    assert a["error"] is None
    assert a == b, (kw, src)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 160))
def test_waves_that_part_ways_sweep(seed: int, min_span: int):
    src, kw = _divergent_program(seed), _divergent_options(seed)
    a, b = _workgroup_both(src, **kw)
    assert a == b, (kw, src)


def test_pipes_are_listed_in_the_order_the_python_loop_first_used_them(min_span: int):
    """Engine.pipes (and the pipe dicts it reads) list a pipe in the order of its first use.
    Both waves issue s_mov_b32 at cycle 0; the next issue turn of SIMD 1 is cycle 1, that of
    SIMD 0 cycle 4, so wave 1's VALU op is the first. The compiled loop wrote the keys in the
    order of their numbers (("valu", 0) first), whatever the order of first use."""
    src = "s_mov_b32 s4, 0\n" + "v_add_u32 v2, v2, v1\n" * 8 + "s_endpgm\n"
    views = []
    for compiled in (True, False):
        sim = simulate(src, compiled, waves=2, limit=7)
        views.append((_workgroup_view(sim), [(p.simd, p.wave) for p in sim.engine.pipes()]))
    assert views[1][1] == [(1, 1), (0, 0)]  # (pipes still busy where the limit stopped the run)
    assert views[0] == views[1]


@pytest.mark.parametrize("latencies", [{"salu": 200}, {"salu": 60, "valu": 60, "issue_interval": 1}], ids=str)
@pytest.mark.parametrize("waves", [2, 4])
def test_a_workgroup_with_more_writes_in_flight_than_the_ring_holds(waves: int, latencies: dict, monkeypatch,
                                                                    min_span: int):
    """Every instruction writes another SGPR (and SCC) or VGPR with a long latency: the ring
    (16 + 16 per wave) fills, the compiled loop hands the cycle back (X_FULL) and starts again
    once writes have landed; the writes keep their order and values both ways."""
    exits = []
    call = alu_compiled.CompiledALU._call

    def counted(self, now):
        out = call(self, now)
        exits.append(out[1])
        return out

    monkeypatch.setattr(alu_compiled.CompiledALU, "_call", counted)
    body = "".join(f"s_add_u32 s{4 + i % 30}, s{4 + (i * 7) % 30}, {i}\nv_add_u32 v{2 + i % 7}, v{2 + (i * 3) % 7}, v1\n"
                   for i in range(40))
    src = "s_mov_b32 s80, 3\n" + "".join(f"s_mov_b32 s{i}, {i}\n" for i in range(4, 40)) + ".Lloop:\n" + body + \
        "s_sub_u32 s80, s80, 1\ns_cmp_lg_u32 s80, 0\ns_cbranch_scc1 .Lloop\ns_endpgm\n"
    a, b = _workgroup_both(src, waves=waves, latencies=latencies)
    assert A.X_FULL in exits
    assert a == b


def _debugger_session(sim: Simulation, plan: list) -> tuple[list, dict]:
    """Run `plan`'s steps as the debugger does (run_until a cycle, single steps, a snapshot and
    a restore, the monitor detached); what each step leaves, and the run's whole view."""
    eng = sim.engine
    views = []
    snap = None
    for op, arg in plan:
        if op == "until":
            eng.run_until(arg)
        elif op == "step":
            for _ in range(arg):
                sim.step()
        elif op == "run":
            sim.run()
        elif op == "snapshot":
            snap = eng.snapshot()
        elif op == "restore":
            eng.restore(snap)
        else:  # "no monitor"
            eng.monitor = None
        views.append((eng.cycle, eng.next_cycle, eng.executed, [w.state.pc for w in eng.waves],
                      [[(reg, p.land, p.seq) for reg, p in w.pending.items()] for w in eng.waves]))
    view = _workgroup_view(sim)
    del view["plan stats"]  # (Engine.alu_runs counts on across a restore)
    return views, view


def _debugger_plan(seed: int) -> list:
    rng = random.Random(seed + 4242)
    plan, cycle = [], 0
    for _ in range(rng.randint(1, 4)):
        k = rng.random()
        if k < 0.4:
            cycle += rng.randint(1, 300)
            plan.append(("until", cycle))
        else:
            plan.append(("step", rng.randint(1, 20)) if k < 0.6 else ("snapshot", None) if k < 0.8
                        else ("no monitor", None))
    plan.append(("run", None))
    if any(op == "snapshot" for op, _ in plan):
        plan += [("restore", None), ("run", None)]
    return plan


def _debugger_case(seed: int, min_span: int) -> None:
    src, kw = _divergent_program(seed), _divergent_options(seed)
    kw.pop("limit", None)
    kw.pop("max_cycles", None)
    plan = _debugger_plan(seed)
    a = _debugger_session(simulate(src, True, run=False, **kw), plan)
    b = _debugger_session(simulate(src, False, run=False, **kw), plan)
    assert a == b, (kw, plan, src)


@pytest.mark.parametrize("seed", range(6))
def test_a_workgroup_under_the_debugger_gives_the_python_loops_results(seed: int, min_span: int):
    """run_until a cycle, single steps, snapshot and restore, the monitor detached mid-run, then
    runs: after each step and at the end both loops leave the same state."""
    _debugger_case(seed, min_span)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 120))
def test_a_workgroup_under_the_debugger_sweep(seed: int, min_span: int):
    _debugger_case(seed, min_span)
