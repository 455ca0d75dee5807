"""The command line as a user meets it: exit codes, JSON shape, no tracebacks on bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gcnemu.cli import main


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *args], input=stdin, capture_output=True, timeout=120)


def test_check_accepts_a_valid_file_and_exits_0(tmp_path):
    f = tmp_path / "ok.s"
    f.write_text("s_mov_b32 s0, 1\ns_endpgm\n")
    assert main(["check", str(f)]) == 0


def test_check_reports_an_unknown_mnemonic_in_llvm_mc_style(tmp_path):
    f = tmp_path / "bad.s"
    f.write_text("s_mov_b32 s0, 1\n  v_bogus_op v1, v2\n")
    r = run_cli("check", str(f))
    assert r.returncode == 1
    err = r.stderr.decode()
    assert f"{f}:2:3: error:" in err
    assert "  v_bogus_op v1, v2\n  ^" in err
    assert "Traceback" not in err


def test_check_json_lists_every_diagnostic_with_position_and_rule(tmp_path):
    f = tmp_path / "bad.s"
    f.write_text("v_bogus v1\ns_nop 0\nanother_bogus\n")
    r = run_cli("check", "--format", "json", str(f))
    assert r.returncode == 1
    data = json.loads(r.stdout)
    lines = [d["line"] for d in data["diagnostics"] if d["severity"] == "error"]
    assert lines == [1, 3]
    for d in data["diagnostics"]:
        assert set(d) >= {"file", "line", "column", "severity", "message", "rule"}


def test_check_reads_standard_input():
    r = run_cli("check", "-", stdin=b"s_endpgm\n")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("path_kind", ["missing", "directory"])
def test_check_on_a_path_that_is_not_a_file_is_a_one_line_error(tmp_path, path_kind):
    path = tmp_path / "nope.s" if path_kind == "missing" else tmp_path
    r = run_cli("check", str(path))
    assert r.returncode == 1
    assert r.stderr.decode().startswith("gcnemu: error:")
    assert "Traceback" not in r.stderr.decode()


def test_unknown_arch_is_rejected_by_the_option_parser(tmp_path):
    f = tmp_path / "ok.s"
    f.write_text("s_endpgm\n")
    r = run_cli("check", "--arch", "gfx1100", str(f))
    assert r.returncode == 2
    assert "invalid choice" in r.stderr.decode()


def test_help_lists_the_check_command():
    r = run_cli("--help")
    assert r.returncode == 0
    assert "check" in r.stdout.decode()


def test_check_notes_a_valid_instruction_that_run_would_stop_at(tmp_path):
    """`check` says before `run` does that an instruction exists but has no semantics here."""
    f = tmp_path / "nm.s"
    f.write_text("v_cubeid_f32 v1, v2, v3, v4\nv_add_f32 v0, v1, v2\ns_endpgm\n")
    r = run_cli("check", "--arch", "gfx942", "--format", "json", str(f))
    assert r.returncode == 0
    notes = [(d["line"], d["rule"]) for d in json.loads(r.stdout)["diagnostics"]]
    assert notes == [(1, "not-modelled")]
    r = run_cli("run", "--arch", "gfx942", str(f))
    assert r.returncode == 1 and b"not modelled yet: v_cubeid_f32" in r.stderr


@pytest.mark.parametrize("command", ["check", "lint", "run"])
def test_an_unmodelled_target_in_the_file_is_an_error_not_a_silent_gfx90a(tmp_path, command):
    f = tmp_path / "rdna.s"
    f.write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\ns_endpgm\n')
    r = run_cli(command, str(f))
    assert r.returncode == 1
    assert f"{f}:1:1: error: target 'gfx1100' of .amdgcn_target is not modelled".encode() in r.stderr
    assert b"Traceback" not in r.stderr
    forced = run_cli(command, "--arch", "gfx90a", str(f))
    if command == "check":  # llvm-mc 22 refuses a file whose .amdgcn_target is not the -mcpu it assembles for
        assert forced.returncode == 1 and b"does not match the specified target id" in forced.stderr
    else:  # --arch still decides what runs and what is linted, but never silently (issue 26)
        assert b"does not match the specified target id amdgcn-amd-amdhsa--gfx90a" in forced.stderr + forced.stdout
        assert forced.returncode == (1 if command == "lint" else 0)  # (lint: a warning fails the lint)


def test_arch_takes_a_target_id_with_features_as_miopen_builds(tmp_path):
    """`--arch gfx908:xnack-` is llvm-mc's `-mcpu=gfx908 -mattr=-xnack`: a kernel that reserves no
    XNACK mask checks; plain gfx908 (XNACK 'any') refuses it, as llvm-mc does; a bad feature is a
    usage error."""
    f = tmp_path / "k.s"
    f.write_text("\t.text\nk:\n\ts_endpgm\n\t.rodata\n.amdhsa_kernel k\n\t.amdhsa_next_free_vgpr 1\n"
                 "\t.amdhsa_next_free_sgpr 1\n\t.amdhsa_reserve_xnack_mask 0\n.end_amdhsa_kernel\n")
    assert run_cli("check", "--arch", "gfx908:xnack-", str(f)).returncode == 0
    plain = run_cli("check", "--arch", "gfx908", str(f))
    assert plain.returncode == 1 and b".amdhsa_reserve_xnack_mask does not match target id" in plain.stderr
    bad = run_cli("check", "--arch", "gfx908:ecc+", str(f))
    assert bad.returncode == 2 and b"a feature is xnack+, xnack-, sramecc+ or sramecc-" in bad.stderr
