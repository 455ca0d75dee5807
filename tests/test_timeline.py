"""`gcnemu timeline`: the llvm-mca-style view, its options and its errors."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import gcnemu
from gcnemu.cli import main
from gcnemu.asm.resolve import resolve
from gcnemu.simulation import Simulation
from gcnemu.views.timeline import GAP, columns, render, rows_for

MFMA = """\
v_mov_b32 v1, 1.0
v_mov_b32 v2, 2.0
v_mfma_f32_32x32x2f32 a[0:15], v1, v2, 0
v_mfma_f32_32x32x2f32 a[16:31], v1, v2, 0
s_nop 3
v_add_u32 v3, v1, v2
s_endpgm
"""


@pytest.fixture
def mfma_file(tmp_path):
    p = tmp_path / "mfma.s"
    p.write_text(MFMA)
    return str(p)


def cli(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def row(out: str, line: int) -> str:
    return next(r for r in out.splitlines() if r.startswith(f"[{line}]"))


def test_rows_show_dispatch_execution_end_and_waiting(capsys, mfma_file):
    rc, out, err = cli(capsys, "timeline", mfma_file, "--scale", "1")
    assert rc == 0, err
    assert "Timeline view: wave 0" in out
    first = row(out, 1)
    assert "DeeE" in first and first.rstrip().endswith("v_mov_b32 v1, 1.0")
    second_mfma = row(out, 4)
    cells = second_mfma.split("   v_mfma")[0]
    assert cells.index("=") < cells.index("D") < cells.index("E")  # waited for the matrix core
    assert "pipe busy" in out and "nop" in out  # reasons in the table
    assert "MFMA pipe utilisation" in out and "FLOP/cycle achieved" in out


def test_long_latencies_are_compressed(capsys, tmp_path):
    p = tmp_path / "slow.s"
    p.write_text("s_mov_b32 s4, 1\ns_sleep 20\ns_mov_b32 s5, 2\ns_endpgm\n")
    rc, out, _ = cli(capsys, "timeline", str(p), "--scale", "1")
    assert rc == 0
    header = [l for l in out.splitlines() if l.startswith("Line")][0]
    assert GAP in header
    assert len(header) < 120  # 1280 sleeping cycles do not become 1280 columns
    assert "=" in row(out, 3) and "sleep" in out


def test_range_selects_source_lines_and_wave_selects_a_wave(capsys, mfma_file):
    rc, out, _ = cli(capsys, "timeline", mfma_file, "--range", "3:4", "--waves", "2", "--wave", "1")
    assert rc == 0
    assert "wave 1 of 2" in out
    rows = [l for l in out.splitlines() if l.startswith("[")]
    assert [r.split("]")[0] for r in rows] == ["[3", "[4"]


def test_an_empty_range_names_the_lines_where_the_wave_has_instructions(capsys, mfma_file):
    rc, out, _ = cli(capsys, "timeline", mfma_file, "--range", "40:50")
    n = len(MFMA.strip().splitlines())
    assert f"(no instructions of this wave in the selected range; its instructions are on lines 1-{n})" in out


def test_json_output_has_instructions_waves_and_kernel(capsys, mfma_file):
    rc, out, _ = cli(capsys, "timeline", mfma_file, "--format", "json")
    assert rc == 0
    data = json.loads(out)
    assert data["target"] == "gfx90a"
    ins = data["instructions"]
    assert [i["line"] for i in ins] == [1, 2, 3, 4, 5, 6, 7]
    assert ins[3]["issue"] - ins[2]["issue"] == 64
    assert ins[3]["stalls"] == {"pipe busy": ins[3]["stall_cycles"]}
    assert data["waves"][0]["instructions"] == 7
    assert data["kernel"]["mfma_utilisation"] > 0


def test_latency_option_changes_the_timeline(capsys, mfma_file):
    _, out, _ = cli(capsys, "timeline", mfma_file, "--format", "json", "--latency", "valu=9")
    assert json.loads(out)["instructions"][0]["complete"] == 9


@pytest.mark.parametrize("argv,needle", [
    (["--range", "5"], "--range expects L1:L2"),
    (["--range", "4:2"], "L1 must not exceed L2"),
    (["--wave", "3"], "--wave 3: the workgroup has 1 wave"),
    (["--waves", "17"], "--waves must be 1..16"),
    (["--latency", "vmem=soon"], "not an integer"),
    (["--latency-file", "/nonexistent.toml"], "no such latency file"),
])
def test_bad_options_give_one_line_errors_not_tracebacks(capsys, mfma_file, argv, needle):
    rc, out, err = cli(capsys, "timeline", mfma_file, *argv)
    assert rc == 1
    assert needle in err and "Traceback" not in err


def test_bad_assembly_gives_an_llvm_mc_style_diagnostic(capsys, tmp_path):
    p = tmp_path / "bad.s"
    p.write_text("v_mov_b32 v1\n")
    rc, out, err = cli(capsys, "timeline", str(p))
    assert rc == 1
    assert f"{p}:1:" in err and "error:" in err and "Traceback" not in err


def test_unmodelled_instructions_are_timed_with_a_warning(capsys, tmp_path):
    p = tmp_path / "u.s"
    p.write_text("v_mov_b32 v1, 0\nv_cubeid_f32 v2, v1, v1, v1\ns_endpgm\n")  # (graphics: not modelled)
    rc, out, err = cli(capsys, "timeline", str(p))
    assert "no semantics" in err
    assert rc == 0 and "[2]" in out


def test_stdin_works_from_a_real_process():
    r = subprocess.run([sys.executable, "-m", "gcnemu", "timeline", "-"], input=MFMA, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "v_mfma_f32_32x32x2f32" in r.stdout


def test_columns_keep_every_event_cycle_and_compress_idle_stretches():
    kernel = resolve(gcnemu.parse(MFMA), "gfx90a")
    sim = Simulation(kernel).run()
    rows = rows_for(sim.engine, 0)
    cols = columns(rows, keep=2)
    shown = {c for c in cols if c is not None}
    for r in rows:
        assert {r.ready, r.issue, max(r.issue, r.complete - 1)} <= shown
    assert None in cols
    text = render(sim.engine)
    assert text.count("\n[") == len(rows)


def test_text_output_lists_each_race_once_however_many_waves_repeat_it(tmp_path, capsys):
    """Four waves racing at the same ds_read give one hazard line that says so, as `run` does."""
    from pathlib import Path
    src = (Path(__file__).parents[1] / "programs" / "gemm_lds_dma_gfx942.s").read_text().split("\n")
    barrier = next(i for i, line in enumerate(src) if line.strip().startswith("s_barrier"))
    del src[max(i for i in range(barrier) if src[i].strip().startswith("s_waitcnt vmcnt("))]
    f = tmp_path / "nowait.s"
    f.write_text("\n".join(src))
    main(["timeline", str(f), "--wave", "0"])
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  hazard [")]
    keys = [(ln.split("]")[0], ln.split(" line ")[1].split()[0]) for ln in lines]
    assert lines and len(keys) == len(set(keys))
    assert any("(in waves 0-3, 4 times" in ln for ln in lines)


def test_a_drawn_row_is_its_cells_column_by_column():
    """The row drawn at once (the fast way) is the row of the per-cell definition: waiting,
    dispatch, execution and end letters, gaps carrying `=`/`e` through, dots every 5 cycles."""
    import random

    from gcnemu.views.timeline import Row, _background, _cell, _row_cells
    rnd = random.Random(7)
    for _ in range(300):
        rows = []
        for k in range(rnd.randint(1, 6)):
            ready = rnd.randint(0, 200)
            issue = ready + rnd.choice([0, 0, 1, 3, 40])
            complete = issue + rnd.choice([0, 1, 2, 4, 16, 300])
            rows.append(Row(k + 1, "s_nop 0", ready, issue, complete, {}))
        cols = columns(rows, keep=rnd.choice([1, 2, 6]))
        background = _background(cols)
        at = {c: k for k, c in enumerate(cols) if c is not None}
        for r in rows:
            slow, prev = [], None
            for c in cols:
                slow.append(_cell(r, c, prev))
                if c is not None:
                    prev = c
            assert _row_cells(r, background, at) == "".join(slow), (r, cols)


def test_max_rows_shows_the_first_rows_and_counts_the_rest(capsys, mfma_file):
    rc, out, _ = cli(capsys, "timeline", mfma_file, "--max-rows", "2")
    assert rc == 0
    assert [ln.split()[0] for ln in out.splitlines() if ln.startswith("[")] == ["[1]", "[2]"]
    assert "... 5 more rows (narrow with --range L1:L2" in out


def test_decoding_is_per_instruction_even_when_mnemonics_repeat():
    """The engine decodes a repeated mnemonic once and copies it: every copy must be what
    decoding that instruction alone gives (pipe, counters, flags, widths, semantics)."""
    from dataclasses import fields

    from gcnemu.sim.pipes import decode
    from gcnemu.sim.semantics import lookup
    text = """\
