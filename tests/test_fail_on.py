"""`--fail-on=hazard|race|warning` and `-Werror`: a CI job can fail on a finding, not only on a
failed expectation (issue 26, item 1)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "programs" / "hazard_gallery"
RACY = GALLERY / "22_lds_race_missing_barrier_wrong.s"
CLEAN = GALLERY / "22_lds_race_missing_barrier_fixed.s"
HAZARD = GALLERY / "05_load_result_before_vmcnt_wrong.s"


def gcnemu(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *args], cwd=ROOT, capture_output=True, text=True,
                          input=stdin, timeout=300)


def test_run_exits_0_on_hazards_without_fail_on_and_1_with_it():
    assert gcnemu("run", str(RACY)).returncode == 0  # the header expects the race: a passing check
    r = gcnemu("run", str(RACY), "--fail-on=race")
    assert r.returncode == 1 and "exit 1: --fail-on=race: 1 race reported" in r.stdout
    assert "next:" not in r.stdout


@pytest.mark.parametrize("option", [["--fail-on", "hazard"], ["--fail-on=warning"], ["-Werror"],
                                    ["--fail-on", "race,hazard"]])
def test_every_spelling_fails_a_run_that_reports_a_hazard(option):
    assert gcnemu("run", str(HAZARD), *option).returncode == 1


def test_race_alone_does_not_fail_on_a_hazard_that_is_no_race():
    assert gcnemu("run", str(HAZARD), "--fail-on=race").returncode == 0


def test_a_clean_run_passes_with_every_kind():
    assert gcnemu("run", str(CLEAN), "--fail-on=hazard,race,warning").returncode == 0


def test_a_bad_kind_is_a_usage_error_naming_the_kinds():
    r = gcnemu("run", str(CLEAN), "--fail-on=races")
    assert r.returncode == 2 and "invalid choice 'races' (choose from hazard, race, warning)" in r.stderr


def test_json_says_what_tripped():
    out = json.loads(gcnemu("run", str(RACY), "--fail-on=race", "--format", "json").stdout)
    assert out["fail_on"] == ["--fail-on=race: 1 race reported"]


def test_test_fails_only_on_findings_the_header_does_not_expect(tmp_path):
    assert gcnemu("test", str(RACY), "--fail-on=race").returncode == 0  # it expects its race
    unexpected = tmp_path / "racy.s"
    unexpected.write_text("\n".join(l for l in RACY.read_text().splitlines()
                                    if not re.match(r"//\s+expect hazard", l)) + "\n")
    r = gcnemu("test", str(unexpected), "--fail-on=race")
    assert r.returncode == 1
    assert re.search(r"--fail-on: race 'lds-race' at line 27 is reported and not expected", r.stdout)  # (one line less)
    assert gcnemu("test", str(unexpected)).returncode == 0  # without --fail-on: no expectation fails


def test_step_batch_fails_on_the_races_the_commands_ran_into():
    r = gcnemu("step", str(RACY), "--fail-on=race", stdin="continue\n")
    assert r.returncode == 1 and "exit 1: --fail-on=race" in r.stdout
    assert gcnemu("step", str(RACY), "--fail-on=race", stdin="stepi\n").returncode == 0  # not got there yet
