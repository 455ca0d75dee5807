"""`gcnemu test`: one line per snippet, failures with diffs, the summary line, and --update."""
from __future__ import annotations

import textwrap

import pytest

from gcnemu.cli import main

GOOD = """
; gcnemu:
;   buffer A: u32[64] = i * 3 -> s[4:5]
;   vgpr v1 = lane * 4
;   expect v3 = lane * 3 + 5
;   expect hazards: none
;   expect cycles: CYCLES
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v3, 5, v2
  s_endpgm
"""


def snippet(path, text: str, newline: str = "\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    body = textwrap.dedent(text).lstrip("\n").replace("\n", newline)
    path.write_bytes(body.encode())
    return path


def gcnemu(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def cycles(tmp_path_factory, capsys) -> int:
    """The cycle count of GOOD under the current timing model (so tests do not pin it)."""
    import json
    p = snippet(tmp_path_factory.mktemp("probe") / "p.s", GOOD.replace("CYCLES", "0..1000000000"))
    rc, out, err = gcnemu(capsys, "run", p, "--format", "json")
    return json.loads(out)["cycles"]


def test_pass_and_fail_lines_and_the_summary_last(tmp_path, capsys, cycles):
    snippet(tmp_path / "a_good.s", GOOD.replace("CYCLES", str(cycles)))
    snippet(tmp_path / "b_bad.s", GOOD.replace("CYCLES", str(cycles)).replace("v_add_u32 v3, 5", "v_add_u32 v3, 6"))
    snippet(tmp_path / "sub" / "c_good.s", GOOD.replace("CYCLES", f"{cycles - 5}..{cycles + 5}"))
    (tmp_path / "plain.s").write_text("  s_endpgm\n")
    rc, out, err = gcnemu(capsys, "test", tmp_path)
    lines = out.splitlines()
    assert rc == 1
    assert lines[-1] == "2 passed, 1 failed"
    assert lines[0] == f"PASS {tmp_path}/a_good.s [gfx90a, {cycles} cycles]"
    assert lines[1] == f"FAIL {tmp_path}/b_bad.s [gfx90a, {cycles} cycles]"
    assert lines[2] == f"{tmp_path}/b_bad.s:4:5: error: v3 (u32): 64 of 64 lanes differ"
    assert lines[3] == ";   expect v3 = lane * 3 + 5"
    assert lines[5].split() == ["lane", "expected", "actual"]
    assert lines[6].split() == ["0", "5", "6"]
    assert f"SKIP {tmp_path}/plain.s (no gcnemu header)" in lines
    assert f"PASS {tmp_path}/sub/c_good.s [gfx90a, {cycles} cycles]" in lines


def test_all_passing_exits_zero_and_k_filters(tmp_path, capsys, cycles):
    snippet(tmp_path / "one.s", GOOD.replace("CYCLES", str(cycles)))
    snippet(tmp_path / "two.s", GOOD.replace("CYCLES", "1"))
    rc, out, err = gcnemu(capsys, "test", tmp_path, "-k", "one")
    assert rc == 0 and out.splitlines()[-1] == "1 passed, 0 failed"
    rc, out, err = gcnemu(capsys, "test", tmp_path, "-k", "t*o.s")
    assert rc == 1 and out.splitlines()[-1] == "0 passed, 1 failed"


def test_arch_option_runs_another_target(tmp_path, capsys, cycles):
    p = snippet(tmp_path / "a.s", GOOD.replace("CYCLES", ">= 1"))
    rc, out, err = gcnemu(capsys, "test", p, "--arch", "gfx942")
    assert rc == 0 and "[gfx942, " in out


def test_a_malicious_snippet_is_a_clean_failure(tmp_path, capsys):
    for k, expr in enumerate(["__import__('os').system('touch pwned')", "A.__class__", "9**9**9",
                              "zeros(10**10)", "open('/etc/passwd')"]):
        snippet(tmp_path / f"m{k}.s", f"; gcnemu:\n;   buffer A: u32[4]\n;   expect A = {expr}\n  s_endpgm\n")
    rc, out, err = gcnemu(capsys, "test", tmp_path)
    assert rc == 1 and out.splitlines()[-1] == "0 passed, 5 failed"
    assert "Traceback" not in out + err and "internal error" not in out
    assert not (tmp_path / "pwned").exists()
    assert "cannot run Python code" in out and "attribute access" in out
    assert "exponent too large" in out and "larger than the limit" in out


def test_update_rewrites_cycles_and_hazards_but_never_values(tmp_path, capsys, cycles):
    text = """
    ; broken.s -- the values are wrong too; --update must leave them wrong
    ; gcnemu:
    ;   buffer A: u32[64] = i * 3 -> s[4:5]
    ;   vgpr v1 = lane * 4
    ;   expect v3 = lane * 3 + 999
    ;   expect hazards: none
    ;   expect cycles: 1
    ;   expect A = i * 3
      global_load_dword v2, v1, s[4:5]
      v_add_u32 v3, 5, v2                 // no s_waitcnt: a hazard
      s_waitcnt vmcnt(0)
      s_endpgm
    """
    path = snippet(tmp_path / "broken.s", text, newline="\r\n")
    before = path.read_bytes()
    rc, out, err = gcnemu(capsys, "test", path, "--update")
    after = path.read_bytes()
    assert rc == 1  # the value expectation still fails
    assert out.splitlines()[-1] == "0 passed, 1 failed"
    assert out.startswith(f"--- {path}\n+++ {path}\n")  # the diff comes first
    assert "-;   expect cycles: 1\r\n" in out
    new_lines = after.decode().split("\r\n")
    old_lines = before.decode().split("\r\n")
    # the hazard (run and linter name it alike) replaces 'none': same length, all the rest intact
    assert len(new_lines) == len(old_lines)
    assert new_lines[5:7] == [";   expect hazard vmem-result-before-vmcnt at 10",
                              f";   expect cycles: {_cycles_of(out)}"]
    assert new_lines[:5] == old_lines[:5] and new_lines[7:] == old_lines[7:]
    assert new_lines[9].startswith("  v_add_u32 v3, 5, v2")  # line 10, the one the hazard names
    assert b"\r\n" in after and b"\n" not in after.replace(b"\r\n", b"")
    # now only the value failure is left, and a second update changes nothing
    rc, out, err = gcnemu(capsys, "test", path, "--update")
    assert path.read_bytes() == after
    assert "v3 (u32): 64 of 64 lanes differ" in out and "cycles" not in out.split("error:")[-1]


def _cycles_of(out: str) -> int:
    import re
    return int(re.search(r"\[gfx90a, (\d+) cycles\]", out).group(1))


def test_update_keeps_range_width_and_removes_stale_hazards(tmp_path, capsys, cycles):
    text = f"""
    ; gcnemu:
    ;   buffer A: u32[64] = i -> s[4:5]
    ;   vgpr v1 = lane * 4
    ;   expect hazard vmem-result-before-vmcnt at 8
    ;   expect cycles: {cycles * 2}..{cycles * 3}
      global_load_dword v2, v1, s[4:5]
      s_waitcnt vmcnt(0)
      v_add_u32 v3, 5, v2
      s_endpgm
    """
    path = snippet(tmp_path / "r.s", text)
    rc, out, err = gcnemu(capsys, "test", path, "--update")
    c = _cycles_of(out)
    assert rc == 0 and f"UPDATED {path}" in out
    lines = path.read_text().split("\n")
    assert lines[3] == ";   expect hazards: none"
    lo, hi = (int(x) for x in lines[4].split(": ")[1].split(".."))
    assert lo < c < hi and abs((hi - lo) / c - 0.4) < 0.05  # the range was +-20% around its middle
    assert lines[5] == "  global_load_dword v2, v1, s[4:5]"


def test_update_leaves_passing_files_byte_identical(tmp_path, capsys, cycles):
    path = snippet(tmp_path / "ok.s", GOOD.replace("CYCLES", str(cycles)))
    before = path.read_bytes()
    rc, out, err = gcnemu(capsys, "test", path, "--update")
    assert rc == 0 and path.read_bytes() == before and "---" not in out


def test_json_format(tmp_path, capsys, cycles):
    import json
    snippet(tmp_path / "a.s", GOOD.replace("CYCLES", str(cycles + 1)))
    rc, out, err = gcnemu(capsys, "test", tmp_path, "--format", "json")
    data = json.loads(out)
    assert rc == 1 and data["failed"] == 1 and data["passed"] == 0
    r = data["results"][0]
    assert r["status"] == "FAIL" and r["failures"][0]["message"] == f"cycles: {cycles}, expected {cycles + 1}"
    assert r["failures"][0]["line"] == 6


MFMA = """
; gcnemu:
;   arch: gfx90a
;   expect mfma-utilisation: 0.9..1.0
;   expect stall nop: <= 10
;   expect stall dependency: 5
;   expect v1 = 7                   # wrong on purpose: --update must leave it wrong
v_mov_b32 v1, 1.0
v_mov_b32 v2, 1.0
s_nop 1
v_mfma_f32_32x32x2f32 a[0:15], v1, v2, 0
s_nop 15
s_nop 2
s_endpgm
"""


def test_update_rewrites_utilisation_and_stall_expectations_like_cycles(tmp_path, capsys):
    """A timing-model change moves utilisation and stalls as it moves cycles: --update refreshes
    them by the same rule (a range keeps its relative width, exact stays exact, a bound stays a
    bound) and says what it changed under the status line."""
    import json
    path = snippet(tmp_path / "m.s", MFMA)
    rc, out, err = gcnemu(capsys, "run", path, "--format", "json")
    stalls = json.loads(out)["waves"][0]["stalls"]
    util_expect = "expect mfma-utilisation: 0.9..1.0"
    rc, out, err = gcnemu(capsys, "test", path, "--update")
    lines = path.read_text().split("\n")
    assert rc == 1 and out.splitlines()[-1] == "0 passed, 1 failed"  # the value is still wrong
    lo, hi = (float(x) for x in lines[2].split(": ")[1].split(".."))
    assert lines[2].startswith(";   expect mfma-utilisation: ") and lo < 0.66 < hi
    assert abs((hi - lo) / 0.66 - 0.1 / 0.95) < 0.03  # 0.9..1.0 was +-5% around its middle
    assert lines[3] == f";   expect stall nop: <= {stalls['nop']}"
    assert lines[4] == f";   expect stall dependency: {stalls.get('dependency', 0)}"
    assert lines[5] == ";   expect v1 = 7                   # wrong on purpose: --update must leave it wrong"
    status = next(k for k, line in enumerate(out.splitlines()) if line.startswith("FAIL "))
    assert out.splitlines()[status + 1:status + 4] == [
        f"  line 3: {util_expect} -> {lo:.2f}..{hi:.2f} (measured {out.split('(measured ')[1].split(')')[0]})",
        f"  line 4: expect stall nop: <= 10 -> <= {stalls['nop']}",
        f"  line 5: expect stall dependency: 5 -> {stalls.get('dependency', 0)}",
    ]
    assert f"{path}:6:5: error: v1 (u32): 64 of 64 lanes differ" in out
    rc, out, err = gcnemu(capsys, "test", path)
    assert [line for line in out.splitlines() if "error:" in line] == [f"{path}:6:5: error: v1 (u32): 64 of 64 lanes differ"]


def test_update_reports_its_changes_in_json(tmp_path, capsys, cycles):
    import json
    path = snippet(tmp_path / "a.s", GOOD.replace("CYCLES", "1"))
    rc, out, err = gcnemu(capsys, "test", path, "--update", "--format", "json")
    r = json.loads(out)["results"][0]
    assert rc == 0 and r["status"] == "UPDATED" and r["changes"] == [f"line 6: expect cycles: 1 -> {cycles}"]


@pytest.mark.parametrize("written, measured, metric, rewritten", [
    ("0.17..0.23", 0.4, "mfma-utilisation", "0.34..0.46"),    # +-15% around 0.2
    ("0.17..0.23", 0.41, "mfma-utilisation", "0.34..0.48"),   # rounded outwards: 0.3485..0.4715
    ("0.9..1.0", 0.99, "mfma-utilisation", "0.93..1.00"),     # never above 1
    ("0.5", 0.25, "mfma-utilisation", "0.25"),                # exact stays exact
    ("<= 0.3", 0.41234, "mfma-utilisation", "<= 0.42"),       # a bound stays a bound, still holding the figure
    (">= 0.5", 0.41234, "mfma-utilisation", ">= 0.41"),
    ("1200..1700", 3000, "stall:waitcnt vmcnt", "2482..3518"),
    ("100", 12.25, "stall:barrier", "12.25"),                 # stalls are averaged per wave
    ("0..0", 8, "stall:nop", "8"),                             # a zero-width range is exact, as for cycles
])
def test_a_timing_range_is_rewritten_by_the_rule_of_cycles(written, measured, metric, rewritten):
    from gcnemu.commands.test import _new_metric
    from gcnemu.snippets.header import MetricExpect, Src, parse_range
    val = Src("k.s", 1, 1, written)
    lo, hi = parse_range(val, metric)
    assert _new_metric(MetricExpect(val, None, metric=metric, lo=lo, hi=hi, value_src=val), measured) == rewritten
    new_lo, new_hi = parse_range(Src("k.s", 1, 1, rewritten), metric)
    assert (new_lo is None or new_lo <= measured) and (new_hi is None or measured <= new_hi)


def test_update_never_turns_a_broken_guard_into_an_expected_hazard(tmp_path, capsys):
    """`expect no hazard` forbids a hazard; --update must neither rewrite it nor write the
    forbidden hazard down as expected (the file would then contradict itself)."""
    text = """
    ; gcnemu:
    ;   buffer A: u32[64] = i -> s[4:5]
    ;   vgpr v1 = lane * 4
    ;   expect no hazard vmem-result-before-vmcnt
    ;   expect cycles: 1
      global_load_dword v2, v1, s[4:5]
      v_add_u32 v3, v2, v2
      s_endpgm
    """
    path = snippet(tmp_path / "g.s", text)
    rc, out, err = gcnemu(capsys, "test", path, "--update")
    lines = path.read_text().split("\n")
    assert rc == 1 and f"FAIL {path}" in out
    assert lines[3] == ";   expect no hazard vmem-result-before-vmcnt"
    assert lines[4].startswith(";   expect cycles: ") and lines[4] != ";   expect cycles: 1"
    assert "expect hazard " not in path.read_text()
    assert "hazard 'vmem-result-before-vmcnt' at line 7 was expected to be absent" in out
