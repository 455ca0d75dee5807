"""programs/hazard_gallery/ (issue 9, item 4): one small program per hazard class, wrong on
purpose, with its fixed twin beside it.

For every class: the wrong file's header names exactly the hazards it produces (rule and
line); the static linter reports exactly those, and so does the run-time monitor (the two
verdicts agree on straight-line code); the fixed twin is clean in both. Every file records
its timing (cycles, and MFMA utilisation where it runs an MFMA) in its header, and the
gallery README links every file and names every rule.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import gcnemu

GALLERY = Path(__file__).resolve().parent.parent / "programs" / "hazard_gallery"

GALLERY_RULES = {  # what the linter reports; the run-time monitor must report the same
    "01_mfma_result_valu_read": {"xdl-result-valu-read"},
    "02_valu_write_mfma_read": {"valu-vgpr-mfma-read"},
    "03_accvgpr_write_read": {"accvgpr-write-accvgpr-read"},
    "04_salu_m0_lds_dma": {"salu-m0-lds-dma"},
    "05_load_result_before_vmcnt": {"vmem-result-before-vmcnt"},
    "06_lds_dma_read_before_vmcnt": {"lds-dma-read-before-vmcnt"},
    "07_ds_read_before_lgkmcnt": {"ds-result-before-lgkmcnt"},
    "08_smem_lds_mixed_lgkmcnt": {"smem-result-before-lgkmcnt", "ds-result-before-lgkmcnt"},
    "09_barrier_before_lds_writes_done": {"barrier-lds-write-pending", "lds-race"},
    "10_mfma_result_mfma_srcab": {"xdl-result-mfma-srcab"},
    "11_mfma_srcc_overlap": {"xdl-result-xdl-srcc-partial"},
    "12_mfma_2pass_srcc_exact": {"mfma-2pass-srcc-exact"},
    "13_mfma_result_valu_overwrite": {"xdl-result-valu-write-waw"},
    "14_mfma_srcc_valu_overwrite": {"xdl-srcc-valu-write-war"},
    "15_valu_sgpr_vmem_read": {"valu-sgpr-vmem-read"},
    "16_valu_sgpr_lane_select": {"valu-sgpr-lane-select"},
    "17_setreg_getreg": {"setreg-getreg"},
    "18_wide_store_data_overwrite": {"wide-store-data-overwrite"},
    "19_load_dst_overwrite_before_vmcnt": {"vmem-dst-overwrite-before-vmcnt"},
    "20_dgemm_result_valu_read": {"dgemm16x16-result-valu-read"},
    "21_dgemm_4x4_srcc_chain": {"dgemm4x4-srcc-exact"},
    "22_lds_race_missing_barrier": {"lds-race"},
    "23_lds_race_buffer_reuse": {"lds-race"},
    "24_lds_race_same_words": {"lds-race"},
    "25_global_race_in_workgroup": {"global-race"},
    "26_grid_race_same_output": {"grid-global-race"},
}

RACE_RULES = {"lds-race", "global-race", "grid-global-race"}


def run_only(cls: str) -> set[str]:
    """Rules only the run reports for a gallery class. Lint proves LDS races from the work-item
    addresses (gcnemu.analysis.races) but has no global-memory race rule; and class 9's race comes
    from a write still in flight at the barrier, which lint reports as barrier-lds-write-pending."""
    return {"global-race", "grid-global-race"} | ({"lds-race"} if cls.startswith("09_") else set())


_EXPECT_HAZARD = re.compile(r"^//\s+expect hazard ([\w-]+) at (\d+)\s*$", re.M)


def _run(path: Path):
    from gcnemu.snippets.runner import load_snippet
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    return kernel, snippet.simulate(kernel)


def _lint(kernel) -> set[tuple[str, int]]:
    from gcnemu.snippets.launch import launch_facts
    return {(d.rule, d.span.line) for d in gcnemu.lint(kernel.program, kernel.target.name,
                                                       launch=launch_facts(kernel.program))
            if d.severity in ("warning", "error")}


def _dynamic(kernel, sim) -> set[tuple[str, int]]:
    return {(h.rule, kernel.instructions[h.consumer].span.line) for h in sim.hazards}


def _header_hazards(path: Path) -> set[tuple[str, int]]:
    return {(r, int(n)) for r, n in _EXPECT_HAZARD.findall(path.read_text())}


def test_gallery_has_a_wrong_and_a_fixed_file_per_class_and_the_readme_links_them():
    readme = (GALLERY / "README.md").read_text()
    files = {p.name for p in GALLERY.glob("*.s")}
    assert files == {f"{c}_{kind}.s" for c in GALLERY_RULES for kind in ("wrong", "fixed")}
    for f in files:
        assert f"]({f})" in readme, f
    for rules in GALLERY_RULES.values():
        for r in rules:
            assert f"`{r}`" in readme, r


def test_the_top_readme_links_the_gallery_readme():
    top = (GALLERY.parent.parent / "README.md").read_text()
    assert "(programs/hazard_gallery/README.md)" in top


GRID_CLASSES = {c for c, rules in GALLERY_RULES.items() if "grid-global-race" in rules}
"""Classes whose race is between workgroups: only a grid run (`gcnemu test`, `run`) sees them."""


@pytest.mark.parametrize("cls", sorted(GALLERY_RULES.keys() - GRID_CLASSES))
def test_wrong_file_reports_its_rule_at_its_line_in_lint_and_run(cls):
    path = GALLERY / f"{cls}_wrong.s"
    expected = _header_hazards(path)
    assert {r for r, _ in expected} == GALLERY_RULES[cls]
    static = {(r, line) for r, line in expected if r not in run_only(cls)}
    assert len({line for _, line in static}) <= 1  # one faulty instruction
    kernel, sim = _run(path)
    assert sim.error is None, sim.error
    assert _lint(kernel) == static
    assert _dynamic(kernel, sim) == expected  # the run-time verdict agrees with the linter, plus races


@pytest.mark.parametrize("cls", sorted(GRID_CLASSES))
def test_grid_race_twins_are_decided_by_a_grid_run(cls, tmp_path):
    from gcnemu.commands.test import run_one
    wrong, fixed = GALLERY / f"{cls}_wrong.s", GALLERY / f"{cls}_fixed.s"
    assert run_one(str(wrong), None).status == "PASS"  # it expects its grid-global-race
    assert run_one(str(fixed), None).status == "PASS"  # clean: `expect hazards: none` holds
    strict = tmp_path / wrong.name
    strict.write_text(wrong.read_text().replace("expect hazard grid-global-race", "expect hazards: none"))
    res = run_one(str(strict), None)
    assert res.status == "FAIL" and any("grid-global-race" in line for line in res.report)


@pytest.mark.parametrize("cls", sorted(GALLERY_RULES.keys() - GRID_CLASSES))
def test_fixed_twin_is_clean_in_lint_and_run(cls):
    path = GALLERY / f"{cls}_fixed.s"
    assert "expect hazards: none" in path.read_text()
    kernel, sim = _run(path)
    assert sim.error is None, sim.error
    assert _lint(kernel) == set()
    assert sim.hazards == []


@pytest.mark.parametrize("cls", sorted(GALLERY_RULES))
def test_twins_share_target_and_differ_only_around_the_fault(cls):
    wrong, fixed = GALLERY / f"{cls}_wrong.s", GALLERY / f"{cls}_fixed.s"
    target = re.compile(r'amdgcn_target "amdgcn-amd-amdhsa--(gfx\w+)"')
    arch = re.compile(r"^//\s+arch: (gfx\w+)", re.M)
    for p in (wrong, fixed):
        assert target.search(p.read_text()).group(1) == arch.search(p.read_text()).group(1)
    assert target.search(wrong.read_text()).group(1) == target.search(fixed.read_text()).group(1)
    w = [i.text() for i in gcnemu.parse_file(wrong).instructions]
    f = [i.text() for i in gcnemu.parse_file(fixed).instructions]
    assert len(set(f) ^ set(w)) <= 3


@pytest.mark.parametrize("path", sorted(GALLERY.glob("*.s")), ids=lambda p: p.stem)
def test_every_file_records_its_timing(path):
    text = path.read_text()
    assert re.search(r"^//\s+expect cycles: \d+\.\.\d+", text, re.M)
    assert re.search(r"^//\s+expect stall ", text, re.M)
    if re.search(r"^\s+v_mfma_", text, re.M):
        assert re.search(r"^//\s+expect mfma-utilisation: [\d.]+\.\.[\d.]+", text, re.M)


def test_war_lint_message_reads_as_english():
    kernel, _ = _run(GALLERY / "14_mfma_srcc_valu_overwrite_wrong.s")
    (d,) = [d for d in gcnemu.lint(kernel.program, kernel.target.name) if d.rule == "xdl-srcc-valu-write-war"]
    assert "reads it as SrcC" in d.message and "SrcC it" not in d.message


@pytest.mark.parametrize("cls", sorted(c for c, rules in GALLERY_RULES.items() if rules - RACE_RULES))
def test_lint_fix_of_the_wrong_file_lints_clean(cls):
    """(Race classes are left out: a race needs a barrier or another layout, which `--fix` does
    not invent.)"""
    from gcnemu.analysis.fix import fix_text
    wrong = GALLERY / f"{cls}_wrong.s"
    text = wrong.read_text()
    arch = re.search(r'amdgcn_target "amdgcn-amd-amdhsa--(gfx\w+)"', text).group(1)
    res = fix_text(text, arch, str(wrong))
    assert res.fixed >= 1 and res.remaining == []
    assert [d.rule for d in gcnemu.lint(gcnemu.parse(res.text, str(wrong)), arch)
            if d.severity in ("warning", "error")] == []
