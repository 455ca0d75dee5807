"""`gcnemu check` as a user meets it: llvm-mc style diagnostics, JSON, exit codes, hostile input.

The diagnostics of `MULTI` are llvm-mc 22's own (`llvm-mc -arch=amdgcn -mcpu=gfx90a
-filetype=null`): same line, column and wording, one per bad line, the file continuing past
each error. `test_llvm_mc_reports_the_same_errors` re-checks that against a live llvm-mc.

Hostile inputs (empty, binary junk, a 1 MB line, CRLF, tabs, non-UTF-8, NUL, unterminated
comments and strings, very deep brackets) go through the Python API one by one and through
the CLI in a subprocess: never a traceback, exit code 0 or 1, every diagnostic inside the
input. Where llvm-mc's verdict on such an input is known, it is asserted too.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from gcnemu.cli import main
from gcnemu.asm.parse import parse
from gcnemu.asm.validate import validate

LLVM_MC = os.environ.get("GCNEMU_LLVM_MC", "/usr/lib/llvm-22/bin/llvm-mc")
HAS_LLVM_MC = os.path.exists(LLVM_MC)

MULTI = ("s_mov_b32 s0, 1\n"
         "  v_bogus_op v1, v2\n"
         "s_waitcnt vmcnt(64)\n"
         "\tglobal_load_dword v1, v2, s[4:5] offset:4096\n"
         "s_load_dwordx4 s[5:8], s[0:1], 0x0 // x\n"
         "v_movv_b32 v0, v1\n"
         "s_endpgm\n")
# what llvm-mc 22 prints for MULTI on gfx90a (file name left out)
MULTI_ERRORS = [
    (2, 3, "invalid instruction"),
    (3, 17, "too large value for vmcnt"),
    (4, 35, "expected a 13-bit signed offset"),
    (5, 16, "invalid register alignment"),
    (6, 1, "invalid instruction, did you mean: v_mov_b32?"),
]


def run_cli(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *args], input=stdin, capture_output=True,
                          timeout=timeout)


def check_in_process(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(["check", *args])
    out, err = capsys.readouterr()
    return rc, out, err


HEADER = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): (?P<msg>.*?)"
                    r"(?: \[(?P<rule>[a-z-]+)\])?$")


def headers(stderr: str) -> list[tuple[int, int, str, str]]:
    out = []
    for ln in stderr.splitlines():
        m = HEADER.match(ln)
        if m:
            out.append((int(m["line"]), int(m["col"]), m["sev"], m["msg"]))
    return out


# ------------------------------------------------------------------ the text format


def test_every_error_of_a_file_is_reported_in_llvm_mc_s_format(tmp_path, capsys):
    f = tmp_path / "multi.s"
    f.write_text(MULTI)
    rc, out, err = check_in_process(capsys, str(f))
    assert rc == 1
    assert out == ""
    assert [(ln, c, msg) for ln, c, sev, msg in headers(err) if sev == "error"] == MULTI_ERRORS
    for ln, c, msg in MULTI_ERRORS:
        assert f"{f}:{ln}:{c}: error: {msg}" in err


def test_each_error_shows_its_source_line_and_a_caret_under_the_token(tmp_path, capsys):
    f = tmp_path / "multi.s"
    f.write_text(MULTI)
    _, _, err = check_in_process(capsys, str(f))
    lines = err.splitlines()
    source = MULTI.split("\n")
    for ln, c, _ in MULTI_ERRORS:
        i = next(k for k, t in enumerate(lines) if t.startswith(f"{f}:{ln}:{c}: "))
        assert lines[i + 1] == source[ln - 1]
        caret = lines[i + 2]
        assert caret.index("^") == c - 1, caret
        assert caret[:c - 1].strip(" \t") == ""
        # a tab in the source stays a tab under it, so the caret lines up in any terminal
        assert [ch for ch in caret[:c - 1] if ch == "\t"] == [ch for ch in source[ln - 1][:c - 1] if ch == "\t"]
    # the caret spans the offending token: the mnemonic, the counter value, the register tuple
    assert "  ^~~~~~~~~~\n" in err  # v_bogus_op
    assert "\n                ^~\n" in err  # 64 of vmcnt(64)
    assert "\n               ^~~~~~\n" in err  # s[5:8]


@pytest.mark.skipif(not HAS_LLVM_MC, reason=f"llvm-mc not found at {LLVM_MC}")
def test_llvm_mc_reports_the_same_errors(tmp_path):
    f = tmp_path / "multi.s"
    f.write_text(MULTI)
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=gfx90a", "-filetype=null", str(f)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert [(ln, c, msg) for ln, c, sev, msg in headers(r.stderr) if sev == "error"] == MULTI_ERRORS


def test_a_file_that_only_has_notes_or_warnings_exits_0(tmp_path, capsys):
    f = tmp_path / "notes.s"
    f.write_text("image_load v[0:3], v[4:7], s[8:15] dmask:0xf\nv_mov_b32 v0, EXTERNAL_SYM\ns_endpgm\n")
    rc, _, err = check_in_process(capsys, str(f))
    assert rc == 0
    sevs = [(ln, sev) for ln, _, sev, _ in headers(err)]
    assert sevs == [(1, "note"), (2, "warning")]
    assert "[not-modelled]" in err and "[undefined-symbol]" in err


def test_a_clean_file_prints_nothing_and_exits_0(tmp_path, capsys):
    f = tmp_path / "ok.s"
    f.write_text("s_load_dwordx4 s[4:7], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm\n")
    assert check_in_process(capsys, str(f)) == (0, "", "")


def test_several_files_are_checked_together_and_one_bad_file_fails_the_run(tmp_path, capsys):
    good, bad = tmp_path / "good.s", tmp_path / "bad.s"
    good.write_text("s_endpgm\n")
    bad.write_text("s_nop 0\ns_movk_i32 s0, 0x10000\n")
    rc, _, err = check_in_process(capsys, str(good), str(bad))
    assert rc == 1
    assert f"{bad}:2:16: error:" in err and str(good) not in err


# ------------------------------------------------------------------ JSON


def test_json_has_one_object_per_diagnostic_with_the_same_facts_as_the_text(tmp_path):
    f = tmp_path / "multi.s"
    f.write_text(MULTI)
    r = run_cli("check", "--format", "json", str(f))
    assert r.returncode == 1
    assert b"Traceback" not in r.stderr
    data = json.loads(r.stdout)
    assert list(data) == ["diagnostics"]
    errs = [d for d in data["diagnostics"] if d["severity"] == "error"]
    assert [(d["line"], d["column"], d["message"]) for d in errs] == MULTI_ERRORS
    for d in data["diagnostics"]:
        assert set(d) >= {"file", "line", "column", "severity", "message", "rule"}
        assert d["file"] == str(f)
        assert isinstance(d["line"], int) and isinstance(d["column"], int) and isinstance(d["rule"], str)


def test_json_of_a_clean_file_is_an_empty_list_and_exit_0(tmp_path, capsys):
    f = tmp_path / "ok.s"
    f.write_text("s_endpgm\n")
    rc, out, err = check_in_process(capsys, "--format", "json", str(f))
    assert (rc, json.loads(out), err) == (0, {"diagnostics": []}, "")


def test_json_notes_carry_their_rule(tmp_path, capsys):
    f = tmp_path / "n.s"
    f.write_text("image_load v[0:3], v[4:7], s[8:15] dmask:0xf\n")
    rc, out, _ = check_in_process(capsys, "--format", "json", str(f))
    (d,) = json.loads(out)["diagnostics"]
    assert rc == 0
    assert (d["line"], d["column"], d["severity"], d["rule"]) == (1, 1, "note", "not-modelled")


# ------------------------------------------------------------------ line endings, tabs, encodings


def test_crlf_line_endings_keep_columns_and_never_show_the_cr(tmp_path):
    f = tmp_path / "crlf.s"
    f.write_bytes(b"s_mov_b32 s0, 1\r\n  v_bogus v1\r\ns_waitcnt vmcnt(64)\r\ns_endpgm\r\n")
    r = run_cli("check", str(f))
    err = r.stderr.decode()
    assert r.returncode == 1
    # llvm-mc 22 on the same bytes: 2:3 invalid instruction, 3:17 too large value for vmcnt
    assert [(ln, c) for ln, c, sev, _ in headers(err) if sev == "error"] == [(2, 3), (3, 17)]
    assert "\r" not in err
    assert "  v_bogus v1\n  ^~~~~~~\n" in err


def test_a_crlf_file_without_errors_is_clean():
    prog = parse(b"kernel:\r\n  s_load_dword s1, s[0:1], 0x10 ; args\r\n  s_endpgm\r\n")
    assert not validate(prog, "gfx90a")
    ins = prog.instructions[0]
    assert ins.operands[2].span.end_column == len("  s_load_dword s1, s[0:1], 0x10") + 1


def test_tabs_count_as_one_column_like_llvm_mc(capsys, tmp_path):
    f = tmp_path / "tabs.s"
    f.write_bytes(b"\tv_bogus\tv1, v2\n\t\ts_movk_i32\ts0, 0x10000\n")
    rc, _, err = check_in_process(capsys, str(f))
    assert rc == 1
    # llvm-mc 22: 1:2 invalid instruction; 2:18 invalid operand for instruction
    assert [(ln, c) for ln, c, sev, _ in headers(err) if sev == "error"] == [(1, 2), (2, 18)]
    assert "\tv_bogus\tv1, v2\n\t^~~~~~~\n" in err


def test_non_utf8_bytes_in_code_are_an_error_at_their_column_but_fine_in_comments(tmp_path, capsys):
    f = tmp_path / "latin1.s"
    f.write_bytes(b"s_nop 0 ; caf\xe9\n\xff\xfe s_nop 1\ns_nop 2 // \x80\x81\n")
    rc, _, err = check_in_process(capsys, str(f))
    assert rc == 1
    # llvm-mc 22: 2:1: error: invalid character in input (and nothing on lines 1 and 3)
    errs = [(ln, c) for ln, c, sev, _ in headers(err) if sev == "error"]
    assert errs == [(2, 1)]
    assert "invalid character in input" in err


# ------------------------------------------------------------------ hostile input

MB = 1 << 20

HOSTILE: dict[str, tuple[bytes, bool | None]] = {
    # name: (bytes, llvm-mc 22 accepts it?) -- None where the verdict is not asserted
    "empty": (b"", True),
    "only_newlines": (b"\n\n\n", True),
    "binary_junk": (bytes(range(256)) * 8, False),
    "random_bytes": (bytes((i * 7919 + 13) % 256 for i in range(20000)), False),
    "1mb_line_of_junk": (b"s_nop " + b"x" * MB + b"\n", False),
    "1mb_comment_then_error": (b"; " + b"c" * MB + b"\ns_movk_i32 s0, 0x10000\n", False),
    "long_line_of_statements": (b"v_add_f32 v0, v1, v2 " * 5000 + b"\n", False),
    "crlf": (b"s_nop 0\r\ns_endpgm\r\n", True),
    "tabs_everywhere": (b"\t\ts_mov_b32\ts0,\t1\t\t;\tc\n", True),
    "no_final_newline": (b"s_nop 0\ns_endpgm", True),
    "nul_byte": (b"s_nop 0\x00\ns_endpgm\n", None),  # llvm-mc: NUL is blank; see test_a_nul_byte_is_blank
    "nul_only": (b"\x00" * 64, None),
    "unterminated_block_comment": (b"s_nop 0\n/* never closed\ns_nop 1\n", False),
    "unterminated_string_operand": (b'ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM, "01pip\n', False),
    "unterminated_string_directive": (b'.ascii "abc\ns_nop 0\n', None),  # llvm-mc: expected string
    "deep_parens": (b"s_mov_b32 s0, " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n", True),
    "deep_unbalanced_parens": (b"s_mov_b32 s0, " + b"(" * 5000 + b"\n", False),
    "deep_brackets": (b"s_mov_b32 s0, " + b"[" * 5000 + b"\n", False),
    "deep_abs_bars": (b"v_add_f32_e64 v0, " + b"|" * 5000 + b"v1\n", False),
    "deep_calls": (b"s_waitcnt " + b"vmcnt(" * 3000 + b"\n", False),
    "deep_tilde": (b"s_mov_b32 s0, " + b"~" * 5000 + b"1\n", True),
    "deep_minus": (b"s_mov_b32 s0, " + b"-" * 5000 + b"1\n", True),
    "huge_integer": (b"s_nop " + b"1" * 5000 + b"\n", False),
    "lone_cr": (b"s_nop 0\rs_nop 1\r", True),
    "utf8_bom": (b"\xef\xbb\xbfs_nop 0\n", None),  # llvm-mc rejects the BOM; gcnemu skips it (friendlier)
    "unicode_identifier": ("v_mov_b32 v0, \u00e9t\u00e9\n".encode(), False),
    "metadata_block_never_closed": (b".amdgpu_metadata\n---\namdhsa.version: [1, 2]\n", None),
}

# inputs where gcnemu's verdict still differs from llvm-mc's (bugs in files this suite does not own)
KNOWN_VERDICT_BUGS: dict[str, str] = {}
CRASHES: set[str] = set()  # the API raises instead of returning diagnostics


def _assert_spans_inside(prog, diags) -> None:
    n = len(prog.lines)
    for d in diags:
        for x in [d] + list(d.notes):
            if x.span is None:
                continue
            assert 1 <= x.span.line <= max(n, 1), (x.message, x.span)
            width = len(prog.lines[x.span.line - 1]) if n else 0
            assert 1 <= x.span.column <= width + 1, (x.message, x.span, width)


def _api_params():
    for name, (data, _) in HOSTILE.items():
        marks = [pytest.mark.xfail(strict=True, raises=(RecursionError, ValueError),
                                   reason=KNOWN_VERDICT_BUGS[name])] if name in CRASHES else []
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_api_params()))
def test_hostile_input_through_the_api_gives_diagnostics_inside_the_input(name):
    data, _ = HOSTILE[name]
    prog = parse(data, "hostile.s")
    diags = validate(prog, "gfx90a")
    _assert_spans_inside(prog, diags)
    assert not any(d.rule == "internal" for d in diags), [d.message for d in diags]


def _verdict_params():
    for name, (data, accepted) in HOSTILE.items():
        if accepted is None:
            continue
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_VERDICT_BUGS[name])] if name in KNOWN_VERDICT_BUGS else []
        yield pytest.param(name, accepted, marks=marks, id=name)


@pytest.mark.parametrize("name, accepted", list(_verdict_params()))
def test_hostile_input_verdict_matches_llvm_mc(name, accepted, tmp_path, capsys):
    f = tmp_path / "hostile.s"
    f.write_bytes(HOSTILE[name][0])
    rc, out, err = check_in_process(capsys, str(f))
    assert "Traceback" not in err and "[internal]" not in err, err[:2000]  # a crash is not a verdict
    assert rc == (0 if accepted else 1), err[:2000]
    assert max(map(len, err.splitlines()), default=0) < 1000  # a 1 MB line is shown as a window, not in full


@pytest.mark.skipif(not HAS_LLVM_MC, reason=f"llvm-mc not found at {LLVM_MC}")
def test_llvm_mc_verdicts_on_the_hostile_inputs_are_the_ones_asserted(tmp_path):
    wrong = []
    for name, (data, accepted) in HOSTILE.items():
        if accepted is None:
            continue
        f = tmp_path / f"{name}.s"
        f.write_bytes(data)
        r = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=gfx90a", "-filetype=null", str(f)],
                           capture_output=True, timeout=120)
        if (r.returncode == 0) != accepted:
            wrong.append(f"{name}: llvm-mc exit {r.returncode}")
    assert not wrong, wrong


def test_hostile_inputs_through_the_cli_never_show_a_traceback(tmp_path):
    """All inputs in one `gcnemu check --format json` process (one process start), then the text format."""
    paths = []
    for name, (data, _) in HOSTILE.items():
        p = tmp_path / f"{name}.s"
        p.write_bytes(data)
        paths.append(str(p))
    r = run_cli("check", "--format", "json", *paths)
    assert r.returncode == 1
    assert b"Traceback" not in r.stderr, r.stderr[-3000:]
    diags = json.loads(r.stdout)["diagnostics"]
    by_file: dict[str, list] = {}
    for d in diags:
        by_file.setdefault(os.path.basename(d["file"]), []).append(d)
    for name, (data, accepted) in HOSTILE.items():
        mine = [d for d in by_file.get(f"{name}.s", []) if d["severity"] == "error"]
        if accepted is True and name not in KNOWN_VERDICT_BUGS:
            assert not mine, (name, mine)
        elif accepted is False:
            assert mine, name
        for d in mine:
            assert d["line"] >= 1 and d["column"] >= 1
    t = run_cli("check", *paths)
    assert t.returncode == 1 and b"Traceback" not in t.stderr
    assert len(t.stderr) < 200_000  # the 1 MB lines are never printed in full


def test_binary_junk_on_standard_input(tmp_path):
    r = run_cli("check", "-", stdin=bytes(range(256)) * 4)
    assert r.returncode == 1
    err = r.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err
    assert err.startswith("<stdin>:1:")


def test_a_1mb_line_is_shown_as_a_window_with_the_caret_in_it(tmp_path, capsys):
    f = tmp_path / "wide.s"
    f.write_bytes(b"s_movk_i32 s0, 0x10000" + b" " * MB + b"; comment\n" + b"s_nop " + b"x" * MB + b"\n")
    rc, _, err = check_in_process(capsys, str(f))
    assert rc == 1
    lines = err.splitlines()
    # llvm-mc 22: 1:16 and 2:7 invalid operand for instruction
    assert [(ln, c) for ln, c, sev, _ in headers(err) if sev == "error"] == [(1, 16), (2, 7)]
    i = lines.index(f"{f}:2:7: error: invalid operand for instruction")
    assert lines[i + 1].startswith("s_nop xxxx") and len(lines[i + 1]) <= 400
    assert lines[i + 2].startswith("      ^")


def test_a_nul_byte_is_blank_as_in_llvm_mc():
    assert not validate(parse(b"s_nop 0\x00\ns_endpgm\n"), "gfx90a")


def test_the_cli_turns_a_crash_into_an_internal_error_diagnostic(tmp_path):
    """Until the parser stops crashing on them, such inputs still give exit 1 and a located message."""
    f = tmp_path / "deep.s"
    f.write_bytes(HOSTILE["huge_integer"][0])
    r = run_cli("check", "--format", "json", str(f))
    assert b"Traceback" not in r.stderr
    (d,) = json.loads(r.stdout)["diagnostics"]
    assert d["severity"] == "error" and d["file"] == str(f) and d["line"] >= 1
