"""`gcnemu lint`: the CLI contract of issue 6 (text, JSON fields, SARIF 2.1.0, exit codes, --fix)."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from gcnemu.commands import lint as lint_cmd
from gcnemu.asm.diagnostics import GcnemuError
from gcnemu.asm.parse import parse

HAZARD = """\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
\t.text
k:
\tv_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]
\tv_add_f32 v10, v1, v11
\tglobal_load_dword v4, v[20:21], off
\tv_add_f32 v5, v4, v4
\ts_endpgm
"""
CLEAN = """\t.text
k:
\tv_add_f32 v10, v1, v11
\ts_endpgm
"""


def cli(args: list[str], capsys) -> tuple[int, str, str]:
    p = argparse.ArgumentParser()
    lint_cmd.add_arguments(p)
    try:
        rc = lint_cmd.run(p.parse_args(args))
    except GcnemuError as e:
        rc = 1
        print(f"gcnemu: error: {e}", file=sys.stderr)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def hazard_file(tmp_path):
    f = tmp_path / "k.s"
    f.write_text(HAZARD)
    return f


def test_text_diagnostics_look_like_llvm_mc(hazard_file, capsys):
    rc, out, err = cli([str(hazard_file)], capsys)
    assert rc == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == (f"{hazard_file}:5:17: warning: v_add_f32 reads v1 too soon after v_mfma_f32_4x4x1f32 "
                        f"(line 4) writes it: 0 of 5 wait states [xdl-result-valu-read]")
    assert lines[1] == "\tv_add_f32 v10, v1, v11"
    assert lines[2] == "\t               ^~"
    assert lines[3].startswith(f"{hazard_file}:4:22: note: v_mfma_f32_4x4x1f32 (2 passes) writes v[0:3] here")
    assert lines[6].startswith("note: required 5 wait states, provided 0; fix: insert s_nop 4 before line 5.")
    assert any("[vmem-result-before-vmcnt]" in ln for ln in lines)
    assert any("no s_waitcnt vmcnt covers the one that writes v4; use s_waitcnt vmcnt(0)" in ln for ln in lines)


def clean(path, target: str, instructions: int) -> tuple[int, str, str]:
    """What a clean lint prints: nothing on stdout, one summary line on stderr (the docs test
    asks every documented command to print something; silence looked like a tool that did nothing)."""
    return 0, "", f"gcnemu lint: {path}: no hazards ({target}, {instructions} instructions)\n"


def test_clean_file_exits_0_with_only_a_summary_line(tmp_path, capsys):
    f = tmp_path / "c.s"
    f.write_text(CLEAN)
    assert cli([str(f)], capsys) == clean(f, "gfx90a", len(parse(CLEAN).instructions))


def test_json_has_exactly_the_documented_fields(hazard_file, capsys):
    rc, out, _ = cli([str(hazard_file), "--format", "json"], capsys)
    assert rc == 1
    diags = json.loads(out)["diagnostics"]
    assert [d["rule"] for d in diags] == ["xdl-result-valu-read", "vmem-result-before-vmcnt"]
    for d in diags:
        assert list(d) == ["file", "line", "column", "severity", "rule", "message", "producer",
                           "required_wait_states", "provided_wait_states", "fix"]
    w, c = diags
    assert (w["line"], w["column"], w["severity"]) == (5, 17, "warning")
    assert w["producer"] == {"line": 4, "column": 22}
    assert (w["required_wait_states"], w["provided_wait_states"]) == (5, 0)
    assert w["fix"] == {"action": "insert-before", "line": 5, "column": 2, "text": "s_nop 4"}
    assert c["required_wait_states"] is None and c["fix"]["text"] == "s_waitcnt vmcnt(0)"


def test_sarif_2_1_0(hazard_file, capsys):
    rc, out, _ = cli([str(hazard_file), "--format", "sarif"], capsys)
    assert rc == 1
    log = json.loads(out)
    assert log["version"] == "2.1.0" and "sarif" in log["$schema"]
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "gcnemu"
    ids = [r["id"] for r in driver["rules"]]
    res = run["results"]
    assert [r["ruleId"] for r in res] == ["xdl-result-valu-read", "vmem-result-before-vmcnt"]
    for r in res:
        assert ids[r["ruleIndex"]] == r["ruleId"] and r["level"] == "warning"
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == str(hazard_file) and loc["region"]["startLine"] in (5, 7)
        assert r["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] in (4, 6)
        rep = r["fixes"][0]["artifactChanges"][0]["replacements"][0]
        assert rep["insertedContent"]["text"].startswith(("s_nop", "s_waitcnt"))
    assert res[0]["properties"]["required_wait_states"] == 5


def test_rule_filter_and_unknown_rule(hazard_file, capsys):
    rc, out, _ = cli([str(hazard_file), "--format", "json", "--rule", "vmem-result-before-vmcnt"], capsys)
    assert rc == 1 and [d["rule"] for d in json.loads(out)["diagnostics"]] == ["vmem-result-before-vmcnt"]
    rc, out, err = cli([str(hazard_file), "--rule", "no-such-rule"], capsys)
    assert rc == 1 and "unknown rule(s) for gfx90a: no-such-rule" in err and "Traceback" not in err


def test_hints_are_a_separate_severity_and_do_not_fail(tmp_path, capsys):
    f = tmp_path / "h.s"
    f.write_text("\t.text\nk:\n\tglobal_load_dword v4, v[20:21], off\n\ts_waitcnt vmcnt(3)\n\ts_nop 5\n"
                 "\tv_add_f32 v5, v6, v6\n\ts_endpgm\n")
    rc, out, err = cli([str(f), "--arch", "gfx942", "--hints", "--format", "json"], capsys)
    diags = json.loads(out)["diagnostics"]
    assert rc == 0
    assert {d["rule"] for d in diags} == {"hint-waitcnt-noop", "hint-nop-too-long"}
    assert {d["severity"] for d in diags} == {"hint"}
    assert cli([str(f), "--arch", "gfx942"], capsys) == clean(f, "gfx942", 5)


def test_fix_to_stdout_output_file_and_in_place(hazard_file, tmp_path, capsys):
    rc, out, err = cli([str(hazard_file), "--fix"], capsys)
    assert rc == 0 and "2 edit(s) applied, 0 hazard(s) left" in err
    assert out == HAZARD.replace("\tv_add_f32 v10", "\ts_nop 4\n\tv_add_f32 v10").replace(
        "\tv_add_f32 v5", "\ts_waitcnt vmcnt(0)\n\tv_add_f32 v5")
    dest = tmp_path / "fixed.s"
    assert cli([str(hazard_file), "--fix", "-o", str(dest)], capsys)[0] == 0
    assert dest.read_text() == out and hazard_file.read_text() == HAZARD
    assert cli([str(hazard_file), "--fix", "--in-place"], capsys)[0] == 0
    assert hazard_file.read_text() == out
    assert cli([str(hazard_file)], capsys) == clean(hazard_file, "gfx90a", len(parse(out).instructions))


def test_option_misuse_is_an_error_not_a_traceback(hazard_file, capsys):
    for args in ([str(hazard_file), "--in-place"], [str(hazard_file), "-o", "x.s"],
                 [str(hazard_file), str(hazard_file), "--fix"],
                 [str(hazard_file), "--fix", "--in-place", "-o", "x.s"]):
        rc, _, err = cli(args, capsys)
        assert rc == 1 and "gcnemu: error:" in err and "Traceback" not in err


def test_parse_error_is_reported_llvm_style(tmp_path, capsys):
    f = tmp_path / "bad.s"
    f.write_text("\t.text\n\tv_add_f32 v1, v2,, v3\n")
    rc, _, err = cli([str(f)], capsys)
    assert rc == 1 and f"{f}:2:" in err and "error:" in err and "Traceback" not in err


def test_arch_comes_from_amdgcn_target_or_the_flag(tmp_path, capsys):
    f = tmp_path / "t.s"
    f.write_text('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\nk:\n'
                 "\tv_exp_f32 v0, v1\n\tv_add_f32 v2, v0, v3\n\ts_endpgm\n")
    rc, out, _ = cli([str(f), "--format", "json"], capsys)
    assert [d["rule"] for d in json.loads(out)["diagnostics"]] == ["trans-result-valu-read"]
    rc, out, _ = cli([str(f), "--arch", "gfx90a", "--format", "json"], capsys)
    diags = json.loads(out)["diagnostics"]
    assert all(d["rule"] != "trans-result-valu-read" for d in diags)  # no such rule before gfx940
    # linting as another target than the file's is allowed, but said: a warning at the directive
    (d,) = diags
    assert d["severity"] == "warning" and d["line"] == 1 and "linting it as gfx90a anyway" in d["message"]


def test_real_entry_point_with_stdin():
    r = subprocess.run([sys.executable, "-m", "gcnemu", "lint", "-", "--arch", "gfx90a", "--format", "json"],
                       input=HAZARD, capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    d = json.loads(r.stdout)["diagnostics"][0]
    assert d["file"] == "<stdin>" and d["rule"] == "xdl-result-valu-read"
