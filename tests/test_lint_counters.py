"""Counter rules: hand-written positive/negative cases (tests/hazard_cases/counters.toml).

Each positive must be reported with its rule at the marked consumer line, the
note at the marked producer, and the counter arithmetic must name the
tightest field (`use vmcnt(2)`); the negative twin must lint clean; `--fix`
of the positive must lint clean and (like every case) assemble with llvm-mc.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gcnemu.analysis.fix import fix_text
from gcnemu.analysis.lint import lint
from gcnemu.isa.hazard_rules import TARGETS, counter_rules_for
from gcnemu.asm.parse import parse
from test_lint_rules import HAVE_MC, _assemble

CASES = tomllib.loads((Path(__file__).parent / "hazard_cases" / "counters.toml").read_text())["case"]
PARAMS = [(c, t) for c in CASES for t in c.get("targets", TARGETS)]
IDS = [f"{c['name']}@{t}" for c, t in PARAMS]


def _prog(body: str) -> str:
    return "\t.text\nkernel:\n" + body.strip("\n") + "\n"


def _marked(text: str, mark: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if f"; {mark}" in ln)


def test_every_counter_rule_has_a_case():
    for t in TARGETS:
        assert {r.id for r in counter_rules_for(t)} <= {c["rule"] for c, tt in PARAMS if tt == t}


@pytest.mark.parametrize("case,target", PARAMS, ids=IDS)
def test_positive_is_reported_with_the_tightest_wait(case, target):
    text = _prog(case["positive"])
    diags = [d for d in lint(parse(text, "c.s"), target) if d.severity == "warning"]
    hits = [d for d in diags if d.rule == case["rule"]]
    assert len(hits) == 1, [d.message for d in diags]
    d = hits[0]
    assert d.span.line == _marked(text, "@consumer")
    assert d.notes[0].span.line == _marked(text, "@producer")
    arithmetic = d.notes[-1].message
    assert f"use {case['use']}" in arithmetic or f"use s_waitcnt {case['use']}" in arithmetic
    assert d.extra["required_wait_states"] is None and d.extra["fix"]


@pytest.mark.parametrize("case,target", PARAMS, ids=IDS)
def test_negative_twin_is_clean(case, target):
    diags = [d for d in lint(parse(_prog(case["negative"]), "c.s"), target) if d.severity == "warning"]
    assert diags == []


@pytest.mark.parametrize("case,target", PARAMS, ids=IDS)
def test_fix_round_trip(case, target):
    res = fix_text(_prog(case["positive"]), target, "c.s")
    assert res.remaining == [] and res.fixed >= 1
    assert [d for d in lint(parse(res.text, "c.s"), target) if d.severity == "warning"] == []


def test_issue_example_message():
    case = next(c for c in CASES if c["name"].startswith("vmcnt too weak"))
    d = next(d for d in lint(parse(_prog(case["positive"]), "c.s"), "gfx90a") if d.rule == case["rule"])
    assert ("4 loads outstanding, s_waitcnt vmcnt(3) (line 7) does not cover the one that writes v4; "
            "use vmcnt(2)") in d.notes[-1].message
    # the fix tightens that s_waitcnt in place instead of adding a second one
    fixed = fix_text(_prog(case["positive"]), "gfx90a", "c.s").text
    assert "s_waitcnt vmcnt(2)" in fixed and "vmcnt(3)" not in fixed
    assert fixed.count("s_waitcnt") == 1


@pytest.mark.skipif(not HAVE_MC, reason="llvm-mc 22 not installed")
@pytest.mark.parametrize("target", TARGETS)
def test_counter_cases_and_fixes_assemble(target):
    progs = []
    for c, t in PARAMS:
        if t != target:
            continue
        progs.append((f"{c['name']}:pos", _prog(c["positive"])))
        progs.append((f"{c['name']}:neg", _prog(c["negative"])))
        progs.append((f"{c['name']}:fixed", fix_text(_prog(c["positive"]), target, "c.s").text))
    assert _assemble(target, progs) == []


# ------------------------------------------------------------------ LDS byte ranges (values.py)
# An LDS DMA only races with the DS reads that may touch its bytes: M0 + offset + 4 * lane for
# 64 lanes.  Double buffering (DMA into one buffer while reading the other) is clean with
# s_waitcnt vmcnt(N); an overlap, or an address the analysis cannot bound, is still reported.

LANE_ADDR = """
	v_and_b32 v1, 63, v0
	v_lshlrev_b32 v1, 2, v1                   ; 4 * lane: [0, 252]
"""


def _dma(m0: int) -> str:
    return f"\ts_mov_b32 m0, {m0:#x}\n\ts_nop 0\n\tglobal_load_lds_dword v[2:3], off\n"


def _warnings(body: str, target: str = "gfx942"):
    return [d for d in lint(parse(_prog(body), "c.s"), target) if d.severity == "warning"]


DOUBLE_BUFFER = LANE_ADDR + _dma(0) + """
	s_waitcnt vmcnt(0)
	s_barrier
