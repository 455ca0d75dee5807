"""LDS races between waves (issue 22): found by happens-before, whatever the schedule did.

Two waves race on an LDS dword when one of them writes it, they are not both atomics, and no
`s_barrier` orders them; a write still in flight when the barrier releases is not ordered by it.
Correct multi-wave programs report none.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from gcnemu.sim.races import LdsRaceDetector, dwords_of

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "programs"


def _lds_read(addrs, n=4):
    op = type("LdsRead", (), {})()
    op.pieces = [(np.asarray(addrs, dtype=np.int64), n)]
    return op


def _lds_write(addrs, n=4):
    op = type("LdsWrite", (), {})()
    op.pieces = [(np.asarray(addrs, dtype=np.int64), np.zeros((len(addrs), n), np.uint8))]
    return op


def _lds_atomic(addrs):
    op = type("LdsAtomic", (), {})()
    op.addrs, op.width = np.asarray(addrs, dtype=np.int64), 4
    return op


def test_dwords_cover_every_byte_of_each_access():
    assert sorted(set(dwords_of(np.array([0, 6]), 4))) == [0, 1, 2]
    assert sorted(set(dwords_of(np.array([16]), 16))) == [4, 5, 6, 7]


def test_write_then_read_by_another_wave_without_a_barrier_is_a_raw_race():
    d = LdsRaceDetector(2)
    d.record(0, 3, _lds_write([0, 4]), issued=10, complete=70)
    d.record(1, 5, _lds_read([4]), issued=90, complete=150)
    (race,) = d.races()
    assert race.kind == "RAW" and race.waves == {0, 1} and race.count == 1


def test_a_barrier_after_the_write_landed_orders_it():
    d = LdsRaceDetector(2)
    d.record(0, 3, _lds_write([0]), issued=10, complete=70)
    d.barrier(80)
    d.record(1, 5, _lds_read([0]), issued=90, complete=150)
    assert d.races() == []


def test_a_write_still_in_flight_at_the_barrier_is_not_ordered_by_it():
    d = LdsRaceDetector(2)
    d.record(0, 3, _lds_write([0]), issued=10, complete=120)
    d.barrier(80)  # released before the write landed
    d.record(1, 5, _lds_read([0]), issued=90, complete=150)
    assert [r.kind for r in d.races()] == ["RAW"]


def test_the_schedule_does_not_hide_a_race():
    """Whichever wave ran first, the same pair is reported (a late wave changes only the order)."""
    early, late = LdsRaceDetector(2), LdsRaceDetector(2)
    early.record(0, 3, _lds_write([0]), issued=10, complete=70)
    early.record(1, 5, _lds_read([0]), issued=2000, complete=2060)
    late.record(1, 5, _lds_read([0]), issued=10, complete=70)
    late.record(0, 3, _lds_write([0]), issued=2000, complete=2060)
    assert [r.kind for r in early.races()] == ["RAW"]
    assert [r.kind for r in late.races()] == ["RAW"]  # named by program order: the write (3) precedes the read (5)
    assert [len(r.seen) for r in early.races()] == [0]  # this order matches the code's
    assert [len(r.seen) for r in late.races()] == [1]  # the read landed first: it got the old value


def test_atomics_against_atomics_and_a_wave_against_itself_never_race():
    d = LdsRaceDetector(2)
    d.record(0, 1, _lds_atomic([0]), issued=10, complete=70)
    d.record(1, 1, _lds_atomic([0]), issued=12, complete=72)
    d.record(0, 2, _lds_write([8]), issued=20, complete=80)
    d.record(0, 3, _lds_read([8]), issued=30, complete=90)
    assert d.races() == []


def test_an_atomic_against_a_plain_read_races():
    d = LdsRaceDetector(2)
    d.record(0, 1, _lds_atomic([0]), issued=10, complete=70)
    d.record(1, 2, _lds_read([0]), issued=12, complete=72)
    assert len(d.races()) == 1


def test_one_wave_records_nothing():
    d = LdsRaceDetector(1)
    d.record(0, 1, _lds_write([0]), issued=10, complete=70)
    assert d.accesses == [] and d.races() == []


def _run(path: Path):
    from gcnemu.snippets.runner import load_snippet
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    return kernel, snippet.simulate(kernel)


MULTI_WAVE = ["sgemm_vector.s", "lds_dma_copy.s", "lds_dma_copy_gfx942.s", "batched_hgemm_4x4_lds.s",
              "batched_hgemm_4x4.s", "lane_ids.s", "vector_add.s",
              "gemm_lds_dma_gfx90a.s", "gemm_lds_dma_gfx942.s", "miopen_igemm/conv1x1_fwd_nhwc_fp16.s"]
"""Every program of programs/ that runs more than one wave (the gallery aside): none may race."""


@pytest.mark.parametrize("name", MULTI_WAVE)
def test_correct_multi_wave_programs_report_no_race(name):
    kernel, sim = _run(PROGRAMS / name)
    assert sim.error is None, sim.error
    assert [h.message for h in sim.hazards if h.rule in ("lds-race", "global-race")] == []


def test_the_gallery_race_names_both_instructions_waves_and_bytes():
    kernel, sim = _run(PROGRAMS / "hazard_gallery" / "22_lds_race_missing_barrier_wrong.s")
    (h,) = [h for h in sim.hazards if h.rule == "lds-race"]
    assert "RAW" in h.message and "ds_read_b32 (line 28)" in h.message and "ds_write_b32 (line 26)" in h.message
    assert "waves 0, 1, 2, 3" in h.message and "bytes 0x0..0x400" in h.message


GLOBAL_WAW = """// gcnemu:
//   arch: gfx90a
//   workgroup: 128
//   buffer out: u32[64] = 0
//   arg: out
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
k:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	v_and_b32 v1, 63, v0                      // tid % 64: the same slot in both waves
	v_lshlrev_b32 v2, 2, v1
	v_mov_b32 v3, v0
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v3, s[4:5]
	s_endpgm
