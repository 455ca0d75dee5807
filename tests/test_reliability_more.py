"""More inputs that used to crash or mislead gcnemu (issue 18 and the reliability pass after it).

Each case is what a user types: a file and the CLI. The outcome is the right result, or an
llvm-mc style `file:line:col: error:` / `warning:` on the offending text with exit code 1,
and never a Python traceback.
"""
from __future__ import annotations

import re
import textwrap

import pytest

from gcnemu.cli import main


def write(tmp_path, text: str, name: str = "k.s", newline: str = "\n") -> str:
    path = tmp_path / name
    path.write_bytes(textwrap.dedent(text).lstrip("\n").replace("\n", newline).encode())
    return str(path)


def gcnemu(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert rc in (0, 1, 2)
    return rc, out, err


# ---------------------------------------------------------------- A. CR-only and CRLF line endings

HAZARDS = """
    v_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]
    v_add_f32 v10, v1, v11
    global_load_dword v4, v[20:21], off
    v_add_f32 v5, v4, v4
    s_endpgm
    """


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_lint_fix_edits_a_cr_or_crlf_file_where_lf_gets_edited_and_keeps_its_endings(tmp_path, capsys, newline):
    lf = write(tmp_path, HAZARDS, "lf.s")
    other = write(tmp_path, HAZARDS, "other.s", newline)
    for path in (lf, other):
        rc, out, err = gcnemu(capsys, "lint", "--arch", "gfx90a", "--fix", "--in-place", path)
        assert rc == 0 and "2 edit(s) applied, 0 hazard(s) left" in err
    fixed_lf = open(lf, "rb").read().decode()
    assert "\ns_nop 4\nv_add_f32 v10" in fixed_lf and "\ns_waitcnt vmcnt(0)\nv_add_f32 v5" in fixed_lf
    assert open(other, "rb").read().decode() == fixed_lf.replace("\n", newline)
    rc, out, err = gcnemu(capsys, "lint", "--arch", "gfx90a", other)
    assert rc == 0 and "no hazards" in out + err


UPDATABLE = """
    ; gcnemu:
    ;   arch: gfx90a
    ;   buffer A: u32[64] = i * 3 -> s[4:5]
    ;   vgpr v1 = lane * 4
    ;   expect hazards: none
    ;   expect cycles: 1
    global_load_dword v2, v1, s[4:5]
    v_add_u32 v3, v2, v2
    s_waitcnt vmcnt(0)
    s_endpgm
    """


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_test_update_rewrites_a_cr_or_crlf_snippet_as_an_lf_one_and_keeps_its_endings(tmp_path, capsys, newline):
    lf = write(tmp_path, UPDATABLE, "lf.s")
    other = write(tmp_path, UPDATABLE, "other.s", newline)
    for path in (lf, other):
        rc, out, err = gcnemu(capsys, "test", "--update", path)
        assert rc == 0 and f"UPDATED {path}" in out
        assert "\r" not in out.replace("\r\n", "")  # a lone CR would overprint the diff's lines
    updated_lf = open(lf, "rb").read().decode()
    assert ";   expect hazard vmem-result-before-vmcnt at 8\n" in updated_lf  # a line was added
    assert "expect cycles: 1\n" not in updated_lf
    assert open(other, "rb").read().decode() == updated_lf.replace("\n", newline)
    rc, out, err = gcnemu(capsys, "test", other)
    assert rc == 0 and f"PASS {other}" in out


# ---------------------------------------------------------------- B. misaligned global and LDS accesses

def misaligned_kernel(tmp_path, body: str, vgprs: str = ";   vgpr v1 = lane * 16 + 8\n", workgroup: int = 64) -> str:
    return write(tmp_path, f"""
        ; gcnemu:
        ;   arch: gfx942
        ;   workgroup: {workgroup}
        ;   buffer A: u32[128] = i -> s[4:5]
        """ + vgprs + ";   vgpr v4 = 1\n;   vgpr v5 = 2\n;   vgpr v6 = 3\n;   vgpr v7 = 4\n" + textwrap.dedent(body))


def where(path: str, text: str) -> str:
    """`file:line:col` of the first line of `path` holding `text` (at the text)."""
    for n, line in enumerate(open(path, encoding="utf-8").read().splitlines(), start=1):
        if text in line:
            return f"{path}:{n}:{line.index(text) + 1}"
    raise AssertionError(f"{text!r} not in {path}")


def warnings_of(err: str, rule: str = "misaligned-access") -> list[str]:
    return [line for line in err.splitlines() if line.endswith(f"[{rule}]")]


@pytest.mark.parametrize("instruction, message", [
    ("ds_write_b128 v1, v[4:7]", "ds_write_b128 writes LDS address 0x8, which is not 16-byte aligned (lanes 0-63 in wave 0)"),
    ("ds_read_b128 v[8:11], v1", "ds_read_b128 reads LDS address 0x8, which is not 16-byte aligned (lanes 0-63 in wave 0)"),
    ("ds_read_b64 v[8:9], v2", "ds_read_b64 reads LDS address 0x4, which is not 8-byte aligned (lanes 0, 2, 4,"),
    ("ds_write_b64 v2, v[4:5]", "ds_write_b64 writes LDS address 0x4, which is not 8-byte aligned (lanes 0, 2, 4,"),
    ("global_load_dword v8, v3, s[4:5]", "global_load_dword reads address 0x"),
    ("global_store_dwordx2 v3, v[4:5], s[4:5]", "global_store_dwordx2 writes address 0x"),
])
def test_a_misaligned_access_is_a_warning_at_the_instruction_naming_lanes_and_address(tmp_path, capsys, instruction, message):
    # v1: 16-byte slots at +8 (8-byte aligned only); v2: 4 * lane + 4 (odd lanes 8-byte aligned); v3: 4 * lane + 2
    path = misaligned_kernel(tmp_path, f"""
        s_mov_b32 m0, -1
        {instruction}
        s_waitcnt vmcnt(0) lgkmcnt(0)
        s_endpgm
        """, ";   vgpr v1 = lane * 16 + 8\n;   vgpr v2 = lane * 4 + 4\n;   vgpr v3 = lane * 4 + 2\n")
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 0 and "done:" in out  # the access runs (as ROCm's unaligned mode does); it is a warning
    [warning] = warnings_of(err)
    assert warning.startswith(f"{where(path, instruction)}: warning: {message}")
    assert "note: " in err and ("SH_MEM_CONFIG.alignment_mode" in err or "section 9.1.7" in err)


def test_each_misaligned_instruction_is_reported_once_however_often_it_runs(tmp_path, capsys):
    path = misaligned_kernel(tmp_path, """
        s_mov_b32 m0, -1
        s_mov_b32 s0, 3
    loop:
        ds_read_b128 v[8:11], v1
        s_sub_u32 s0, s0, 1
        s_cmp_lg_u32 s0, 0
        s_cbranch_scc1 loop
        s_waitcnt lgkmcnt(0)
        s_endpgm
        """, workgroup=128)
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 0
    [warning] = warnings_of(err)
    assert warning.startswith(f"{where(path, 'ds_read_b128')}: warning: ds_read_b128 reads LDS address 0x8")
    assert re.search(r"\(lanes 0-63 in wave [01]; 6 times in 2 wave\(s\)\) \[misaligned-access\]$", warning)


def test_aligned_accesses_and_scratch_are_not_warned_about(tmp_path, capsys):
    # the guide allows misaligned scratch (section 10.5); byte accesses and aligned ones need nothing
    path = write(tmp_path, """
        ; gcnemu:
        ;   arch: gfx942
        ;   scratch: 64
        ;   buffer A: u32[128] = i -> s[4:5]
        ;   vgpr v1 = lane % 16 * 16
        ;   vgpr v2 = lane * 4 + 1
        ;   vgpr v3 = 3
        s_mov_b32 m0, -1
        ds_write_b128 v1, v[4:7]
        ds_read_u8 v8, v2
        global_load_ubyte v9, v2, s[4:5]
        global_load_dwordx4 v[12:15], v1, s[4:5]
        scratch_store_dword v3, v2, off
        scratch_load_dword v10, v3, off
        s_waitcnt vmcnt(0) lgkmcnt(0)
        s_endpgm
        """)
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 0 and "done:" in out
    assert warnings_of(err) == []


def test_a_misaligned_atomic_is_a_warning_that_says_the_hardware_faults(tmp_path, capsys):
    path = misaligned_kernel(tmp_path, """
        s_mov_b32 m0, -1
        ds_add_u32 v2, v4
        s_waitcnt lgkmcnt(0)
        s_endpgm
        """, ";   vgpr v2 = lane * 4 + 2\n")
    rc, out, err = gcnemu(capsys, "run", path)
    [warning] = warnings_of(err)
    assert "ds_add_u32 updates LDS address 0x2, which is not 4-byte aligned" in warning
    assert "memory violation" in err


def test_misaligned_accesses_are_in_the_json_report(tmp_path, capsys):
    path = misaligned_kernel(tmp_path, """
        s_mov_b32 m0, -1
        ds_read_b64 v[8:9], v1
        s_waitcnt lgkmcnt(0)
        s_endpgm
        """, ";   vgpr v1 = lane * 8 + 4\n")
    rc, out, err = gcnemu(capsys, "run", "--format", "json", path)
    import json
    [d] = [d for d in json.loads(out)["diagnostics"] if d.get("rule") == "misaligned-access"]
    assert d["severity"] == "warning" and f"{path}:{d['line']}:{d['column']}" == where(path, "ds_read_b64")


# ---------------------------------------------------------------- C. header bounds, wave options, kernarg layout

def header_file(tmp_path, statement: str, body: str = "s_endpgm") -> tuple[str, str]:
    """A snippet whose header holds `statement` on line 3; (path, that line)."""
    line = f";   {statement}"
    return write(tmp_path, f"; gcnemu:\n;   arch: gfx90a\n{line}\n{body}\n"), line


@pytest.mark.parametrize("statement, piece, message", [
    ("grid: 2**40", "2**40", "grid: 1099511627776 workgroups; gcnemu runs at most 1048576 in one grid"),
    ("grid: 1024, 1024, 2", "1024, 1024, 2", "grid: 2097152 workgroups; gcnemu runs at most 1048576 in one grid"),
    ("latency: vmem=2**70", "2**70", "latency vmem must be at most 1048576 (0x100000)"),
    ("latency: lds=1048577", "1048577", "latency lds must be at most 1048576 (0x100000)"),
    ("scratch: 2**70", "2**70", "scratch bytes per lane must be at most 1048576 (0x100000)"),
])
def test_a_header_size_beyond_its_bound_is_an_error_on_its_line(tmp_path, capsys, statement, piece, message):
    # grid: 2**40 used to build a list of 2**40 workgroups until the process was killed; a latency
    # of 2**70 cycles gave absurd stall totals; a huge scratch size gave an error naming no line
    path, line = header_file(tmp_path, statement)
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 1
    assert err.startswith(f"{path}:3:{line.index(piece) + 1}: error: {message}\n")


def test_the_latency_option_has_the_same_bound(tmp_path, capsys):
    path, _ = header_file(tmp_path, "workgroup: 64")
    rc, out, err = gcnemu(capsys, "run", "--latency", "vmem=99999999", path)
    assert rc == 1 and "error: latency vmem must be at most 1048576" in err


def test_the_python_api_refuses_an_absurd_latency():
    from gcnemu.isa.targets import MAX_LATENCY, Latencies
    assert Latencies().override(vmem=MAX_LATENCY).vmem == MAX_LATENCY
    with pytest.raises(ValueError, match="from 0 to 1048576 cycles"):
        Latencies().override(vmem=MAX_LATENCY + 1)


def test_grid_and_header_share_one_workgroup_limit():
    from gcnemu import grid, setup
    assert grid.MAX_WORKGROUPS is setup.MAX_WORKGROUPS


@pytest.mark.parametrize("statement, word, what", [
    ("buffer A: u32[64] = 1 -> s[4:5]\n;   expect A = 1 : u32 wave 3", "wave 3", "a buffer"),
    ("buffer A: u32[64] = 1 -> s[4:5]\n;   expect A[0:4] = 1 : lanes 0..3", "lanes 0..3", "a buffer"),
    ("expect lds[0]: u32[4] = 0 : wave 1", "wave 1", "LDS"),
])
def test_a_wave_or_lane_option_on_a_memory_expectation_is_an_error_naming_it(tmp_path, capsys, statement, word, what):
    # memory is one for the whole workgroup: 'wave 3' selected nothing and was silently ignored
    path, _ = header_file(tmp_path, statement)
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 1
    assert err.startswith(f"{where(path, word)}: error: '{word.split()[0]}' selects "
                          f"registers; {what} is shared by every wave and lane")


def test_a_64_bit_kernel_argument_is_8_byte_aligned_in_the_kernarg_segment(tmp_path, capsys):
    # HSA lays kernel arguments out at their natural alignment: a u32 at 0, then a u64 at 8 (not 4)
    path = write(tmp_path, """
        ; gcnemu:
        ;   arch: gfx90a
        ;   args: n=7, big=2**40 + 5, m=9
        ;   expect s4 = 7
        ;   expect s[6:7] = 2**40 + 5 : u64
        ;   expect s8 = 9
        s_load_dword s4, s[0:1], 0x0
        s_load_dwordx2 s[6:7], s[0:1], 0x8
        s_load_dword s8, s[0:1], 0x10
        s_waitcnt lgkmcnt(0)
        s_endpgm
        """)
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 0, err
    assert "check: passed (3 expectations)" in out


@pytest.mark.parametrize("command", ["run", "step"])
def test_a_rate_or_interval_of_zero_is_an_error_on_the_option(tmp_path, capsys, command):
    # mfma_pass=0 or issue_interval=0 escaped as a ValueError traceback (found by tests/test_fuzz.py)
    path, _ = header_file(tmp_path, "workgroup: 64")
    batch = tmp_path / "c.txt"
    batch.write_text("continue\n")
    extra = ["--batch", str(batch)] if command == "step" else []
    rc, out, err = gcnemu(capsys, command, path, "--latency", "mfma_pass=0", *extra)
    assert rc == 1 and "<command line>:1:21: error: latency mfma_pass must be at least 1" in err