""" + _dma(0x4000) + """
	s_waitcnt vmcnt(1)
	s_barrier                                 ; the buffer-1 DMA is in flight: nobody reads buffer 1 yet
	ds_read_b32 v4, v1                        ; buffer 0
	ds_read_b32 v5, v1 offset:128
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	ds_read_b32 v6, v1 offset:16384           ; buffer 1, after the wait
	s_waitcnt lgkmcnt(0)
	s_endpgm
"""


def test_double_buffer_with_disjoint_buffers_and_vmcnt_n_is_clean():
    assert _warnings(DOUBLE_BUFFER) == []


def test_double_buffer_is_clean_on_gfx90a_with_buffer_loads_to_lds():
    body = DOUBLE_BUFFER.replace("global_load_lds_dword v[2:3], off", "buffer_load_dword v1, s[4:7], 0 offen lds")
    assert _warnings(body, "gfx90a") == []


def test_reading_the_buffer_in_flight_is_reported():
    body = DOUBLE_BUFFER.replace("ds_read_b32 v4, v1                        ; buffer 0",
                                 "ds_read_b32 v4, v1 offset:16400")
    d = _warnings(body)
    assert {x.rule for x in d} == {"lds-dma-read-before-vmcnt", "barrier-lds-write-pending"}
    assert all("use vmcnt(0)" in x.notes[-1].message for x in d)


def test_needed_count_is_set_by_the_youngest_overlapping_dma():
    # three DMAs in flight: [0, 256), [128, 384) and [16384, 16640); the read of [0, 256) must
    # wait for the second only: the third (disjoint) may stay in flight -> vmcnt(1), not vmcnt(0)
    body = LANE_ADDR + _dma(0) + _dma(0x80) + _dma(0x4000) + """
	ds_read_b32 v4, v1                        ; @consumer
	s_waitcnt lgkmcnt(0)
	s_endpgm
"""
    d = [x for x in _warnings(body) if x.rule == "lds-dma-read-before-vmcnt"]
    assert len(d) == 1
    text = _prog(body)
    assert d[0].span.line == _marked(text, "@consumer")
    assert d[0].notes[0].span.line == text.splitlines().index("\ts_mov_b32 m0, 0x80") + 1 + 2  # the 2nd DMA
    assert "use s_waitcnt vmcnt(1)" in d[0].notes[-1].message
    fixed = fix_text(text, "gfx942", "c.s")
    assert fixed.remaining == [] and "s_waitcnt vmcnt(1)" in fixed.text


def test_unknown_read_address_is_reported():
    body = _dma(0x4000) + """
	ds_read_b32 v4, v20                       ; v20 unknown: may read anything
	s_waitcnt lgkmcnt(0)
	s_endpgm
"""
    assert [x.rule for x in _warnings(body)] == ["lds-dma-read-before-vmcnt"]


def test_unknown_m0_is_reported():
    body = LANE_ADDR + """
	s_load_dword s1, s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 m0, s1
	s_nop 0
	global_load_lds_dword v[2:3], off
	ds_read_b32 v4, v1 offset:0x8000
	s_waitcnt lgkmcnt(0)
	s_endpgm
"""
    assert [x.rule for x in _warnings(body)] == ["lds-dma-read-before-vmcnt"]


def test_barrier_with_dma_in_flight_matters_only_to_reads_of_its_bytes():
    # nothing after the barrier reads the DMA's buffer before the wave drains it: clean
    clean = LANE_ADDR + _dma(0x4000) + """
	s_barrier
	ds_read_b32 v4, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	ds_read_b32 v5, v1 offset:16384
	s_waitcnt lgkmcnt(0)
	s_endpgm
"""
    assert _warnings(clean) == []
    # without the drain, the read after the second barrier (another wave's, too) may see it early
    racy = clean.replace("s_waitcnt vmcnt(0) lgkmcnt(0)", "s_waitcnt lgkmcnt(0)")
    barriers = [n for n, ln in enumerate(_prog(racy).splitlines(), 1) if ln.strip() == "s_barrier"]
    rules = [(x.rule, x.span.line) for x in _warnings(racy)]
    assert [line for rule, line in rules if rule == "barrier-lds-write-pending"] == barriers


def test_barrier_search_follows_loops():
    # the DMA into buffer 1 stays in flight around the loop; the read of buffer 1 is behind the
    # back edge, before any vmcnt drain
    body = LANE_ADDR + _dma(0x4000) + """
loop:
	s_barrier                                 ; @consumer
	ds_read_b32 v4, v1
	s_waitcnt lgkmcnt(0)
	s_cbranch_scc0 done
	ds_read_b32 v5, v1 offset:16384
	s_waitcnt lgkmcnt(0)
	s_branch loop