"""


def test_two_waves_storing_the_same_global_words_race(tmp_path):
    from gcnemu.snippets.runner import load_snippet
    path = tmp_path / "waw.s"
    path.write_text(GLOBAL_WAW)
    snippet = load_snippet(str(path))
    sim = snippet.simulate(snippet.kernel())
    (h,) = [h for h in sim.hazards if h.rule == "global-race"]
    assert "global-memory race (WAW)" in h.message and "global_store_dword (line 14)" in h.message


def test_one_slot_per_work_item_is_clean(tmp_path):
    from gcnemu.snippets.runner import load_snippet
    path = tmp_path / "ok.s"
    path.write_text(GLOBAL_WAW.replace("u32[64]", "u32[128]").replace("v_and_b32 v1, 63, v0", "v_and_b32 v1, 0x3ff, v0"))
    snippet = load_snippet(str(path))
    sim = snippet.simulate(snippet.kernel())
    assert [h.rule for h in sim.hazards] == []


def _grid_snippet(tmp_path, expectation: str) -> Path:
    text = (PROGRAMS / "grid_scale.s").read_text()
    text = re.sub(r"^  s_lshl_b32 s9, s2, 6 .*$", "  s_mov_b32 s9, 0                   // every workgroup takes 0..63",
                  text, flags=re.M)
    text = text.replace("//   expect C = arange(1024) * 3", f"//   {expectation}")
    path = tmp_path / "grid_race.s"
    path.write_text(text)
    return path


def test_expect_hazards_none_fails_on_a_grid_race(tmp_path):
    from gcnemu.commands.test import run_one
    res = run_one(str(_grid_snippet(tmp_path, "expect hazards: none")), None)
    assert res.status == "FAIL"
    assert any("unexpected hazard 'grid-global-race' (between workgroups of the grid)" in line for line in res.report)


def test_a_grid_race_can_be_expected_by_its_rule(tmp_path):
    from gcnemu.commands.test import run_one
    assert run_one(str(_grid_snippet(tmp_path, "expect hazard grid-global-race")), None).status == "PASS"
    assert run_one(str(_grid_snippet(tmp_path, "expect no hazard grid-global-race")), None).status == "FAIL"


# --------------------------------------------------------------------------- the static rule (lint)

LINT_BASE = """// gcnemu:
//   arch: gfx90a
//   workgroup: {wg}
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
k:
	v_and_b32 v1, 0x3ff, v0
	v_lshlrev_b32 v2, 2, v1
{body}
	s_endpgm
