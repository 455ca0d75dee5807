"""`--latency-file` on run and step: a TOML of latencies and per-buffer memory latencies.

Precedence, as a user expects it: the file header < the TOML file < `--latency` on the
command line. Errors name the file; none is a traceback.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from gcnemu.cli import main

VECTOR_ADD = str(Path(__file__).resolve().parents[1] / "programs" / "vector_add.s")


def cycles(capsys, *argv: str) -> int:
    main(["run", VECTOR_ADD, *argv])
    out = capsys.readouterr().out
    return int(re.search(r"(\d+) cycles", out).group(1))


def test_file_latencies_apply_and_the_command_line_wins_over_them(tmp_path, capsys):
    f = tmp_path / "lat.toml"
    f.write_text("[latency]\nvmem = 2000\n")
    default = cycles(capsys)
    slow = cycles(capsys, "--latency-file", str(f))
    # the loads of every wave wait 2000 cycles instead of the hierarchy's (HBM: under 1000)
    assert slow >= default + 1000
    assert cycles(capsys, "--latency-file", str(f), "--latency", "vmem=100") == cycles(capsys, "--latency", "vmem=100")


def test_a_memory_region_slows_only_the_loads_of_that_buffer(tmp_path, capsys):
    only_b = tmp_path / "b.toml"
    only_b.write_text('[[memory]]\nbuffer = "B"\nvmem = 2000\n')
    only_c = tmp_path / "c.toml"
    only_c.write_text('[[memory]]\nbuffer = "C"\nvmem = 2000\n')  # C is only stored to: loads unaffected
    default = cycles(capsys)
    assert cycles(capsys, "--latency-file", str(only_b)) > default + 1000
    assert cycles(capsys, "--latency-file", str(only_c)) == default


def test_step_takes_the_same_file(tmp_path):
    f = tmp_path / "lat.toml"
    f.write_text("[latency]\nvmem = 900\n")
    r = subprocess.run([sys.executable, "-m", "gcnemu", "step", VECTOR_ADD, "--latency-file", str(f), "--batch", "-"],
                       input="continue\nquit\n", capture_output=True, text=True, timeout=120)
    plain = subprocess.run([sys.executable, "-m", "gcnemu", "run", VECTOR_ADD, "--latency", "vmem=900"],
                           capture_output=True, text=True, timeout=120)
    n = re.search(r"(\d+) cycles", plain.stdout).group(1)
    assert f"finished at cycle {n}" in r.stdout, r.stdout + r.stderr


def test_bad_files_are_one_line_errors(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[latency]\nvmemx = 3\n")
    assert main(["run", VECTOR_ADD, "--latency-file", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "unknown latency 'vmemx'" in err and "Traceback" not in err
    assert main(["run", VECTOR_ADD, "--latency-file", str(tmp_path / "missing.toml")]) == 1
    assert "no such latency file" in capsys.readouterr().err