done:
	s_endpgm
"""
    text = _prog(body)
    hits = [x for x in _warnings(body) if x.rule == "barrier-lds-write-pending"]
    assert [x.span.line for x in hits] == [_marked(text, "@consumer")]


CALL = """\
\t.text
k:
\tglobal_load_dword v1, v[2:3], off
\ts_getpc_b64 s[4:5]
\ts_add_u32 s4, s4, f@rel32@lo+4
\ts_addc_u32 s5, s5, f@rel32@hi+12
\ts_swappc_b64 s[30:31], s[4:5]
\tv_add_u32 v2, v1, v1
\ts_endpgm
f:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\ts_setpc_b64 s[30:31]
"""


def test_a_call_drains_the_counters_as_the_calling_convention_says():
    """The callee waits for every counter at entry and before returning (llc-22's prologue and
    epilogue): a load issued before s_swappc_b64 has returned after it. Lint said otherwise on
    every call of clang's output."""
    from gcnemu.analysis.lint import lint
    from gcnemu.asm.parse import parse
    assert [d.rule for d in lint(parse(CALL), "gfx90a") if d.severity == "warning"] == []
    no_call = CALL.replace("\ts_swappc_b64 s[30:31], s[4:5]\n", "")
    assert [d.rule for d in lint(parse(no_call), "gfx90a") if d.severity == "warning"] == ["vmem-result-before-vmcnt"]


FUNCTION = """\
\t.text
\t.type f,@function
f:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\tglobal_load_dword v1, v[2:3], off
\ts_waitcnt vmcnt(0)
\ts_setpc_b64 s[30:31]
"""


@pytest.mark.parametrize("delete,rule,line", [
    ("\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n", "call-entry-before-waitcnt", 4),
    ("\ts_waitcnt vmcnt(0)\n", "return-before-waitcnt", 6),
])
def test_a_function_owes_its_caller_an_entry_wait_and_a_return_wait(delete, rule, line):
    """What lets a call drain the counters: the callee waits at entry and before s_setpc_b64.
    A function missing either is reported at the instruction that runs too early."""
    from gcnemu.analysis.lint import lint
    from gcnemu.asm.parse import parse
    assert [d for d in lint(parse(FUNCTION), "gfx90a") if d.severity == "warning"] == []
    found = [(d.rule, d.span.line) for d in lint(parse(FUNCTION.replace(delete, "", 1)), "gfx90a")
             if d.severity == "warning"]
    assert found == [(rule, line)]


def test_a_kernel_typed_function_without_a_descriptor_is_still_a_kernel():
    """Hand-written kernels are often `.type k,@function` with no .amdhsa_kernel in the file; they
    end in s_endpgm, start with nothing outstanding and owe no caller a wait."""
    from gcnemu.analysis.lint import lint
    from gcnemu.asm.parse import parse
    text = "\t.text\n\t.type k,@function\nk:\n\tv_add_u32 v1, v1, v2\n\ts_endpgm\n"
    assert [d for d in lint(parse(text), "gfx90a") if d.severity == "warning"] == []


TAIL_CALL = """\
\t.text
\t.type f,@function
f:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\tbuffer_load_dword v42, off, s[0:3], s33 offset:8 ; 4-byte Folded Reload
\ts_getpc_b64 s[16:17]
\ts_add_u32 s16, s16, g@rel32@lo+4
\ts_addc_u32 s17, s17, g@rel32@hi+12
\ts_setpc_b64 s[16:17]
\t.type g,@function
g:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\ts_setpc_b64 s[30:31]
"""


def test_a_tail_call_leaves_the_wait_to_the_callee_as_llc_does():
    """SIInsertWaitcnts waits for everything before a return, but not before a tail call: the
    callee waits at its entry (callWaitsOnFunctionEntry). llc-22 compiles ROCm's ocml so
    (__ocmlpriv_bp1_f32 reloads v42 and tail-calls through s[16:17] with no wait)."""
    from gcnemu.analysis.lint import lint
    from gcnemu.asm.parse import parse
    assert [d.rule for d in lint(parse(TAIL_CALL), "gfx90a") if d.severity == "warning"] == []
    # the same jump through the return address is a return: the reload must be waited for
    returns = TAIL_CALL.replace("\ts_setpc_b64 s[16:17]\n", "\ts_setpc_b64 s[30:31]\n")
    assert [(d.rule, d.span.line) for d in lint(parse(returns), "gfx90a") if d.severity == "warning"] == \
        [("return-before-waitcnt", 9)]
    # and the callee that would not wait at its entry is reported there
    lazy = TAIL_CALL.replace("g:\n\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n", "g:\n")
    assert [d.rule for d in lint(parse(lazy), "gfx90a") if d.severity == "warning"] == ["call-entry-before-waitcnt"]