"""


def _lint_races(tmp_path, body: str, wg: int = 256) -> list:
    import gcnemu
    from gcnemu.snippets.launch import launch_facts
    path = tmp_path / "k.s"
    path.write_text(LINT_BASE.format(wg=wg, body=body))
    prog = gcnemu.parse_file(path)
    return [d for d in gcnemu.lint(prog, "gfx90a", launch=launch_facts(prog)) if d.rule == "lds-race"]


def test_lint_proves_a_read_of_another_waves_slot_without_a_barrier(tmp_path):
    (d,) = _lint_races(tmp_path, "\tds_write_b32 v2, v1\n\tv_xor_b32 v4, 0x100, v2\n"
                                 "\ts_waitcnt lgkmcnt(0)\n\tds_read_b32 v5, v4\n")
    assert d.span.line == 12 and "RAW" in d.message and "(line 9)" in d.message
    assert "wave 1's ds_read_b32 and wave 0's ds_write_b32 both touch LDS byte 0x0" in d.notes[-1].message


def test_lint_is_silent_when_a_barrier_separates_them(tmp_path):
    assert _lint_races(tmp_path, "\tds_write_b32 v2, v1\n\tv_xor_b32 v4, 0x100, v2\n"
                                 "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n\tds_read_b32 v5, v4\n") == []


def test_lint_is_silent_when_each_wave_reads_only_its_own_slots(tmp_path):
    # tid ^ 32 stays inside the wave: no other wave ever touches those words
    assert _lint_races(tmp_path, "\tds_write_b32 v2, v1\n\tv_xor_b32 v4, 0x80, v2\n"
                                 "\ts_waitcnt lgkmcnt(0)\n\tds_read_b32 v5, v4\n") == []


def test_lint_is_silent_for_one_wave(tmp_path):
    assert _lint_races(tmp_path, "\tds_write_b32 v2, v1\n\tv_mov_b32 v4, 0\n\tds_read_b32 v5, v4\n", wg=64) == []


def test_lint_does_not_guess_an_address_built_from_a_kernel_argument(tmp_path):
    # s4 comes from memory: the addresses are unknown, so no race is claimed
    assert _lint_races(tmp_path, "\ts_load_dword s4, s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n"
                                 "\tv_mov_b32 v4, s4\n\tds_write_b32 v4, v1\n") == []


def test_lint_reports_every_wave_writing_the_same_word_once(tmp_path):
    (d,) = _lint_races(tmp_path, "\tv_mov_b32 v4, 0\n\tds_write_b32 v4, v1\n")
    assert "WAW" in d.message and "the same instruction" in d.message


def test_lint_finds_the_race_across_a_loop_back_edge(tmp_path):
    # one barrier per iteration: iteration k+1's write meets iteration k's read of another wave
    body = ("\ts_mov_b32 s8, 4\n\tv_xor_b32 v4, 0x100, v2\nloop:\n\tds_write_b32 v2, v1\n"
            "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n\tds_read_b32 v5, v4\n\ts_waitcnt lgkmcnt(0)\n"
            "\ts_sub_u32 s8, s8, 1\n\ts_cmp_lg_u32 s8, 0\n\ts_cbranch_scc1 loop\n")
    (d,) = _lint_races(tmp_path, body)
    assert "ds_write_b32 in one wave writes LDS that ds_read_b32" in d.message  # WAR: the write comes later
    fixed = body.replace("\ts_sub_u32", "\ts_barrier\n\ts_sub_u32")
    assert _lint_races(tmp_path, fixed) == []


def test_lint_skips_accesses_only_some_waves_may_run(tmp_path):
    # a wave-dependent branch could keep both accesses in one wave: not proven, not reported
    body = ("\tv_readfirstlane_b32 s8, v1\n\ts_cmp_eq_u32 s8, 0\n\ts_cbranch_scc0 skip\n"
            "\tv_mov_b32 v4, 0\n\tds_write_b32 v4, v1\nskip:\n")
    assert _lint_races(tmp_path, body) == []


def test_lint_takes_the_workgroup_from_reqd_workgroup_size(tmp_path):
    from gcnemu.analysis.values import LaunchFacts  # noqa: F401 (the facts lint is given)
    from gcnemu.snippets.launch import launch_facts
    import gcnemu
    src = (PROGRAMS / "hazard_gallery" / "22_lds_race_missing_barrier_wrong.s").read_text()
    src = src.replace("//   workgroup: 256\n", "")
    path = tmp_path / "no_header.s"
    path.write_text(src)
    assert launch_facts(gcnemu.parse_file(path)).workgroup is None  # no header size, no metadata
    assert [d for d in gcnemu.lint(gcnemu.parse_file(path), "gfx90a", launch=launch_facts(gcnemu.parse_file(path)))
            if d.rule == "lds-race"] == []


@pytest.mark.parametrize("name", MULTI_WAVE)
def test_lint_claims_no_race_in_correct_multi_wave_programs(name):
    import gcnemu
    from gcnemu.snippets.launch import launch_facts
    prog = gcnemu.parse_file(PROGRAMS / name)
    from gcnemu.asm.validate import program_target
    assert [d.message for d in gcnemu.lint(prog, program_target(prog, None), launch=launch_facts(prog))
            if d.rule == "lds-race"] == []


# --------------------------------------------------------------------------- grids: reads against writes

SHIFT_IN_PLACE = """// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   grid: 4
//   buffer X: f32[257] = arange(257) -> s[4:5]
//   {expect}
  .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
  .text
