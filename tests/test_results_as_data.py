"""A run's output memory as data (issue 26, item 2): `--print BUF`, `--print BUF:TYPE[SELECTION]`,
`--dump BUF=FILE.npy` and the buffers of `--format json`. The kernel writes C = 2 * A into an
8x8 buffer, so every value checked here is one the kernel computed, not one the header set."""
from __future__ import annotations

import hashlib
import json
import os
import re
import textwrap

import numpy as np
import pytest

from gcnemu.cli import main

KERNEL = """
; gcnemu:
;   arch: gfx90a
;   workgroup: 64
;   buffer A: f32[64] = arange(64) -> s[4:5]
;   buffer C: f32[8,8] = zeros(64) -> s[6:7]
  v_lshlrev_b32 v1, 2, v0
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_f32 v2, v2, v2
  global_store_dword v1, v2, s[6:7]
  s_waitcnt vmcnt(0)
  s_endpgm
"""

C = (2 * np.arange(64, dtype=np.float32)).reshape(8, 8)  # what the kernel leaves in C


@pytest.fixture
def kernel(tmp_path):
    path = tmp_path / "double.s"
    path.write_text(textwrap.dedent(KERNEL).lstrip("\n"))
    return str(path)


def gcnemu(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def row(out: str, label: str) -> list[float]:
    """The values of the printed line labelled `label` (e.g. "[1, 2..5]")."""
    m = re.search(r"^\s*" + re.escape(label) + r":(.*)$", out, re.M)
    assert m, f"no line {label} in:\n{out}"
    return [float(x) for x in m.group(1).split()]


# ---------------------------------------------------------------- --print


def test_print_a_selection_of_a_buffer_after_the_run(kernel, capsys):
    rc, out, err = gcnemu(capsys, "run", kernel, "--print", "C[1:3, 2:6]")
    assert rc == 0, err
    assert "C[1:3, 2:6] (f32[8, 8]):" in out
    assert row(out, "[1, 2..5]") == C[1, 2:6].tolist()
    assert row(out, "[2, 2..5]") == C[2, 2:6].tolist()
    assert "[0, " not in out and "[3, " not in out  # only the rows asked for


def test_print_a_whole_buffer_beside_registers(kernel, capsys):
    rc, out, err = gcnemu(capsys, "run", kernel, "--print", "C", "v2:f32")
    assert rc == 0, err
    for i in range(8):
        assert row(out, f"[{i}, 0..7]") == C[i].tolist()
    assert "v2 (f32):" in out  # today's register --print is unchanged
    assert row(out, " 0.. 7") == C.reshape(-1)[:8].tolist()


def test_print_reads_the_bytes_as_another_type(kernel, capsys):
    rc, out, err = gcnemu(capsys, "run", kernel, "--print", "C:u32[3]")
    assert rc == 0, err
    assert "C[3] (u32[8, 8]):" in out
    assert row(out, "[3, 0..7]") == C[3].view(np.uint32).tolist()


# ---------------------------------------------------------------- --dump


def test_dump_writes_the_buffer_for_numpy(kernel, capsys, tmp_path):
    target = tmp_path / "c.npy"
    rc, out, err = gcnemu(capsys, "run", kernel, "--dump", f"C={target}")
    assert rc == 0, err
    got = np.load(target)
    assert got.dtype == np.float32 and got.shape == (8, 8)
    assert np.array_equal(got, C)


def test_dump_a_typed_selection(kernel, capsys, tmp_path):
    target = tmp_path / "c16.npy"
    rc, out, err = gcnemu(capsys, "run", kernel, "--dump", f"C:f16[0:8,0:8]={target}")
    assert rc == 0, err
    got = np.load(target)
    assert got.dtype == np.float16
    assert np.array_equal(got.view(np.uint16), C.view(np.float16)[0:8, 0:8].view(np.uint16))


def test_a_dump_that_cannot_be_written_leaves_nothing_behind(kernel, capsys, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "c.npy").mkdir()  # the target is a folder: the final rename fails
    rc, out, err = gcnemu(capsys, "run", kernel, "--dump", f"C={folder / 'c.npy'}")
    assert rc == 1
    assert f"cannot write {folder / 'c.npy'}" in err and "Traceback" not in err
    assert os.listdir(folder) == ["c.npy"]  # no temporary file left over
    rc, out, err = gcnemu(capsys, "run", kernel, "--dump", f"C={tmp_path / 'missing' / 'c.npy'}")
    assert rc == 1 and "no such file or directory" in err


# ---------------------------------------------------------------- --format json


def test_json_has_every_buffer_digest_and_the_requested_selections(kernel, capsys):
    rc, out, err = gcnemu(capsys, "run", kernel, "--format", "json", "--print", "C[7]", "--print", "C:f16[0:2,0:4]")
    assert rc == 0, err
    bufs = json.loads(out)["buffers"]
    assert set(bufs) == {"A", "C"}
    assert bufs["C"]["type"] == "f32" and bufs["C"]["shape"] == [8, 8] and bufs["C"]["bytes"] == 256
    assert bufs["C"]["sha256"] == hashlib.sha256(C.tobytes()).hexdigest()
    assert bufs["A"]["sha256"] == hashlib.sha256(np.arange(64, dtype=np.float32).tobytes()).hexdigest()
    whole_row, halves = bufs["C"]["prints"]
    assert whole_row["values"] == C[7].tolist() and whole_row["shape"] == [8]
    assert halves["type"] == "f16" and halves["shape"] == [2, 4]
    assert halves["values"] == C.view(np.float16)[0:2, 0:4].astype(float).tolist()
    assert "prints" not in bufs["A"]


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("request_", ["Y", "Y[0:4]", "C[0:9]", "C[8]", "C[0, 0, 0]"])
def test_an_unknown_buffer_or_a_selection_out_of_range_names_the_buffers(kernel, capsys, request_):
    rc, out, err = gcnemu(capsys, "run", kernel, "--print", request_)
    assert rc == 1
    assert "A, C" in err and "error:" in err and "Traceback" not in err
    assert "wave 0" not in out  # refused before the run


@pytest.mark.parametrize("request_, says", [("C[2:2]", "selects nothing"), ("C[::0]", "step"),
                                            ("C:f99", "unknown type 'f99'"), ("C[x]", "expected an index")])
def test_a_malformed_selection_is_an_error_at_its_column(kernel, capsys, request_, says):
    rc, out, err = gcnemu(capsys, "run", kernel, "--print", request_)
    assert rc == 1
    assert says in err and f"--print {request_}" in err and "^" in err


def test_a_dump_without_a_file_names_the_form_and_the_buffers(kernel, capsys):
    rc, out, err = gcnemu(capsys, "run", kernel, "--dump", "C")
    assert rc == 1
    assert "expected BUFFER=FILE.npy" in err and "A, C" in err


GRID = """
; gcnemu:
;   arch: gfx90a
;   workgroup: 64
;   buffer C: u32[2,64] = zeros(128) -> s[6:7]
  s_lshl_b32 s9, s2, 6
  v_add_u32 v1, s9, v0
  v_lshlrev_b32 v2, 2, v1
  global_store_dword v2, v1, s[6:7]
  s_waitcnt vmcnt(0)
  s_endpgm
"""


@pytest.mark.parametrize("engine", [["--jobs", "1"], ["--functional"]])
def test_print_shows_the_memory_every_workgroup_of_a_grid_wrote(tmp_path, capsys, engine):
    path = tmp_path / "ids.s"
    path.write_text(textwrap.dedent(GRID).lstrip("\n"))
    target = tmp_path / "ids.npy"
    rc, out, err = gcnemu(capsys, "run", str(path), "--grid", "2", *engine, "--print", "C[1, 56:64]",
                          "--dump", f"C={target}")
    assert rc == 0, err
    assert row(out, "[1, 56..63]") == list(range(120, 128))  # workgroup 1 wrote its global ids
    assert np.array_equal(np.load(target), np.arange(128, dtype=np.uint32).reshape(2, 64))