v_add_u32 v1, v2, v3
buffer_load_dword v4, v1, s[4:7], 0 offen
buffer_load_dword v1, s[4:7], 0 offen lds
v_add_u32 v5, v6, v7
buffer_load_dword v6, v1, s[4:7], 0 offen
s_nop 3
s_nop 0
ds_read_b64 v[8:9], v1
buffer_load_dword v1, s[4:7], 0 offen lds
s_waitcnt vmcnt(0)
s_waitcnt lgkmcnt(0)
v_mfma_f32_4x4x1f32 a[0:3], v1, v2, a[0:3]
v_mfma_f32_4x4x1f32 a[4:7], v1, v2, a[4:7]
s_endpgm
"""
    kernel = resolve(gcnemu.parse(text), "gfx90a")
    together = decode(kernel, lookup)
    for i, line in enumerate(text.splitlines()):
        (alone,) = decode(resolve(gcnemu.parse(line + "\n"), "gfx90a"), lookup)
        for f in fields(alone):
            if f.name != "index":
                assert getattr(together[i], f.name) == getattr(alone, f.name), (line, f.name)
        assert together[i].index == i


def test_by_default_one_column_is_one_issue_turn_and_the_header_says_so(capsys, mfma_file):
    rc, out, _ = cli(capsys, "timeline", mfma_file)
    assert rc == 0
    assert "one column per 4 cycles" in out.splitlines()[0]
    first = row(out, 1)  # a VALU op done within its own turn: a single D, no per-cycle letters
    assert first.split("   ")[0].strip() == "[1] D"
    _, per_cycle, _ = cli(capsys, "timeline", mfma_file, "--scale", "1")
    assert "one column per cycle" in per_cycle.splitlines()[0]
    width = lambda text: len([l for l in text.splitlines() if l.startswith("Line")][0])
    assert width(out) < width(per_cycle)


def test_the_flagship_gemm_fits_a_terminal_and_says_how_to_see_the_rest(capsys):
    from pathlib import Path
    flagship = Path(__file__).parents[1] / "programs" / "gemm_lds_dma_gfx942.s"
    rc, out, _ = cli(capsys, "timeline", str(flagship))
    assert rc == 0
    rows = [l for l in out.splitlines() if l.startswith("[")]
    assert rows and max(len(l.split("   ")[0]) for l in rows) <= 100  # the drawn cells of every row
    more = next(l for l in out.splitlines() if "more rows after cycle" in l)
    start = int(more.split("--cycles ")[1].split(":")[0])
    _, later, _ = cli(capsys, "timeline", str(flagship), "--cycles", f"{start}:{start + 200}")
    rows = [(int(l.split()[1]), int(l.split()[2])) for l in later.splitlines() if l[:6].strip().isdigit()
            and len(l.split()) > 4]
    # every row is alive in the window: ready (waiting to issue) or issued by its end
    assert rows and all(min(ready, issue) <= start + 200 for ready, issue in rows)
    assert any(start <= issue for _, issue in rows)


def test_a_cycle_window_shows_only_the_rows_alive_in_it(capsys, mfma_file):
    _, out, _ = cli(capsys, "timeline", mfma_file, "--format", "json")
    ins = json.loads(out)["instructions"]
    a = ins[3]["issue"] - 8  # the first MFMA executes, the v_movs are long done, the second waits
    rc, out, _ = cli(capsys, "timeline", mfma_file, "--cycles", f"{a}:{a + 8}", "--scale", "1")
    assert rc == 0
    shown = [int(l.split("]")[0][1:]) for l in out.splitlines() if l.startswith("[")]
    assert 3 in shown and 4 in shown and 1 not in shown and 2 not in shown
    assert 6 not in shown  # it waits for the second MFMA's issue, after the window
    _, js, _ = cli(capsys, "timeline", mfma_file, "--cycles", f"{a}:{a + 8}", "--format", "json")
    assert [i["line"] for i in json.loads(js)["instructions"]] == [3, 4]


@pytest.mark.parametrize("argv,needle", [
    (["--cycles", "5"], "--cycles expects A:B"),
    (["--cycles", "9:3"], "A must not exceed B"),
    (["--cycles", "a:b"], "integer cycles"),
    (["--scale", "0"], "--scale must be 1..1024"),
])
def test_bad_window_or_scale_is_a_one_line_error(capsys, mfma_file, argv, needle):
    rc, out, err = cli(capsys, "timeline", mfma_file, *argv)
    assert rc == 1 and needle in err and "Traceback" not in err


def test_hazards_and_races_are_marked_at_the_end_of_their_rows(tmp_path, capsys):
    """The README tutorial's deleted wait: the rows that read LDS too early carry the rule."""
    from pathlib import Path
    src = (Path(__file__).parents[1] / "programs" / "gemm_lds_dma_gfx942.s").read_text().split("\n")
    barrier = next(i for i, line in enumerate(src) if line.strip().startswith("s_barrier"))
    del src[max(i for i in range(barrier) if src[i].strip().startswith("s_waitcnt vmcnt("))]
    f = tmp_path / "nowait.s"
    f.write_text("\n".join(src))
    _, out, _ = cli(capsys, "timeline", str(f), "--format", "json", "--wave", "1")
    data = json.loads(out)
    raced = {h["line"] for h in data["hazards"] if h["rule"] == "lds-race" and h["wave"] == 1}
    cyc = min(h["cycle"] for h in data["hazards"] if h["rule"] == "lds-race" and h["wave"] == 1)
    _, out, _ = cli(capsys, "timeline", str(f), "--wave", "1", "--cycles", f"{cyc - 100}:{cyc + 100}")
    marked = {int(l.split("]")[0][1:]): l.rsplit("! ", 1)[1] for l in out.splitlines()
              if l.startswith("[") and "   ! " in l}
    assert any(line in marked and "lds-race" in marked[line] for line in raced)
    clean = [l for l in out.splitlines() if l.startswith("[") and "s_waitcnt" in l]
    assert all("! " not in l for l in clean)


def test_summary_gives_ipc_pipe_busy_and_stalls_by_cause(capsys, mfma_file):
    rc, out, _ = cli(capsys, "timeline", mfma_file)
    ipc = next(l for l in out.splitlines() if l.strip().startswith("IPC:"))
    _, js, _ = cli(capsys, "timeline", mfma_file, "--format", "json")
    data = json.loads(js)
    assert f"{data['kernel']['instructions'] / data['cycles']:.2f}" in ipc
    busy = next(l for l in out.splitlines() if l.strip().startswith("Pipe busy:"))
    assert "mfma" in busy and "%" in busy
    stalls = next(l for l in out.splitlines() if l.strip().startswith("Stall cycles:"))
    assert f"pipe busy {data['summary']['stall_cycles']['pipe busy']}" in stalls
    assert 0 < data["summary"]["pipe_busy"]["mfma SIMD 0"] <= 1