k:
  s_lshl_b32 s9, s2, 6
  v_add_u32 v1, s9, v0
  v_lshlrev_b32 v1, 2, v1
  global_load_dword v2, v1, s[4:5] offset:{offset}
  s_waitcnt vmcnt(0)
  global_store_dword v1, v2, s[4:5]
  s_endpgm
"""


def test_a_workgroup_reading_what_another_writes_is_a_grid_race(tmp_path):
    from gcnemu.commands.test import run_one
    path = tmp_path / "shift.s"
    path.write_text(SHIFT_IN_PLACE.format(expect="expect hazards: none", offset=4))  # x[i] = x[i + 1]
    res = run_one(str(path), None)
    assert res.status == "FAIL"
    assert any("workgroup (0, 0, 0) reads 4 bytes of buffer 'X' (in [256, 260)) that workgroup (1, 0, 0) writes"
               in line for line in res.report)


def test_reading_and_writing_only_its_own_elements_is_clean(tmp_path):
    from gcnemu.commands.test import run_one
    path = tmp_path / "own.s"
    path.write_text(SHIFT_IN_PLACE.format(expect="expect hazards: none", offset=0))  # x[i] = x[i]
    assert run_one(str(path), None).status == "PASS"


def test_a_race_this_run_exposed_is_counted_and_one_it_ordered_is_said_to_be_unseen(tmp_path):
    from gcnemu.snippets.runner import load_snippet
    src = (PROGRAMS / "hazard_gallery" / "22_lds_race_missing_barrier_wrong.s").read_text()
    _, sim = _run(PROGRAMS / "hazard_gallery" / "22_lds_race_missing_barrier_wrong.s")
    (h,) = [h for h in sim.hazards if h.rule == "lds-race"]
    assert "not seen racing in this run" in h.message
    # wave 0 made late (the s_sleep experiment): the other waves read its slots first
    late = src.replace("\tds_write_b32 v2, v3\n",
                       "\tv_readfirstlane_b32 s8, v1\n\ts_cmp_eq_u32 s8, 0\n\ts_cbranch_scc0 go\n\ts_sleep 20\n"
                       "go:\n\tds_write_b32 v2, v3\n")
    late = "\n".join(l for l in late.splitlines() if "expect" not in l) + "\n"
    path = tmp_path / "late.s"
    path.write_text(late)
    snippet = load_snippet(str(path))
    sim = snippet.simulate(snippet.kernel())
    seen = [h.message for h in sim.hazards if h.rule == "lds-race" and "seen racing" in h.message
            and "not seen" not in h.message]
    assert seen and re.search(r"seen racing \d+ times? of \d+ in this run", seen[0])


@pytest.mark.parametrize("name", ["22_lds_race_missing_barrier_wrong.s", "25_global_race_in_workgroup_wrong.s"])
def test_races_are_reported_again_after_going_back_before_the_end(name):
    """The debugger goes back to a snapshot and runs on: the races the run reports at its end
    are reported again, once (they were lost when the detectors were dropped at the end)."""
    from gcnemu.snippets.runner import load_snippet
    sim = load_snippet(str(PROGRAMS / "hazard_gallery" / name)).simulate(run=False)
    eng = sim.engine
    for _ in range(3):
        sim.step()
    early = eng.snapshot()
    sim.run()
    races = [(h.rule, h.wave, h.consumer, h.producer) for h in eng.hazards if h.rule.endswith("race")]
    assert races
    end = eng.snapshot()
    eng.restore(early)
    sim.run()
    assert [(h.rule, h.wave, h.consumer, h.producer) for h in eng.hazards if h.rule.endswith("race")] == races
    eng.restore(end)
    sim.run()  # (at the end already: nothing new)
    assert [(h.rule, h.wave, h.consumer, h.producer) for h in eng.hazards if h.rule.endswith("race")] == races
