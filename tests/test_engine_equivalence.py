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


def observe(case: str, stepped: bool = False, compiled: bool = False) -> dict:
    """What a user can see of a run, as short digests (and the plain figures). `stepped`: the
    run goes cycle by cycle through `Simulation.step` (the debugger's path) instead of `run`;
    `compiled`: a single wave's ALU stretches go through the compiled issue loop (numba)."""
    from gcnemu.sim.engine import wave_summary
    sim = _simulation(case)
    sim.engine.compiled_alu = compiled
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


def _numba() -> bool:
    from gcnemu.sim import accel
    return accel.enabled()


# both issue loops of a single wave: the Python one, and the compiled one where numba is installed
LOOPS_RUN = [False, pytest.param(True, marks=pytest.mark.skipif(not _numba(), reason="numba not installed"))]


@pytest.mark.parametrize("compiled", LOOPS_RUN, ids=["python", "compiled"])
@pytest.mark.parametrize("case", CASES)
def test_the_engine_reproduces_the_pinned_results(case: str, compiled: bool):
    assert case in EXPECTED, f"{case}: no pinned result (a new program? regenerate, see the module doc)"
    got = observe(case, compiled=compiled)
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
    'programs/batched_hgemm_4x4.s': {'cycles': 2879, 'instructions': 284, 'error': None, 'registers': '6fe6beb1a1b75a8a', 'memory': '86a54a6321f45cc7', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'cc2d0daf8612c8e7', 'stalls': 'fafd4562a2787a3d', 'notes': '8d8b37d81e1b5c3d', 'pipes': '99262277d88414f8'},
    'programs/batched_hgemm_4x4_lds.s': {'cycles': 4849, 'instructions': 696, 'error': None, 'registers': 'aa73d47f3c02b5cd', 'memory': '0ce17d622f76f9f9', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'bb0bff36d0facd13', 'stalls': '71c6c7de35db7d14', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'c8614c6cb6b3efeb'},
    'programs/bpermute_reduce.s': {'cycles': 1508, 'instructions': 45, 'error': None, 'registers': '40e86b8d97deb1da', 'memory': 'd7a969c06551ca9c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'be693a14e146481a', 'stalls': '9967c26e1a71a0a3', 'notes': '8d8b37d81e1b5c3d', 'pipes': '11fa21dbecfcf5ce'},
    'programs/debug_demo.s': {'cycles': 937, 'instructions': 31, 'error': None, 'registers': '30fb16b792c67811', 'memory': '06bb4bb393a00493', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '55698966765aa86e', 'stalls': 'ad52319d913ce5e1', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'aad06eb8a45f2d67'},
    'programs/gemm_lds_dma_gfx90a.s': {'cycles': 6007, 'instructions': 1216, 'error': None, 'registers': 'e631d57e6581d02c', 'memory': 'f54b7b128b9a7e49', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '3cfa981dbdd2cd48', 'stalls': '2f0879bffa89f7b0', 'notes': '8d8b37d81e1b5c3d', 'pipes': '3d0e8f473765b986'},
    'programs/gemm_lds_dma_gfx942.s': {'cycles': 5292, 'instructions': 1228, 'error': None, 'registers': 'b35fa3ba02232942', 'memory': 'f54b7b128b9a7e49', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8d172bfa09a2929c', 'stalls': '4d3984363b3bff1d', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e59ad7e2cb6653d8'},
    'programs/grid_scale.s': {'cycles': 1068, 'instructions': 8, 'error': None, 'registers': '07aa15703694d08b', 'memory': 'e9b51154ef0efd90', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '062b4d03ec213f84', 'stalls': '1f47158afde94bba', 'notes': '8d8b37d81e1b5c3d', 'pipes': '158e21ee3caeb47c'},
    'programs/hipcc_save_temps_gfx90a.s': {'cycles': 1208, 'instructions': 29, 'error': None, 'registers': '6960eea9dbe00b4a', 'memory': 'd7b4feaf551bd097', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'b56f83b3d152e0b6', 'stalls': '86d8942fc108c57a', 'notes': '8d8b37d81e1b5c3d', 'pipes': '380054fd3be68734'},
    'programs/lane_ids.s': {'cycles': 393, 'instructions': 26, 'error': None, 'registers': 'e644d7eec3778cf5', 'memory': 'c93a23d5ecc1f37c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'ca3a918748c5dba2', 'stalls': '98f7fe1df197b6eb', 'notes': '8d8b37d81e1b5c3d', 'pipes': '009f52bbdb345ba6'},
    'programs/lds_dma_copy.s': {'cycles': 1053, 'instructions': 36, 'error': None, 'registers': '870544b45c63e380', 'memory': 'bb7c912794e6e6b2', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '6aaca41718dd1ab7', 'stalls': 'be3cc1ef1f92758f', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'db275f5bd1464d47'},
    'programs/lds_dma_copy_gfx942.s': {'cycles': 1029, 'instructions': 26, 'error': None, 'registers': '58160fd7148b95d1', 'memory': '66eab812b6804b03', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'f8101fd2f2fa564b', 'stalls': '2a50923674dca0db', 'notes': '8d8b37d81e1b5c3d', 'pipes': '6bf12a89b5b28cb5'},
    'programs/loop_sum.s': {'cycles': 4160, 'instructions': 51, 'error': None, 'registers': '27dce6f35b7dcf06', 'memory': '75d8f207fb337e53', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'ed672e0e39596883', 'stalls': 'b755859e08b464d9', 'notes': '8d8b37d81e1b5c3d', 'pipes': '8f7fbdcb17346c41'},
    'programs/mfma_16x16x1f32_4blocks.s': {'cycles': 508, 'instructions': 30, 'error': None, 'registers': '092a8b716ec54ed0', 'memory': '332bd99539781bb5', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'e97e6ea2c4208f1d', 'stalls': '99700b99b53d7746', 'notes': '8d8b37d81e1b5c3d', 'pipes': '4c6eea83d5f3b164'},
    'programs/mfma_16x16x4f32.s': {'cycles': 408, 'instructions': 17, 'error': None, 'registers': 'ed55d6c9a49c03de', 'memory': 'fd589c374475d535', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '013720d5dc400040', 'stalls': '5389c4c8a5e8152a', 'notes': '8d8b37d81e1b5c3d', 'pipes': '8de4584fdebad685'},
    'programs/mfma_4x4x4f64_4blocks.s': {'cycles': 412, 'instructions': 19, 'error': None, 'registers': '8b6fb209c8cc309d', 'memory': 'f9561cb33ddaff3f', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'f67b3ff1af696a32', 'stalls': '598a29543c262ebf', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'f068167e7eb86e43'},
    'programs/sgemm_vector.s': {'cycles': 10063, 'instructions': 5696, 'error': None, 'registers': '493012a75c12e053', 'memory': 'fa983b08a7b69960', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '75a82d913d4e3efd', 'stalls': '20c5792f4bdf11f0', 'notes': '8d8b37d81e1b5c3d', 'pipes': '222b495fd0fcab42'},
    'programs/vector_add.s': {'cycles': 1163, 'instructions': 52, 'error': None, 'registers': '28f1637abf7e72db', 'memory': '47dcc246bc4c55a6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '864738f46ffb5a15', 'stalls': 'd291312be43bfb48', 'notes': '8d8b37d81e1b5c3d', 'pipes': '03999b82526fd7b2'},
    'programs/hazard_gallery/01_mfma_result_valu_read_fixed.s': {'cycles': 392, 'instructions': 12, 'error': None, 'registers': '1b0a192c6ef8a514', 'memory': '8fffc5ec6309c5f6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '1f00bd5eb4e2eb76', 'stalls': 'c8ef989e0aff90d6', 'notes': '8d8b37d81e1b5c3d', 'pipes': '189820fb3f9e7db7'},
    'programs/hazard_gallery/01_mfma_result_valu_read_wrong.s': {'cycles': 352, 'instructions': 11, 'error': None, 'registers': '2f58aae7719c75e2', 'memory': '0a1440869ae9697c', 'hazards': '3284dc7e7d4b114c', 'n_hazards': 1, 'records': '61333351fb924662', 'stalls': '84b677601a09c841', 'notes': '8d8b37d81e1b5c3d', 'pipes': '189820fb3f9e7db7'},
    'programs/hazard_gallery/02_valu_write_mfma_read_fixed.s': {'cycles': 380, 'instructions': 10, 'error': None, 'registers': '2a1485d081234d23', 'memory': '995857c3edb35d03', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '3e6530a03cbbc3f9', 'stalls': '0f556eea7d1b1f87', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'a19f16035d301135'},
    'programs/hazard_gallery/02_valu_write_mfma_read_wrong.s': {'cycles': 376, 'instructions': 9, 'error': None, 'registers': 'ba043ca663b817b0', 'memory': '995857c3edb35d03', 'hazards': 'afc39e2127eec017', 'n_hazards': 1, 'records': 'a40126aeb93a0c6d', 'stalls': '5272a6f018c02822', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'a19f16035d301135'},
    'programs/hazard_gallery/03_accvgpr_write_read_fixed.s': {'cycles': 352, 'instructions': 10, 'error': None, 'registers': '4a0805dbe1b17350', 'memory': '4d9197a0f6179648', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'f51106622c3f60b3', 'stalls': '1588b6b6679b08c3', 'notes': '8d8b37d81e1b5c3d', 'pipes': '06486ffeb734fbc3'},
    'programs/hazard_gallery/03_accvgpr_write_read_wrong.s': {'cycles': 352, 'instructions': 9, 'error': None, 'registers': 'eb4df8f5f873d681', 'memory': '4d9197a0f6179648', 'hazards': 'f83090e338996a96', 'n_hazards': 1, 'records': '25a6c9c6fe5723f0', 'stalls': '6b4262ebfc1c11ef', 'notes': '8d8b37d81e1b5c3d', 'pipes': '06486ffeb734fbc3'},
    'programs/hazard_gallery/04_salu_m0_lds_dma_fixed.s': {'cycles': 984, 'instructions': 9, 'error': None, 'registers': 'ffed2764d36877b4', 'memory': 'd3142491ee2ab55a', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '44c543003667b115', 'stalls': '1e9a0182a090fbdb', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'c2cb9c6da0accdd8'},
    'programs/hazard_gallery/04_salu_m0_lds_dma_wrong.s': {'cycles': 984, 'instructions': 9, 'error': None, 'registers': 'ffed2764d36877b4', 'memory': 'd3142491ee2ab55a', 'hazards': '5ea50b3aeeb880fb', 'n_hazards': 1, 'records': '44c543003667b115', 'stalls': '1e9a0182a090fbdb', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'c2cb9c6da0accdd8'},
    'programs/hazard_gallery/05_load_result_before_vmcnt_fixed.s': {'cycles': 1104, 'instructions': 9, 'error': None, 'registers': '69123d3ff361c3c2', 'memory': '99e6ccd6b99abaa9', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '5ee95bb3d8fcc64c', 'stalls': '8059778d6f4dc49b', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'af2e399277e6ea7d'},
    'programs/hazard_gallery/05_load_result_before_vmcnt_wrong.s': {'cycles': 788, 'instructions': 8, 'error': None, 'registers': '0f7ecc94f7522602', 'memory': 'c01d9032f69c9a1f', 'hazards': '473a28710e668edc', 'n_hazards': 1, 'records': 'bc1e5576fdf6b6ea', 'stalls': '2dedd3fe6288a1d6', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'af2e399277e6ea7d'},
    'programs/hazard_gallery/06_lds_dma_read_before_vmcnt_fixed.s': {'cycles': 984, 'instructions': 9, 'error': None, 'registers': '35fe9f4385fd6320', 'memory': 'ea74c6b131c5832f', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '44c543003667b115', 'stalls': '1e9a0182a090fbdb', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'c2cb9c6da0accdd8'},
    'programs/hazard_gallery/06_lds_dma_read_before_vmcnt_wrong.s': {'cycles': 620, 'instructions': 9, 'error': None, 'registers': '6cfe77cd661411e7', 'memory': '9639af4db60fa386', 'hazards': 'df4fcd56add6531f', 'n_hazards': 1, 'records': 'a1b19f4a3f5fe14d', 'stalls': 'd953a0a93d9d8de4', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'c2cb9c6da0accdd8'},
    'programs/hazard_gallery/07_ds_read_before_lgkmcnt_fixed.s': {'cycles': 388, 'instructions': 11, 'error': None, 'registers': '597c9b81b3b51d32', 'memory': 'acdf253ece446ad4', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '89afc66a98dd8b17', 'stalls': '1b0e9d916ffc71c1', 'notes': '8d8b37d81e1b5c3d', 'pipes': '08dbc97866a03fc4'},
    'programs/hazard_gallery/07_ds_read_before_lgkmcnt_wrong.s': {'cycles': 384, 'instructions': 11, 'error': None, 'registers': '1558d87a5c240564', 'memory': '3494eba6c5b8650b', 'hazards': 'bd08c9fc519c504b', 'n_hazards': 1, 'records': '58d47c4dbb4796da', 'stalls': '4b95618048ce04b8', 'notes': '8d8b37d81e1b5c3d', 'pipes': '08dbc97866a03fc4'},
    'programs/hazard_gallery/08_smem_lds_mixed_lgkmcnt_fixed.s': {'cycles': 384, 'instructions': 7, 'error': None, 'registers': '8b7dd3b564cd5fd4', 'memory': 'e3569930d454d4be', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '863301cb4510b19f', 'stalls': '4735c38637a59877', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'f74c21cd940328d6'},
    'programs/hazard_gallery/08_smem_lds_mixed_lgkmcnt_wrong.s': {'cycles': 380, 'instructions': 8, 'error': None, 'registers': '52237d2008200719', 'memory': 'af757d0cfac68f41', 'hazards': '2fe0594df75292c2', 'n_hazards': 2, 'records': 'b0cb002784759104', 'stalls': '0c97d52c112e5a8b', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'f74c21cd940328d6'},
    'programs/hazard_gallery/09_barrier_before_lds_writes_done_fixed.s': {'cycles': 452, 'instructions': 24, 'error': None, 'registers': '8696729f212f95a9', 'memory': '9eac2eba737da6b7', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'cab8365244e81fa5', 'stalls': '8fcc79c8b3c63a86', 'notes': '8d8b37d81e1b5c3d', 'pipes': '118829f977924890'},
    'programs/hazard_gallery/09_barrier_before_lds_writes_done_wrong.s': {'cycles': 404, 'instructions': 22, 'error': None, 'registers': '200acff8ec1bcddc', 'memory': '9eac2eba737da6b7', 'hazards': '14fbe6ffb7b0aee8', 'n_hazards': 3, 'records': '32449b3acddee4cb', 'stalls': '9a87bc7bfb2e947c', 'notes': '8d8b37d81e1b5c3d', 'pipes': '118829f977924890'},
    'programs/hazard_gallery/10_mfma_result_mfma_srcab_fixed.s': {'cycles': 436, 'instructions': 13, 'error': None, 'registers': '409dea2b54f7bb0c', 'memory': '5a27349203edf10d', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'ff1dc6133a116358', 'stalls': '503b22108e5d407b', 'notes': '8d8b37d81e1b5c3d', 'pipes': '6708f96e9b72933d'},
    'programs/hazard_gallery/10_mfma_result_mfma_srcab_wrong.s': {'cycles': 420, 'instructions': 12, 'error': None, 'registers': 'd98dbc6eab7c8be3', 'memory': '5a27349203edf10d', 'hazards': 'e0e140f2e1ef2768', 'n_hazards': 1, 'records': '8ba0c1507b7b83ca', 'stalls': 'ef9da3b52e305e97', 'notes': '8d8b37d81e1b5c3d', 'pipes': '6708f96e9b72933d'},
    'programs/hazard_gallery/11_mfma_srcc_overlap_fixed.s': {'cycles': 436, 'instructions': 16, 'error': None, 'registers': '3b26b6147168d47f', 'memory': '8fffc5ec6309c5f6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8a0c6395177ea47c', 'stalls': '519edf69fe973208', 'notes': '8d8b37d81e1b5c3d', 'pipes': '5171bea1d2f0e40a'},
    'programs/hazard_gallery/11_mfma_srcc_overlap_wrong.s': {'cycles': 432, 'instructions': 15, 'error': None, 'registers': '6f853fa7bae2113e', 'memory': '8fffc5ec6309c5f6', 'hazards': '2fd980a3fe391774', 'n_hazards': 1, 'records': '7bc104ef2e5ab69f', 'stalls': 'e357c1a5b28e86b0', 'notes': '8d8b37d81e1b5c3d', 'pipes': '5171bea1d2f0e40a'},
    'programs/hazard_gallery/12_mfma_2pass_srcc_exact_fixed.s': {'cycles': 380, 'instructions': 14, 'error': None, 'registers': '8689baba6be00a51', 'memory': '8fffc5ec6309c5f6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'feccabb698c7566a', 'stalls': 'efc7eb4ae633167d', 'notes': '8d8b37d81e1b5c3d', 'pipes': '4f1ab7414c19840c'},
    'programs/hazard_gallery/12_mfma_2pass_srcc_exact_wrong.s': {'cycles': 376, 'instructions': 13, 'error': None, 'registers': '52b43b6ce94fc89f', 'memory': '8fffc5ec6309c5f6', 'hazards': '0921258266da5274', 'n_hazards': 1, 'records': '8461cf7f0e1173fc', 'stalls': 'd3e68dc65d6a94b7', 'notes': '8d8b37d81e1b5c3d', 'pipes': '4f1ab7414c19840c'},
    'programs/hazard_gallery/13_mfma_result_valu_overwrite_fixed.s': {'cycles': 392, 'instructions': 12, 'error': None, 'registers': 'b046e5604b91b830', 'memory': '2426429352227bb9', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '2a93162cc28e81df', 'stalls': 'c8ef989e0aff90d6', 'notes': '8d8b37d81e1b5c3d', 'pipes': '189820fb3f9e7db7'},
    'programs/hazard_gallery/13_mfma_result_valu_overwrite_wrong.s': {'cycles': 388, 'instructions': 12, 'error': None, 'registers': '1b0a192c6ef8a514', 'memory': '8fffc5ec6309c5f6', 'hazards': 'f62418a6d384d2a9', 'n_hazards': 1, 'records': '661e00e9294359cb', 'stalls': '00b81900ced33c5f', 'notes': '8d8b37d81e1b5c3d', 'pipes': '189820fb3f9e7db7'},
    'programs/hazard_gallery/14_mfma_srcc_valu_overwrite_fixed.s': {'cycles': 400, 'instructions': 16, 'error': None, 'registers': '3dff78329eee0572', 'memory': 'd5457cac8450eccd', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'aea6cb67da036f18', 'stalls': '7f8d0ea30a09869c', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e370764ef4e4a3db'},
    'programs/hazard_gallery/14_mfma_srcc_valu_overwrite_wrong.s': {'cycles': 400, 'instructions': 15, 'error': None, 'registers': '592c629e44438793', 'memory': 'd5457cac8450eccd', 'hazards': '4a5b627e963c40f5', 'n_hazards': 1, 'records': 'a2f06a56855f0157', 'stalls': 'd3a2954d2b50d658', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e370764ef4e4a3db'},
    'programs/hazard_gallery/15_valu_sgpr_vmem_read_fixed.s': {'cycles': 1088, 'instructions': 9, 'error': None, 'registers': '56f26215956fd199', 'memory': '43ddcc4e3ce18343', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '154145e5dea6bc1d', 'stalls': '794fc0ebe0c265f5', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'af2e399277e6ea7d'},
    'programs/hazard_gallery/15_valu_sgpr_vmem_read_wrong.s': {'cycles': 1068, 'instructions': 8, 'error': None, 'registers': 'cf7f3a6ff16c6264', 'memory': '43ddcc4e3ce18343', 'hazards': '39289026c4283371', 'n_hazards': 1, 'records': 'a92115e8ab27ba17', 'stalls': '1f47158afde94bba', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'af2e399277e6ea7d'},
    'programs/hazard_gallery/16_valu_sgpr_lane_select_fixed.s': {'cycles': 356, 'instructions': 11, 'error': None, 'registers': 'c3d8d7dd1011c16b', 'memory': '68d7043b7794fdfa', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '670ca85b50a43949', 'stalls': '5c8f79d984868fa8', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'fc2f36e0585d869e'},
    'programs/hazard_gallery/16_valu_sgpr_lane_select_wrong.s': {'cycles': 352, 'instructions': 10, 'error': None, 'registers': '08dd84f7daa24fb5', 'memory': '68d7043b7794fdfa', 'hazards': '837c90431f9e3a2d', 'n_hazards': 1, 'records': '2f3c664426e6cabc', 'stalls': 'c88a5448b19879d0', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'fc2f36e0585d869e'},
    'programs/hazard_gallery/17_setreg_getreg_fixed.s': {'cycles': 352, 'instructions': 10, 'error': None, 'registers': 'da6d633ac9791c11', 'memory': '301dbbb2e0431b97', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '5f783c0cec07309e', 'stalls': '41a8a5adb07bb1d2', 'notes': '02f6286f15b3fd7f', 'pipes': '7af80e275b9e8843'},
    'programs/hazard_gallery/17_setreg_getreg_wrong.s': {'cycles': 352, 'instructions': 9, 'error': None, 'registers': '0fa24933560a0dc6', 'memory': '301dbbb2e0431b97', 'hazards': '8f9e4b9bacb8f437', 'n_hazards': 1, 'records': '2cf1ffeb0218466f', 'stalls': '55ba89bffda46529', 'notes': '02f6286f15b3fd7f', 'pipes': '7af80e275b9e8843'},
    'programs/hazard_gallery/18_wide_store_data_overwrite_fixed.s': {'cycles': 408, 'instructions': 16, 'error': None, 'registers': 'a0e8efd359c1c1a7', 'memory': '9bb6a1f2f2af8f25', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'b13e0ae49207b112', 'stalls': '81be7e2730fe7742', 'notes': '8d8b37d81e1b5c3d', 'pipes': '1daa02e3c3757e19'},
    'programs/hazard_gallery/18_wide_store_data_overwrite_wrong.s': {'cycles': 408, 'instructions': 15, 'error': None, 'registers': '43e323e87d54daa0', 'memory': '9bb6a1f2f2af8f25', 'hazards': 'e2b2b740ceee9fd6', 'n_hazards': 1, 'records': 'b96aaa87f3d36949', 'stalls': 'a8203876035d28cc', 'notes': '8d8b37d81e1b5c3d', 'pipes': '1daa02e3c3757e19'},
    'programs/hazard_gallery/19_load_dst_overwrite_before_vmcnt_fixed.s': {'cycles': 1104, 'instructions': 8, 'error': None, 'registers': 'fc91f3c06d5e62f8', 'memory': 'c1d99178d5d5b4d5', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '7c1c0be32202f3b9', 'stalls': '9a918f9de0fb098b', 'notes': '8d8b37d81e1b5c3d', 'pipes': '5767b7f9e8050f0d'},
    'programs/hazard_gallery/19_load_dst_overwrite_before_vmcnt_wrong.s': {'cycles': 1100, 'instructions': 8, 'error': None, 'registers': 'd94158d8509f82d4', 'memory': '40f002443d79a8b4', 'hazards': 'c50ff0bdf1e666aa', 'n_hazards': 1, 'records': '12fbd5581ecbb1ef', 'stalls': 'f08b3b58f63d6298', 'notes': '8d8b37d81e1b5c3d', 'pipes': '5767b7f9e8050f0d'},
    'programs/hazard_gallery/20_dgemm_result_valu_read_fixed.s': {'cycles': 412, 'instructions': 15, 'error': None, 'registers': '8a9d0a6c02977933', 'memory': 'f422e73baee198eb', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '2ac0a93677f19735', 'stalls': 'dc5f6dab4218e4f5', 'notes': '8d8b37d81e1b5c3d', 'pipes': '0e65ae173ced4d4e'},
    'programs/hazard_gallery/20_dgemm_result_valu_read_wrong.s': {'cycles': 396, 'instructions': 14, 'error': None, 'registers': 'd2ea9d8065f37a64', 'memory': 'f422e73baee198eb', 'hazards': 'e2401e64ed84de31', 'n_hazards': 1, 'records': 'ace1c7405755ca5f', 'stalls': '6e24793164250da5', 'notes': '8d8b37d81e1b5c3d', 'pipes': '0e65ae173ced4d4e'},
    'programs/hazard_gallery/21_dgemm_4x4_srcc_chain_fixed.s': {'cycles': 412, 'instructions': 14, 'error': None, 'registers': '96b0037b612c330f', 'memory': '6de5c34949553282', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '994933822b3fbbed', 'stalls': '95e952c4db4526f9', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'd1a2de126e1b2efc'},
    'programs/hazard_gallery/21_dgemm_4x4_srcc_chain_wrong.s': {'cycles': 408, 'instructions': 13, 'error': None, 'registers': '5a19897dea64b289', 'memory': '6de5c34949553282', 'hazards': 'bc4680341f32dc8c', 'n_hazards': 1, 'records': '04aa2cf22dc422b4', 'stalls': '2edd45242039ab76', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'd1a2de126e1b2efc'},
    'programs/hazard_gallery/22_lds_race_missing_barrier_fixed.s': {'cycles': 470, 'instructions': 48, 'error': None, 'registers': '5565bf82f5114e45', 'memory': '420637867442e543', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '534374557694f665', 'stalls': 'c8d3a692a81de674', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e638dd41ae7ebf58'},
    'programs/hazard_gallery/22_lds_race_missing_barrier_wrong.s': {'cycles': 459, 'instructions': 44, 'error': None, 'registers': '768dea1a6e1170eb', 'memory': '420637867442e543', 'hazards': '75c4b49ef56510c1', 'n_hazards': 1, 'records': '3b2e746cc4a7c012', 'stalls': '8ee19c939f624da5', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'e638dd41ae7ebf58'},
    'programs/hazard_gallery/23_lds_race_buffer_reuse_fixed.s': {'cycles': 604, 'instructions': 80, 'error': None, 'registers': 'b87e0371d038759c', 'memory': '1ab032381191bb09', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '5245b8eebeebf16a', 'stalls': 'a181a6442399a861', 'notes': '8d8b37d81e1b5c3d', 'pipes': '6cc056be19d78179'},
    'programs/hazard_gallery/23_lds_race_buffer_reuse_wrong.s': {'cycles': 593, 'instructions': 76, 'error': None, 'registers': 'f1002ae9d60094e7', 'memory': '1ab032381191bb09', 'hazards': '05e6171a55dbb222', 'n_hazards': 1, 'records': '3d00dcdcb855021a', 'stalls': '3d128841c7255b88', 'notes': '8d8b37d81e1b5c3d', 'pipes': '6cc056be19d78179'},
    'programs/hazard_gallery/24_lds_race_same_words_fixed.s': {'cycles': 474, 'instructions': 52, 'error': None, 'registers': 'a252711943008cd1', 'memory': 'b22b40053939bcf6', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'd90d441f0303c6ee', 'stalls': 'c6330ccf4ea1ca45', 'notes': '8d8b37d81e1b5c3d', 'pipes': '63f10227090c566f'},
    'programs/hazard_gallery/24_lds_race_same_words_wrong.s': {'cycles': 474, 'instructions': 52, 'error': None, 'registers': 'ecfe595cf6531f86', 'memory': '795a0099aa687e77', 'hazards': '03f249bbd81964e7', 'n_hazards': 1, 'records': 'd90d441f0303c6ee', 'stalls': 'c6330ccf4ea1ca45', 'notes': '8d8b37d81e1b5c3d', 'pipes': '63f10227090c566f'},
    'programs/hazard_gallery/25_global_race_in_workgroup_fixed.s': {'cycles': 1034, 'instructions': 52, 'error': None, 'registers': '0a80f06c85854680', 'memory': 'a6eddd8f605e6596', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '3fecba4225ea09ef', 'stalls': 'b29c53f4f100881b', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'aae16d8390e553cd'},
    'programs/hazard_gallery/25_global_race_in_workgroup_wrong.s': {'cycles': 1003, 'instructions': 48, 'error': None, 'registers': 'b56ebc376b3889d4', 'memory': 'a6eddd8f605e6596', 'hazards': 'f521f92e8a0732d7', 'n_hazards': 1, 'records': '2710ee46c1638358', 'stalls': 'e5781e0f954b8a6b', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'aae16d8390e553cd'},
    'programs/hazard_gallery/26_grid_race_same_output_fixed.s': {'cycles': 1068, 'instructions': 9, 'error': None, 'registers': '8c538faaf431ef36', 'memory': '6f5d1055b2abb287', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'b8e1b8f6900ee3e4', 'stalls': '3460f7626ea8bf31', 'notes': '8d8b37d81e1b5c3d', 'pipes': '1026f1111b729460'},
    'programs/hazard_gallery/26_grid_race_same_output_wrong.s': {'cycles': 1068, 'instructions': 9, 'error': None, 'registers': '8c538faaf431ef36', 'memory': '6f5d1055b2abb287', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'b8e1b8f6900ee3e4', 'stalls': '3460f7626ea8bf31', 'notes': '8d8b37d81e1b5c3d', 'pipes': '1026f1111b729460'},
    'tests/snippets/test_buffer_rsrc.s': {'cycles': 1057, 'instructions': 5, 'error': None, 'registers': '432fe51f7a70b11d', 'memory': '38d91a619496ede3', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'f61c869cc7a52817', 'stalls': '4a013232225946b2', 'notes': '8d8b37d81e1b5c3d', 'pipes': '1f99e024561f5862'},
    'tests/snippets/test_lds_roundtrip.s': {'cycles': 103, 'instructions': 6, 'error': None, 'registers': '8a13b6bc43b2028d', 'memory': '00215b25b6945bdb', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'f833d44fd323986f', 'stalls': 'a17d847a66967c3d', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'c4a060ff34f0de8a'},
    'tests/snippets/test_mfma_matmul.s': {'cycles': 1185, 'instructions': 12, 'error': None, 'registers': 'f4321bc07c798c01', 'memory': '05adebffa5d58b6b', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'a5fa37f5acc9d3e8', 'stalls': '7ff449a15bdf46c5', 'notes': '8d8b37d81e1b5c3d', 'pipes': '342086633f8251ec'},
    'tests/snippets/test_missing_waitcnt.s': {'cycles': 749, 'instructions': 5, 'error': None, 'registers': 'cb543f5dd6e3fb5b', 'memory': 'a31c9614f3f04d86', 'hazards': 'c39f33aadc77bece', 'n_hazards': 1, 'records': '282691446c5e0e8d', 'stalls': '2cd369a9155660d7', 'notes': '8d8b37d81e1b5c3d', 'pipes': '2762d1dcaef7a12f'},
    'tests/snippets/test_scalar_loop.s': {'cycles': 213, 'instructions': 45, 'error': None, 'registers': '5c0398b9b33f0285', 'memory': '800535368f21020c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '8c036ca6cc94f2b3', 'stalls': 'c3c2467f793849b2', 'notes': '8d8b37d81e1b5c3d', 'pipes': '8d8b37d81e1b5c3d'},
    'alu-loop@1': {'cycles': 1441, 'instructions': 322, 'error': None, 'registers': '1693de4304d8a9ec', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'a45a5ac038e42ff1', 'stalls': '09c530b2d5e91144', 'notes': '8d8b37d81e1b5c3d', 'pipes': '61e6e590351f4302'},
    'alu-loop@4': {'cycles': 1441, 'instructions': 1288, 'error': None, 'registers': 'ba40c7794225983d', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '2535dd9228ca01d9', 'stalls': '79b297c997e62508', 'notes': '8d8b37d81e1b5c3d', 'pipes': '11eaec7037533951'},
    'mem-loop@1': {'cycles': 8457, 'instructions': 362, 'error': None, 'registers': '2d9a423d262cfd46', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '6dab94f112955b26', 'stalls': 'e180d193fde8dad7', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'aea3fb2708fe6a63'},
    'mem-loop@4': {'cycles': 8462, 'instructions': 1448, 'error': None, 'registers': '3b6feb784150312c', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': 'e9a0f14c4b2ab894', 'stalls': 'f4f1835571568c5b', 'notes': '8d8b37d81e1b5c3d', 'pipes': 'aa4fa47b3e417f08'},
    'mfma-loop@1': {'cycles': 1284, 'instructions': 242, 'error': None, 'registers': 'f15282193fce8d84', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '29b188321019c406', 'stalls': '538f890c7772d2e0', 'notes': '8d8b37d81e1b5c3d', 'pipes': '297de71144a7fe85'},
    'mfma-loop@4': {'cycles': 1284, 'instructions': 968, 'error': None, 'registers': 'c8a59d51b73bcf3e', 'memory': '1b6ee9388a289c4c', 'hazards': '8d8b37d81e1b5c3d', 'n_hazards': 0, 'records': '9f8f104edb5711ed', 'stalls': 'e8a502ae47d27dc9', 'notes': '8d8b37d81e1b5c3d', 'pipes': '0fae7ea4d294e9e0'},
    'igemm': {'cycles': 3948, 'instructions': 772, 'error': None, 'registers': '87e040aac8bd3e33', 'memory': '275313ca4a0e0e53', 'hazards': 'ef55cd3ee1d2803c', 'n_hazards': 14, 'records': '47444659db1ada8a', 'stalls': 'a055216000fca3ab', 'notes': '8d8b37d81e1b5c3d', 'pipes': '67dfb1bd08f3ee90'},
}


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print("EXPECTED = {")
    for c in CASES:
        print(f"    {c!r}: {observe(c)!r},", flush=True)
    print("}")
