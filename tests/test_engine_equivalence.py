"""The timed engine's observable results are pinned: optimisations must not change them.

Why: issue 16 makes the timed engine several times faster by restructuring its issue path
(plans for more instructions, fused schedule/apply/record, caches). Every such step must
leave what a user sees unchanged: the cycle count, every register of every wave, memory and
LDS, the hazards found (rule, wave, cycle, instructions, registers, lanes, stale values), the
per-issue timeline records and the per-wave stall breakdown.

`EXPECTED` below was generated ONCE from the engine as it was before the optimisations
(commit 443942e) by running this file as a script:

    PYTHONPATH=. python tests/test_engine_equivalence.py > /tmp/expected.py

and pasting its output. It is data, not a hand-written expectation: a failure here means an
optimisation changed behaviour (fix the optimisation); only an intended semantic change to
the engine may regenerate it, and its commit must say why.

Cases: every program in programs/ and programs/hazard_gallery/ and the snippet tests in
tests/snippets/, run as their headers declare (with the hazard monitor, as `gcnemu run`
does); the benchmark's ALU, memory and MFMA loops on 1 and 4 waves; and one workgroup of a
real MIOpen implicit-GEMM kernel (benchmarks/igemm_workload.py).
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, mod)
    spec.loader.exec_module(mod)
    return mod


def _files() -> list[Path]:
    return (sorted((ROOT / "programs").glob("*.s")) + sorted((ROOT / "programs" / "hazard_gallery").glob("*.s"))
            + sorted((ROOT / "tests" / "snippets").glob("*.s")))


LOOPS = [(name, waves) for name in ("alu-loop", "mem-loop", "mfma-loop") for waves in (1, 4)]
CASES = [str(p.relative_to(ROOT)) for p in _files()] + [f"{n}@{w}" for n, w in LOOPS] + ["igemm"]


def _simulation(case: str):
    if case == "igemm":
        return _load("igemm_workload").igemm_simulation(c=64)
    if "@" in case:
        name, waves = case.split("@")
        bench = _load("bench_engine")
        return bench.make(bench.program(bench.BODIES[name], 40), int(waves))
    from gcnemu.snippets.runner import load_snippet
    return load_snippet(str(ROOT / case)).simulate(run=False)


def _h(*parts) -> str:
    m = hashlib.sha256()
    for p in parts:
        if isinstance(p, np.ndarray):
            m.update(str(p.dtype).encode())
            m.update(np.ascontiguousarray(p).tobytes())
        else:
            m.update(repr(p).encode())
        m.update(b"|")
    return m.hexdigest()[:16]


def observe(case: str, stepped: bool = False) -> dict:
    """What a user can see of a run, as short digests (and the plain figures). `stepped`: the
    run goes cycle by cycle through `Simulation.step` (the debugger's path) instead of `run`."""
    from gcnemu.sim.engine import wave_summary
    sim = _simulation(case)
    if stepped:
        while sim.step():
            pass
    else:
        sim.run()
    eng = sim.engine
    regs = [_h(w.sgpr, w.vgpr, w.agpr, w.sgpr_init, w.vgpr_init, w.agpr_init, int(w.scc), int(w.pc), bool(w.done))
            for w in sim.waves]
    memory = _h(*[b.data for b in sim.memory.buffers], sim.lds.data)
    hazards = [(h.rule, h.wave, h.cycle, h.consumer, h.producer, [tuple(r) for r in h.registers], h.lands,
                h.lanes, sorted((k, _h(np.asarray(v))) for k, v in h.values.items()), h.message, h.source)
               for h in eng.hazards]
    records = _h([(r.wave, r.index, r.ready, r.issue, r.complete, sorted(r.stalls.items()), r.slot)
                  for r in eng.records])
    summaries = _h([wave_summary(eng, i) for i in range(len(eng.waves))])
    return {"cycles": sim.cycles, "instructions": sim.instructions_executed,
            "error": None if sim.error is None else sim.error.message,
            "registers": _h(regs), "memory": memory, "hazards": _h(hazards), "n_hazards": len(hazards),
            "records": records, "stalls": _h(summaries), "notes": _h([(wv, str(getattr(n, "message", n))) for wv, n in eng.notes]),
            "pipes": _h(sorted(map(repr, eng.pipe_use.items())))}


@pytest.mark.parametrize("case", CASES)
def test_the_engine_reproduces_the_pinned_results(case: str):
    assert case in EXPECTED, f"{case}: no pinned result (a new program? regenerate, see the module doc)"
    got = observe(case)
    want = EXPECTED[case]
    # the plain figures first, so a failure says what changed in words a user knows
    for key in ("error", "cycles", "instructions", "n_hazards"):
        assert got[key] == want[key], f"{case}: {key} {got[key]!r}, pinned {want[key]!r}"
    for key in ("registers", "memory", "hazards", "records", "stalls", "notes", "pipes"):
        assert got[key] == want[key], f"{case}: {key} differ from the pinned run"


STEPPED = ["programs/gemm_lds_dma_gfx942.s", "programs/hazard_gallery/05_load_result_before_vmcnt_wrong.s",
           "programs/loop_sum.s", "mem-loop@1", "mfma-loop@4"]


@pytest.mark.parametrize("case", STEPPED)
def test_stepping_cycle_by_cycle_reproduces_the_pinned_results(case: str):
    """The debugger advances with Simulation.step; its results must be the run's."""
    got = observe(case, stepped=True)
    assert got == EXPECTED[case]


def test_every_case_is_pinned_and_nothing_else():
    assert sorted(EXPECTED) == sorted(CASES)




# generated once from the engine before the optimisations (see the module docstring)
EXPECTED: dict[str, dict] = {
    'programs/batched_hgemm_4x4.s': {'cycles': 2115, 'instructions': 284, 'error': None, 'registers': '6fe6beb1a1b75a8a', 'memory': '86a54a6321f45cc7', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '4a419e29e6a84005', 'stalls': '5bf7b3a8d292b405', 'notes': '8d8b37d81e1b5c3d', 'pipes': '6118711822c654d5'},
    'programs/batched_hgemm_4x4_lds.s': {'cycles': 3657, 'instructions': 696, 'error': None, 'registers': 'aa73d47f3c02b5cd', 'memory': '0ce17d622f76f9f9', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '86df2125b68d577e', 'stalls': '833e88d348bb2564', 'notes': '8d8b37d81e1b5c3d', 'pipes': '89c1430052142ae1'},
    'programs/bpermute_reduce.s': {'cycles': 1416, 'instructions': 45, 'error': None, 'registers': '40e86b8d97deb1da', 'memory': 'd7a969c06551ca9c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'a21c4f98fc3617d3', 'stalls': '076240e2e889099f', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'bfa84e74b912f6b1'},
    'programs/debug_demo.s': {'cycles': 813, 'instructions': 31, 'error': None, 'registers': '30fb16b792c67811', 'memory': '06bb4bb393a00493', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'bb3c60f3d8ab2c1a', 'stalls': '15f289e490bd3399', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'd4e52ab5bde355c4'},
    'programs/gemm_lds_dma_gfx90a.s': {'cycles': 5039, 'instructions': 1216, 'error': None, 'registers': 'e631d57e6581d02c', 'memory': 'f54b7b128b9a7e49', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '0290536cc4a199f3', 'stalls': 'cad61d3cf26cf990', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'b8fe353179bee992'},
    'programs/gemm_lds_dma_gfx942.s': {'cycles': 4292, 'instructions': 1228, 'error': None, 'registers': 'b35fa3ba02232942', 'memory': 'f54b7b128b9a7e49', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '0976656fa1509fc2', 'stalls': '30f87811cff13b7f', 'notes': '8d8b37d81e1b5c3d', 'pipes': '3c8287d7d3099288'},
    'programs/grid_scale.s': {'cycles': 828, 'instructions': 8, 'error': None, 'registers': '07aa15703694d08b', 'memory': 'e9b51154ef0efd90', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '4ef7f4a16c637b07', 'stalls': 'c663a22b8b62eb83', 'notes': '8d8b37d81e1b5c3d', 'pipes': '961e9316b40b5bc1'},
    'programs/hipcc_save_temps_gfx90a.s': {'cycles': 1020, 'instructions': 29, 'error': None, 'registers': '6960eea9dbe00b4a', 'memory': 'd7b4feaf551bd097', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '60f3addf1c9e90c9', 'stalls': '5513ed00bf602370', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'd5f24d42c9acb92e'},
    'programs/lane_ids.s': {'cycles': 397, 'instructions': 26, 'error': None, 'registers': 'e644d7eec3778cf5', 'memory': 'c93a23d5ecc1f37c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'e87f069088875909', 'stalls': 'f44f1e9c31e650ef', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7b90ad19e66da380'},
    'programs/lds_dma_copy.s': {'cycles': 1089, 'instructions': 36, 'error': None, 'registers': '870544b45c63e380', 'memory': 'bb7c912794e6e6b2', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'a85c1731d6a3c9d4', 'stalls': '989d0da1fe09baec', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'acb7f4f3bc8bb747'},
    'programs/lds_dma_copy_gfx942.s': {'cycles': 1065, 'instructions': 26, 'error': None, 'registers': '58160fd7148b95d1', 'memory': '66eab812b6804b03', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '1125b3f97134ef61', 'stalls': '2bd36b2e8387fa57', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'f3571158841b0af8'},
    'programs/loop_sum.s': {'cycles': 3004, 'instructions': 51, 'error': None, 'registers': '27dce6f35b7dcf06', 'memory': '75d8f207fb337e53', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'b471e3dc496885c8', 'stalls': 'f3597d7ff3a9a23a', 'notes': '8d8b37d81e1b5c3d', 'pipes': '4dddfa476ce5ce53'},
    'programs/mfma_16x16x1f32_4blocks.s': {'cycles': 468, 'instructions': 30, 'error': None, 'registers': '092a8b716ec54ed0', 'memory': '332bd99539781bb5', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '679d07d078960668', 'stalls': '525d1f742057deb1', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'bb8d37d88126b9b2'},
    'programs/mfma_16x16x4f32.s': {'cycles': 420, 'instructions': 17, 'error': None, 'registers': 'ed55d6c9a49c03de', 'memory': 'fd589c374475d535', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '7982e5741793d606', 'stalls': '220b78e82202a2ab', 'notes': '8d8b37d81e1b5c3d', 'pipes': '0e65ae173ced4d4e'},
    'programs/mfma_4x4x4f64_4blocks.s': {'cycles': 404, 'instructions': 19, 'error': None, 'registers': '8b6fb209c8cc309d', 'memory': 'f9561cb33ddaff3f', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '7bd43e9e75950174', 'stalls': '598a29543c262ebf', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'a1fccce16199ff66'},
    'programs/sgemm_vector.s': {'cycles': 9734, 'instructions': 5696, 'error': None, 'registers': '493012a75c12e053', 'memory': 'fa983b08a7b69960', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '80230a861646422d', 'stalls': '2d90e7102fa35644', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'ed3c3c06c8dbf691'},
    'programs/vector_add.s': {'cycles': 923, 'instructions': 52, 'error': None, 'registers': '28f1637abf7e72db', 'memory': '47dcc246bc4c55a6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'f4b54f658798a87b', 'stalls': '05380d5cd5d106f7', 'notes': '8d8b37d81e1b5c3d', 'pipes': '87c176cb4c07b19d'},
    'programs/hazard_gallery/01_mfma_result_valu_read_fixed.s': {'cycles': 388, 'instructions': 12, 'error': None, 'registers': '1b0a192c6ef8a514', 'memory': '8fffc5ec6309c5f6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '3ca77083279572de', 'stalls': 'c8ef989e0aff90d6', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'ed600ef1a085509e'},
    'programs/hazard_gallery/01_mfma_result_valu_read_wrong.s': {'cycles': 376, 'instructions': 11, 'error': None, 'registers': '2f58aae7719c75e2', 'memory': '0a1440869ae9697c', 'hazards': '3284dc7e7d4b114c', 'n_hazards': 1, 'records': 'a71cf5eb2f4a3028', 'stalls': '6de3d565dd1bd808', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'ed600ef1a085509e'},
    'programs/hazard_gallery/02_valu_write_mfma_read_fixed.s': {'cycles': 376, 'instructions': 10, 'error': None, 'registers': '2a1485d081234d23', 'memory': '995857c3edb35d03', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8d83cc0c1b8ec6e5', 'stalls': '0f556eea7d1b1f87', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'fb5760e935b6fbc4'},
    'programs/hazard_gallery/02_valu_write_mfma_read_wrong.s': {'cycles': 376, 'instructions': 9, 'error': None, 'registers': 'ba043ca663b817b0', 'memory': '995857c3edb35d03', 'hazards': 'afc39e2127eec017', 'n_hazards': 1, 'records': '26415e24c309f7e9', 'stalls': '8bac6ef4399798dd', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'fb5760e935b6fbc4'},
    'programs/hazard_gallery/03_accvgpr_write_read_fixed.s': {'cycles': 376, 'instructions': 10, 'error': None, 'registers': '4a0805dbe1b17350', 'memory': '4d9197a0f6179648', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'a4abcf3a6f776618', 'stalls': '41b64b8bbb122a1e', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'aee854d320b6a75e'},
    'programs/hazard_gallery/03_accvgpr_write_read_wrong.s': {'cycles': 376, 'instructions': 9, 'error': None, 'registers': 'eb4df8f5f873d681', 'memory': '4d9197a0f6179648', 'hazards': 'f83090e338996a96', 'n_hazards': 1, 'records': '12184394205e8f2e', 'stalls': 'a933d2586e5c0576', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'aee854d320b6a75e'},
    'programs/hazard_gallery/04_salu_m0_lds_dma_fixed.s': {'cycles': 996, 'instructions': 9, 'error': None, 'registers': 'ffed2764d36877b4', 'memory': 'd3142491ee2ab55a', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'dd714e1116be0acb', 'stalls': '6ba884bae935ffe7', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e37d274646dd86e8'},
    'programs/hazard_gallery/04_salu_m0_lds_dma_wrong.s': {'cycles': 996, 'instructions': 9, 'error': None, 'registers': 'ffed2764d36877b4', 'memory': 'd3142491ee2ab55a', 'hazards': '5ea50b3aeeb880fb', 'n_hazards': 1, 'records': 'dd714e1116be0acb', 'stalls': '6ba884bae935ffe7', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e37d274646dd86e8'},
    'programs/hazard_gallery/05_load_result_before_vmcnt_fixed.s': {'cycles': 892, 'instructions': 9, 'error': None, 'registers': '69123d3ff361c3c2', 'memory': '99e6ccd6b99abaa9', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '4b66f2afecd13116', 'stalls': '191417beb1b7e374', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7479612aafafa353'},
    'programs/hazard_gallery/05_load_result_before_vmcnt_wrong.s': {'cycles': 580, 'instructions': 8, 'error': None, 'registers': '0f7ecc94f7522602', 'memory': 'c01d9032f69c9a1f', 'hazards': '736882be973f53fa', 'n_hazards': 1, 'records': '841956cdd08861a8', 'stalls': '2eb9684c348db6e6', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7479612aafafa353'},
    'programs/hazard_gallery/06_lds_dma_read_before_vmcnt_fixed.s': {'cycles': 996, 'instructions': 9, 'error': None, 'registers': '35fe9f4385fd6320', 'memory': 'ea74c6b131c5832f', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'dd714e1116be0acb', 'stalls': '6ba884bae935ffe7', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e37d274646dd86e8'},
    'programs/hazard_gallery/06_lds_dma_read_before_vmcnt_wrong.s': {'cycles': 616, 'instructions': 9, 'error': None, 'registers': '6cfe77cd661411e7', 'memory': '9639af4db60fa386', 'hazards': '5fb90b318f98563f', 'n_hazards': 1, 'records': '3286985557bb8828', 'stalls': '25b391b3315cd4dc', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e37d274646dd86e8'},
    'programs/hazard_gallery/07_ds_read_before_lgkmcnt_fixed.s': {'cycles': 404, 'instructions': 11, 'error': None, 'registers': '597c9b81b3b51d32', 'memory': 'acdf253ece446ad4', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8a0cf9966de4567a', 'stalls': '709d679891895487', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'be44ddee0f036591'},
    'programs/hazard_gallery/07_ds_read_before_lgkmcnt_wrong.s': {'cycles': 400, 'instructions': 11, 'error': None, 'registers': '1558d87a5c240564', 'memory': '3494eba6c5b8650b', 'hazards': '890e04afb0e2fd6d', 'n_hazards': 1, 'records': 'c35a1b809650a1d1', 'stalls': '94f88717ca01d9df', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'be44ddee0f036591'},
    'programs/hazard_gallery/08_smem_lds_mixed_lgkmcnt_fixed.s': {'cycles': 408, 'instructions': 7, 'error': None, 'registers': '8b7dd3b564cd5fd4', 'memory': 'e3569930d454d4be', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '418fbb824e93bb9f', 'stalls': 'd5a0a83b53905645', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7fda79a12d50a069'},
    'programs/hazard_gallery/08_smem_lds_mixed_lgkmcnt_wrong.s': {'cycles': 404, 'instructions': 8, 'error': None, 'registers': '52237d2008200719', 'memory': 'af757d0cfac68f41', 'hazards': 'aaf153646906da0c', 'n_hazards': 2, 'records': '2060c8b0383211a7', 'stalls': '2d59f63aef5723dc', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7fda79a12d50a069'},
    'programs/hazard_gallery/09_barrier_before_lds_writes_done_fixed.s': {'cycles': 484, 'instructions': 24, 'error': None, 'registers': '8696729f212f95a9', 'memory': '9eac2eba737da6b7', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'bd07b4893d4cab61', 'stalls': '3d7c286d79625cef', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'b8a031fcb4505d3c'},
    'programs/hazard_gallery/09_barrier_before_lds_writes_done_wrong.s': {'cycles': 416, 'instructions': 22, 'error': None, 'registers': '200acff8ec1bcddc', 'memory': '9eac2eba737da6b7', 'hazards': '09cf06c089114e64', 'n_hazards': 3, 'records': '25b3510b5ff9bdd6', 'stalls': 'b46ff05e0e8f0c1d', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'b8a031fcb4505d3c'},
    'programs/hazard_gallery/10_mfma_result_mfma_srcab_fixed.s': {'cycles': 432, 'instructions': 13, 'error': None, 'registers': '409dea2b54f7bb0c', 'memory': '5a27349203edf10d', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '1517f1c8816ea50d', 'stalls': '503b22108e5d407b', 'notes': '8d8b37d81e1b5c3d', 'pipes': '1949004ba861ed1d'},
    'programs/hazard_gallery/10_mfma_result_mfma_srcab_wrong.s': {'cycles': 416, 'instructions': 12, 'error': None, 'registers': 'd98dbc6eab7c8be3', 'memory': '5a27349203edf10d', 'hazards': 'e0e140f2e1ef2768', 'n_hazards': 1, 'records': 'cb5a752180de7244', 'stalls': 'ef9da3b52e305e97', 'notes': '8d8b37d81e1b5c3d', 'pipes': '1949004ba861ed1d'},
    'programs/hazard_gallery/11_mfma_srcc_overlap_fixed.s': {'cycles': 432, 'instructions': 16, 'error': None, 'registers': '3b26b6147168d47f', 'memory': '8fffc5ec6309c5f6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'ada3b81e2529efaf', 'stalls': '519edf69fe973208', 'notes': '8d8b37d81e1b5c3d', 'pipes': '61a5b7573d5042ba'},
    'programs/hazard_gallery/11_mfma_srcc_overlap_wrong.s': {'cycles': 428, 'instructions': 15, 'error': None, 'registers': '6f853fa7bae2113e', 'memory': '8fffc5ec6309c5f6', 'hazards': '2fd980a3fe391774', 'n_hazards': 1, 'records': 'd04dbbb1cf3616fd', 'stalls': 'e357c1a5b28e86b0', 'notes': '8d8b37d81e1b5c3d', 'pipes': '61a5b7573d5042ba'},
    'programs/hazard_gallery/12_mfma_2pass_srcc_exact_fixed.s': {'cycles': 376, 'instructions': 14, 'error': None, 'registers': '8689baba6be00a51', 'memory': '8fffc5ec6309c5f6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '63c57188daa14667', 'stalls': 'efc7eb4ae633167d', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7175dff31aede910'},
    'programs/hazard_gallery/12_mfma_2pass_srcc_exact_wrong.s': {'cycles': 376, 'instructions': 13, 'error': None, 'registers': '52b43b6ce94fc89f', 'memory': '8fffc5ec6309c5f6', 'hazards': '0921258266da5274', 'n_hazards': 1, 'records': '3f3e228530da07a3', 'stalls': 'e373071401c44815', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7175dff31aede910'},
    'programs/hazard_gallery/13_mfma_result_valu_overwrite_fixed.s': {'cycles': 388, 'instructions': 12, 'error': None, 'registers': 'b046e5604b91b830', 'memory': '2426429352227bb9', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8676d9319e51ac0e', 'stalls': 'c8ef989e0aff90d6', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'ed600ef1a085509e'},
    'programs/hazard_gallery/13_mfma_result_valu_overwrite_wrong.s': {'cycles': 384, 'instructions': 12, 'error': None, 'registers': '1b0a192c6ef8a514', 'memory': '8fffc5ec6309c5f6', 'hazards': 'f62418a6d384d2a9', 'n_hazards': 1, 'records': '0562547e8fdd6727', 'stalls': '00b81900ced33c5f', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'ed600ef1a085509e'},
    'programs/hazard_gallery/14_mfma_srcc_valu_overwrite_fixed.s': {'cycles': 396, 'instructions': 16, 'error': None, 'registers': '3dff78329eee0572', 'memory': 'd5457cac8450eccd', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'c5345a0e554015cf', 'stalls': '7f8d0ea30a09869c', 'notes': '8d8b37d81e1b5c3d', 'pipes': '51f9ca4e64495e9f'},
    'programs/hazard_gallery/14_mfma_srcc_valu_overwrite_wrong.s': {'cycles': 396, 'instructions': 15, 'error': None, 'registers': '592c629e44438793', 'memory': 'd5457cac8450eccd', 'hazards': '4a5b627e963c40f5', 'n_hazards': 1, 'records': 'f3910e0bc53d8bcf', 'stalls': 'd3a2954d2b50d658', 'notes': '8d8b37d81e1b5c3d', 'pipes': '51f9ca4e64495e9f'},
    'programs/hazard_gallery/15_valu_sgpr_vmem_read_fixed.s': {'cycles': 848, 'instructions': 9, 'error': None, 'registers': '56f26215956fd199', 'memory': '43ddcc4e3ce18343', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '065d0b897f2e1158', 'stalls': '94eca6edd4b5cd4d', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7479612aafafa353'},
    'programs/hazard_gallery/15_valu_sgpr_vmem_read_wrong.s': {'cycles': 828, 'instructions': 8, 'error': None, 'registers': 'cf7f3a6ff16c6264', 'memory': '43ddcc4e3ce18343', 'hazards': '39289026c4283371', 'n_hazards': 1, 'records': '3bb746298c3dc5b3', 'stalls': 'c663a22b8b62eb83', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7479612aafafa353'},
    'programs/hazard_gallery/16_valu_sgpr_lane_select_fixed.s': {'cycles': 376, 'instructions': 11, 'error': None, 'registers': 'c3d8d7dd1011c16b', 'memory': '68d7043b7794fdfa', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8e5ebe025abd6ae1', 'stalls': 'b02b4b802effea8b', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e89041659428c071'},
    'programs/hazard_gallery/16_valu_sgpr_lane_select_wrong.s': {'cycles': 376, 'instructions': 10, 'error': None, 'registers': '08dd84f7daa24fb5', 'memory': '68d7043b7794fdfa', 'hazards': '837c90431f9e3a2d', 'n_hazards': 1, 'records': 'dfddc447c904a8f5', 'stalls': 'f255abc8ed77987a', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e89041659428c071'},
    'programs/hazard_gallery/17_setreg_getreg_fixed.s': {'cycles': 376, 'instructions': 10, 'error': None, 'registers': 'da6d633ac9791c11', 'memory': '301dbbb2e0431b97', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '600bed95c907ecf5', 'stalls': '7195e00e11899ecf', 'notes': '02f6286f15b3fd7f', 'pipes': 'd470a6204cc6e841'},
    'programs/hazard_gallery/17_setreg_getreg_wrong.s': {'cycles': 376, 'instructions': 9, 'error': None, 'registers': '0fa24933560a0dc6', 'memory': '301dbbb2e0431b97', 'hazards': '8f9e4b9bacb8f437', 'n_hazards': 1, 'records': '65873ec44ef6fb3c', 'stalls': '84e386e9bcde4ff8', 'notes': '02f6286f15b3fd7f', 'pipes': 'd470a6204cc6e841'},
    'programs/hazard_gallery/18_wide_store_data_overwrite_fixed.s': {'cycles': 420, 'instructions': 16, 'error': None, 'registers': 'a0e8efd359c1c1a7', 'memory': '9bb6a1f2f2af8f25', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '2b190d7453085aa3', 'stalls': '8fec656f80a4aaba', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'c8b852f09758b216'},
    'programs/hazard_gallery/18_wide_store_data_overwrite_wrong.s': {'cycles': 412, 'instructions': 15, 'error': None, 'registers': '43e323e87d54daa0', 'memory': '9bb6a1f2f2af8f25', 'hazards': '446894faf686726d', 'n_hazards': 1, 'records': '85372bd19cd4e8b2', 'stalls': '7d429e6c61d46214', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'c8b852f09758b216'},
    'programs/hazard_gallery/19_load_dst_overwrite_before_vmcnt_fixed.s': {'cycles': 892, 'instructions': 8, 'error': None, 'registers': 'fc91f3c06d5e62f8', 'memory': 'c1d99178d5d5b4d5', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '6498044aa28cb695', 'stalls': 'a999f5c63d4fac03', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7af80e275b9e8843'},
    'programs/hazard_gallery/19_load_dst_overwrite_before_vmcnt_wrong.s': {'cycles': 888, 'instructions': 8, 'error': None, 'registers': 'd94158d8509f82d4', 'memory': '40f002443d79a8b4', 'hazards': '5a1e88fb3c29b460', 'n_hazards': 1, 'records': '6627d5b0c80b95b2', 'stalls': 'd1d8d8447f2e7868', 'notes': '8d8b37d81e1b5c3d', 'pipes': '7af80e275b9e8843'},
    'programs/hazard_gallery/20_dgemm_result_valu_read_fixed.s': {'cycles': 404, 'instructions': 15, 'error': None, 'registers': '8a9d0a6c02977933', 'memory': 'f422e73baee198eb', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'ac39b18da5ff930d', 'stalls': 'dc5f6dab4218e4f5', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e370764ef4e4a3db'},
    'programs/hazard_gallery/20_dgemm_result_valu_read_wrong.s': {'cycles': 388, 'instructions': 14, 'error': None, 'registers': 'd2ea9d8065f37a64', 'memory': 'f422e73baee198eb', 'hazards': 'e2401e64ed84de31', 'n_hazards': 1, 'records': 'fc000630c60811b5', 'stalls': '6e24793164250da5', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e370764ef4e4a3db'},
    'programs/hazard_gallery/21_dgemm_4x4_srcc_chain_fixed.s': {'cycles': 404, 'instructions': 14, 'error': None, 'registers': '96b0037b612c330f', 'memory': '6de5c34949553282', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '7d462b035e34f325', 'stalls': '95e952c4db4526f9', 'notes': '8d8b37d81e1b5c3d', 'pipes': '189820fb3f9e7db7'},
    'programs/hazard_gallery/21_dgemm_4x4_srcc_chain_wrong.s': {'cycles': 400, 'instructions': 13, 'error': None, 'registers': '5a19897dea64b289', 'memory': '6de5c34949553282', 'hazards': 'bc4680341f32dc8c', 'n_hazards': 1, 'records': '79ec6cc47004468b', 'stalls': '2edd45242039ab76', 'notes': '8d8b37d81e1b5c3d', 'pipes': '189820fb3f9e7db7'},
    'programs/hazard_gallery/24_lds_race_same_words_wrong.s': {'cycles': 498, 'instructions': 52, 'error': None, 'registers': 'ecfe595cf6531f86', 'memory': '795a0099aa687e77', 'hazards': 'bc6e01512eea450b', 'n_hazards': 1, 'records': 'ac74043b0d38cd99', 'stalls': '3b4c440b6eeeadf4', 'notes': '8d8b37d81e1b5c3d', 'pipes': '916abeb2b4f3f204'},
    'programs/hazard_gallery/25_global_race_in_workgroup_fixed.s': {'cycles': 1230, 'instructions': 52, 'error': None, 'registers': '0a80f06c85854680', 'memory': 'a6eddd8f605e6596', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'ab498d16de8b8bc9', 'stalls': 'd0fcb4ddb011c4b3', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'cae8246fb160d859'},
    'programs/hazard_gallery/25_global_race_in_workgroup_wrong.s': {'cycles': 1211, 'instructions': 48, 'error': None, 'registers': 'b56ebc376b3889d4', 'memory': 'a6eddd8f605e6596', 'hazards': 'e89ccd37ac06e116', 'n_hazards': 1, 'records': 'd25180fe4fa522f2', 'stalls': '17629dc05467c7f4', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'cae8246fb160d859'},
    'programs/hazard_gallery/26_grid_race_same_output_fixed.s': {'cycles': 828, 'instructions': 9, 'error': None, 'registers': '8c538faaf431ef36', 'memory': '6f5d1055b2abb287', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8bff7e85de2e2bf4', 'stalls': '3b66c0f79229010f', 'notes': '8d8b37d81e1b5c3d', 'pipes': '4b46937ac2198644'},
    'programs/hazard_gallery/26_grid_race_same_output_wrong.s': {'cycles': 828, 'instructions': 9, 'error': None, 'registers': '8c538faaf431ef36', 'memory': '6f5d1055b2abb287', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8bff7e85de2e2bf4', 'stalls': '3b66c0f79229010f', 'notes': '8d8b37d81e1b5c3d', 'pipes': '4b46937ac2198644'},
    'programs/hazard_gallery/24_lds_race_same_words_fixed.s': {'cycles': 498, 'instructions': 52, 'error': None, 'registers': 'a252711943008cd1', 'memory': 'b22b40053939bcf6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'ac74043b0d38cd99', 'stalls': '3b4c440b6eeeadf4', 'notes': '8d8b37d81e1b5c3d', 'pipes': '916abeb2b4f3f204'},
    'programs/hazard_gallery/23_lds_race_buffer_reuse_wrong.s': {'cycles': 657, 'instructions': 76, 'error': None, 'registers': 'f1002ae9d60094e7', 'memory': '1ab032381191bb09', 'hazards': 'c00a2ce19d85be5d', 'n_hazards': 1, 'records': '1334864ee4791ddf', 'stalls': '93663e0d251daac8', 'notes': '8d8b37d81e1b5c3d', 'pipes': '09b797ebe9566a7f'},
    'programs/hazard_gallery/23_lds_race_buffer_reuse_fixed.s': {'cycles': 668, 'instructions': 80, 'error': None, 'registers': 'b87e0371d038759c', 'memory': '1ab032381191bb09', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '02ca22588e4dfba5', 'stalls': '64f2504b96cb8694', 'notes': '8d8b37d81e1b5c3d', 'pipes': '09b797ebe9566a7f'},
    'programs/hazard_gallery/22_lds_race_missing_barrier_wrong.s': {'cycles': 483, 'instructions': 44, 'error': None, 'registers': '768dea1a6e1170eb', 'memory': '420637867442e543', 'hazards': '6d8cdad88d3225d5', 'n_hazards': 1, 'records': '02ab687db0165d13', 'stalls': '794dc6bf27c71950', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e9b4110e5edb27c8'},
    'programs/hazard_gallery/22_lds_race_missing_barrier_fixed.s': {'cycles': 494, 'instructions': 48, 'error': None, 'registers': '5565bf82f5114e45', 'memory': '420637867442e543', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'a987cc7050b425c7', 'stalls': '69dd2156ebe8667d', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e9b4110e5edb27c8'},
    'tests/snippets/test_buffer_rsrc.s': {'cycles': 817, 'instructions': 5, 'error': None, 'registers': '432fe51f7a70b11d', 'memory': '38d91a619496ede3', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '51d5365872d4daa4', 'stalls': '67c4c3736efe0914', 'notes': '8d8b37d81e1b5c3d', 'pipes': '6962e64305852333'},
    'tests/snippets/test_lds_roundtrip.s': {'cycles': 142, 'instructions': 6, 'error': None, 'registers': '8a13b6bc43b2028d', 'memory': '00215b25b6945bdb', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'a348a193adf26ef7', 'stalls': 'b6dd42c299b2d6ab', 'notes': '8d8b37d81e1b5c3d', 'pipes': '88026b3b051c2c32'},
    'tests/snippets/test_mfma_matmul.s': {'cycles': 921, 'instructions': 12, 'error': None, 'registers': 'f4321bc07c798c01', 'memory': '05adebffa5d58b6b', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'ac422b9bdddc09e5', 'stalls': 'c15fcc1b8b220193', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'ea23292e09a00b41'},
    'tests/snippets/test_missing_waitcnt.s': {'cycles': 513, 'instructions': 5, 'error': None, 'registers': 'cb543f5dd6e3fb5b', 'memory': 'a31c9614f3f04d86', 'hazards': '30454a8251004164', 'n_hazards': 1, 'records': '70804e868812295b', 'stalls': '308f7952e3e42355', 'notes': '8d8b37d81e1b5c3d', 'pipes': '0096199a2ec5df26'},
    'tests/snippets/test_scalar_loop.s': {'cycles': 213, 'instructions': 45, 'error': None, 'registers': '5c0398b9b33f0285', 'memory': '800535368f21020c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8c036ca6cc94f2b3', 'stalls': 'c3c2467f793849b2', 'notes': '8d8b37d81e1b5c3d', 'pipes': '8d8b37d81e1b5c3d'},
    'alu-loop@1': {'cycles': 1441, 'instructions': 322, 'error': None, 'registers': '1693de4304d8a9ec', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'a45a5ac038e42ff1', 'stalls': '09c530b2d5e91144', 'notes': '8d8b37d81e1b5c3d', 'pipes': '61e6e590351f4302'},
    'alu-loop@4': {'cycles': 1441, 'instructions': 1288, 'error': None, 'registers': 'ba40c7794225983d', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '2535dd9228ca01d9', 'stalls': '79b297c997e62508', 'notes': '8d8b37d81e1b5c3d', 'pipes': '11eaec7037533951'},
    'mem-loop@1': {'cycles': 23841, 'instructions': 362, 'error': None, 'registers': '2d9a423d262cfd46', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '03c7462f094a66f0', 'stalls': '1f08fc701521d071', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'f3afc6de5e7ba397'},
    'mem-loop@4': {'cycles': 23853, 'instructions': 1448, 'error': None, 'registers': '3b6feb784150312c', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'c6ffd37bc5a18088', 'stalls': 'fa0c3c6f57b62113', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'd968b5d3fdfedb4f'},
    'mfma-loop@1': {'cycles': 1284, 'instructions': 242, 'error': None, 'registers': 'f15282193fce8d84', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '29b188321019c406', 'stalls': '538f890c7772d2e0', 'notes': '8d8b37d81e1b5c3d', 'pipes': '297de71144a7fe85'},
    'mfma-loop@4': {'cycles': 1284, 'instructions': 968, 'error': None, 'registers': 'c8a59d51b73bcf3e', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '9f8f104edb5711ed', 'stalls': 'e8a502ae47d27dc9', 'notes': '8d8b37d81e1b5c3d', 'pipes': '0fae7ea4d294e9e0'},
    'igemm': {'cycles': 3328, 'instructions': 772, 'error': None, 'registers': '87e040aac8bd3e33', 'memory': '275313ca4a0e0e53', 'hazards': '5e18df085c67400a', 'n_hazards': 14, 'records': 'aff6d800c0e4ac1a', 'stalls': '3dea1ffc6e9e3dac', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'dc3ec167d7564d0e'},
}


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print("EXPECTED = {")
    for c in CASES:
        print(f"    {c!r}: {observe(c)!r},", flush=True)
    print("}")
