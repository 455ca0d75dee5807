"""`gcnemu run`: the file header's setup, CLI overrides, typed register printing, JSON, errors."""
from __future__ import annotations

import json
import textwrap

import pytest

from gcnemu.cli import main

KERNEL = """
; gcnemu:
;   buffer A: u32[64] = i * 3 -> s[4:5]
;   vgpr v1 = lane * 4
;   sgpr s9 = 5
;   expect v3 = lane * 3 + 5
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v3, s9, v2
  s_endpgm
"""


@pytest.fixture
def kernel(tmp_path):
    path = tmp_path / "k.s"
    path.write_text(textwrap.dedent(KERNEL).lstrip("\n"))
    return str(path)


def gcnemu(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_text_output_prints_all_lanes_typed_and_a_summary(kernel, capsys):
    rc, out, err = gcnemu(capsys, "run", kernel, "--print", "v3", "v1:f32", "s9", "s[4:5]")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "wave 0:"
    assert lines[1] == "  v3 (u32):"
    assert lines[2].split() == ["0..", "7:", "5", "8", "11", "14", "17", "20", "23", "26"]
    assert lines[9].split()[-1] == str(63 * 3 + 5)
    assert "  v1 (f32):" in lines
    assert "  s9 (u32): 5" in lines
    assert any(line.startswith("  s[4:5] (u64): ") for line in lines)
    done = next(i for i, line in enumerate(lines) if line.startswith("gfx90a: done: "))
    assert lines[done].startswith("gfx90a: done: 4 instructions, ")
    # where the cycles went: MFMA use, stalls per wave and the per-class table (views.where)
    assert all(line.startswith(("mfma:", "stalls ", "Where time went", "  ")) for line in lines[done + 1:-1])
    assert any(line.startswith("Where time went") for line in lines[done + 1:-1])
    assert lines[done].endswith(" cycles, 0 hazards, 1 wave")
    assert lines[-1] == "check: passed (1 expectation)"


def test_json_output_has_the_agreed_fields(kernel, capsys):
    rc, out, err = gcnemu(capsys, "run", kernel, "--format", "json", "--print", "v3", "v[1:2]", "s9", "vcc")
    assert rc == 0, err
    data = json.loads(out)
    assert set(data) >= {"waves", "instructions", "cycles", "diagnostics"}
    assert data["instructions"] == 4 and data["cycles"] > 0
    wave = data["waves"][0]
    assert wave["wave"] == 0
    regs = wave["registers"]
    assert regs["v3"] == [lane * 3 + 5 for lane in range(64)]
    assert regs["v1"] == [lane * 4 for lane in range(64)] and len(regs["v2"]) == 64
    assert regs["s9"] == 5 and set(regs) == {"v3", "v1", "v2", "s9", "vcc[0]", "vcc[1]"}
    assert wave["cycles"] > 0 and wave["instructions"] == 4 and isinstance(wave["stalls"], dict)
    assert data["check"]["passed"] is True


def test_cli_options_override_the_header(kernel, capsys):
    rc, out, err = gcnemu(capsys, "run", kernel, "--sgpr", "s9=100", "--buffer", "A=u32[64]:i*2->s[4:5]",
                          "--vgpr", "v1=(63-lane)*4", "--print", "v3", "--format", "json")
    data = json.loads(out)
    assert data["waves"][0]["registers"]["v3"] == [(63 - lane) * 2 + 100 for lane in range(64)]
    assert rc == 1  # the file's expectation no longer holds
    assert data["check"]["passed"] is False


def test_workgroup_and_args_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text("  s_mov_b32 s5, s2\n  s_endpgm\n")
    rc, out, err = gcnemu(capsys, "run", str(path), "--workgroup", "256", "--buffer", "A=f32[8]:1.5",
                          "--arg", "A", "--arg", "n=3", "--print", "v0", "--format", "json")
    assert rc == 0, err
    data = json.loads(out)
    assert len(data["waves"]) == 4
    assert data["waves"][3]["registers"]["v0"][0] == 192


@pytest.mark.parametrize("argv, where, words", [
    (["--arg", "n=foo+1"], "<command line>:1:9: error: unknown name 'foo'", "--arg n=foo+1"),
    (["--vgpr", "v1=lane.T"], "<command line>:1:15: error: attribute access", "--vgpr v1=lane.T"),
    (["--buffer", "A=f33[4]:0"], "<command line>:1:12: error: expected a type", "--buffer A=f33[4]:0"),
    (["--sgpr", "v5=1"], "<command line>:1:8: error: 'v5' is not an SGPR", "--sgpr v5=1"),
    (["--print", "q7"], "<command line>:1:9: error: 'q7' is not a register", "--print q7"),
    (["--latency", "vram=5"], "<command line>:1:11: error: unknown latency 'vram'", "--latency vram=5"),
])
def test_bad_options_give_diagnostics_with_a_caret(kernel, capsys, argv, where, words):
    rc, out, err = gcnemu(capsys, "run", kernel, *argv)
    assert rc == 1
    lines = err.splitlines()
    assert lines[0].startswith(where)
    assert lines[1] == words
    assert lines[2].lstrip().startswith("^")
    assert len(lines[2]) - len(lines[2].lstrip()) == int(where.split(":")[2]) - 1
    assert "Traceback" not in err


def test_bad_header_line_is_a_diagnostic_not_a_traceback(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text("; gcnemu:\n;   vgpr v1 = __import__('os').system('echo hi')\n  s_endpgm\n")
    rc, out, err = gcnemu(capsys, "run", str(path))
    assert rc == 1
    assert err.startswith(f"{path}:2:")
    assert "Traceback" not in err and "hi" not in out


def test_limits_stop_the_run_with_a_clear_message(tmp_path, capsys):
    path = tmp_path / "loop.s"
    path.write_text(".Lforever:\n  s_branch .Lforever\n  s_endpgm\n")
    rc, out, err = gcnemu(capsys, "run", str(path), "--max-instructions", "50")
    assert rc == 1
    assert "--max-instructions 50" in err
    assert ": stopped: " in out


def test_latency_overrides_change_the_cycle_count(kernel, capsys):
    def cycles(*extra):
        rc, out, err = gcnemu(capsys, "run", kernel, "--format", "json", *extra)
        assert rc == 0, err
        return json.loads(out)["cycles"]
    assert cycles("--latency", "vmem=2000") > cycles("--latency", "vmem=100") + 1500


def test_runtime_error_points_at_the_instruction(tmp_path, capsys):
    path = tmp_path / "oob.s"
    path.write_text("; gcnemu:\n;   buffer A: u32[4] -> s[4:5]\n;   vgpr v1 = lane * 4\n"
                    "  global_load_dword v2, v1, s[4:5]\n  s_endpgm\n")
    rc, out, err = gcnemu(capsys, "run", str(path))
    assert rc == 1
    assert err.splitlines()[0].startswith(f"{path}:4:3: error: ")
    assert ": error: " in out.splitlines()[-1]


def test_trace_is_written(kernel, tmp_path, capsys):
    out_path = tmp_path / "trace.json"
    rc, out, err = gcnemu(capsys, "run", kernel, "--trace", str(out_path))
    assert rc == 0, err
    assert json.loads(out_path.read_text())


def test_hazards_are_reported_as_warnings_with_the_producer(tmp_path, capsys):
    path = tmp_path / "h.s"
    path.write_text("; gcnemu:\n;   buffer A: u32[64] -> s[4:5]\n;   vgpr v1 = lane * 4\n"
                    "  global_load_dword v2, v1, s[4:5]\n  v_add_u32 v3, v2, v2\n  s_endpgm\n")
    rc, out, err = gcnemu(capsys, "run", str(path), "--format", "json")
    diags = json.loads(out)["diagnostics"]
    hz = [d for d in diags if d["rule"] == "vmem-result-before-vmcnt"]
    assert hz and hz[0]["line"] == 5 and hz[0]["severity"] == "warning"
    assert hz[0]["notes"][0]["line"] == 4
