"""What `gcnemu run` reports about a run: hazards once each, where lint points, with the lanes
and the stale value; JSON even when nothing ran; runtime notes at their instruction; and the
machine facts the reports rest on (s_nop's 4-bit count, the target id's sramecc feature)."""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from gcnemu.cli import main

ROOT = Path(__file__).resolve().parent.parent
GEMM = ROOT / "programs" / "gemm_lds_dma_gfx942.s"


def gcnemu(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def warnings(text: str) -> list[str]:
    return [line for line in text.splitlines() if ": warning: " in line]


def summary_hazards(out: str) -> int:
    m = re.search(r"(\d+) hazards?, ", out)
    assert m, out
    return int(m.group(1))


# ---------------------------------------------------------------- one report per race


@pytest.fixture(scope="module")
def gemm_nowait(tmp_path_factory) -> Path:
    """The flagship GEMM with the stage loop's `s_waitcnt vmcnt(0)` before `s_barrier` deleted
    (the README's tutorial): the ds_reads race with the LDS DMA."""
    lines = GEMM.read_text().split("\n")
    barrier = next(i for i, line in enumerate(lines) if line.strip().startswith("s_barrier"))
    wait = max(i for i in range(barrier) if lines[i].strip().startswith("s_waitcnt vmcnt("))
    del lines[wait]
    path = tmp_path_factory.mktemp("gemm") / "gemm_nowait.s"
    path.write_text("\n".join(lines))
    return path


def test_the_summary_counts_the_hazard_warnings_it_printed(gemm_nowait, capsys):
    rc, out, err = gcnemu(capsys, "run", gemm_nowait)
    assert rc == 1  # the expectations fail: the kernel reads stale LDS
    shown = warnings(err)
    assert shown and summary_hazards(out) == len(shown)


def test_a_race_is_reported_once_however_many_waves_and_iterations_repeat_it(gemm_nowait, capsys):
    rc, out, err = gcnemu(capsys, "run", gemm_nowait, "--format", "json")
    hz = [d for d in json.loads(out)["diagnostics"] if d["severity"] == "warning"]
    keys = [(d["line"], d["producer"]["line"], d["rule"]) for d in hz]
    assert len(keys) == len(set(keys)), "one diagnostic per (consumer, producer, rule)"
    first_read = next(d for d in hz if d["rule"] == "lds-dma-read-before-vmcnt")
    assert first_read["waves"] == [0, 1, 2, 3] and first_read["count"] >= 4
    assert re.search(rf"\(in waves 0-3, {first_read['count']} times(; seen racing \d+ times?)?\)$",
                     first_read["message"]), first_read["message"]


def test_the_engine_and_the_rule_table_do_not_word_one_race_twice(gemm_nowait, capsys):
    """Where the engine saw a ds_read get the old LDS bytes, its message (the bytes, the DMA it
    raced with, the cycles) is the one report for that ds_read: the rule table's verdicts on
    the same ds_read ("not covered by s_waitcnt") only add to its count."""
    rc, out, err = gcnemu(capsys, "run", gemm_nowait, "--format", "json")
    hz = [d for d in json.loads(out)["diagnostics"] if d["severity"] == "warning"]
    reads = [d for d in hz if d["rule"] == "lds-dma-read-before-vmcnt"]
    assert len(reads) == len({d["line"] for d in reads}) == 8, "one warning per early ds_read_b128"
    # which ds_reads the DMA actually beats depends on the timing model (issue 23's LDS and
    # memory latencies leave one); each of those is worded by the engine, the others by the table
    seen = [d for d in reads if d["observed"]]
    assert seen
    for d in seen:
        assert "reads LDS [0x" in d["message"] and "touched LDS" not in d["message"]
        assert d["lanes"] and d["stale"] and 1 <= d["observed"] <= d["count"]
    for d in reads:
        if not d["observed"]:
            assert "touched LDS" in d["message"] and "reads LDS [0x" not in d["message"]
    rc, out, err = gcnemu(capsys, "run", gemm_nowait)
    assert err.count("note: lanes ") >= 8 and "; stale v" in err



def test_the_producer_note_points_at_the_operation_the_message_names(gemm_nowait, capsys):
    """A warning that says "the LDS DMA global_load_lds_dword (line N)" shows line N in its
    note, not the younger DMA the rule table would have named."""
    rc, out, err = gcnemu(capsys, "run", gemm_nowait, "--format", "json")
    for d in json.loads(out)["diagnostics"]:
        named = re.findall(r"\(line (\d+)\)", d["message"])  # the producer is named last
        if d["severity"] == "warning" and named:
            assert d["producer"]["line"] == int(named[-1]), d["message"]


MFMA_RACE = """
    v_mov_b32 v1, 1.0
    v_mov_b32 v2, 2.0
    v_mov_b32 v4, 0
    s_mov_b64 exec, 0xffffffff
    v_mov_b32 v4, 2.0
    s_mov_b64 exec, -1
    v_mfma_f32_4x4x1f32 v[4:7], v1, v2, 0
    v_add_f32 v8, v4, v4
    s_endpgm
"""


def test_a_wait_state_hazard_points_where_lint_points(tmp_path, capsys):
    path = write(tmp_path, "m.s", MFMA_RACE)
    lint = json.loads(gcnemu(capsys, "lint", path, "--arch", "gfx90a", "--format", "json")[1])
    rc, out, err = gcnemu(capsys, "run", path, "--arch", "gfx90a", "--format", "json")
    run = [d for d in json.loads(out)["diagnostics"] if d["severity"] == "warning"]
    assert [(d["line"], d["column"], d["rule"], d["producer"]) for d in run] == \
        [(d["line"], d["column"], d["rule"], d["producer"]) for d in lint["diagnostics"]]
    assert run[0]["column"] == 15  # the v4 operand of v_add_f32, not the start of the line


# ---------------------------------------------------------------- lanes and stale values


def test_a_stale_read_names_the_lanes_whose_value_differs_and_the_value_read(tmp_path, capsys):
    """v4 already holds the MFMA's result (2.0) in lanes 0-31; only lanes 32-63 read a wrong 0.0."""
    path = write(tmp_path, "m.s", MFMA_RACE)
    rc, out, err = gcnemu(capsys, "run", path, "--arch", "gfx90a")
    assert "note: lanes 32-63; stale v4 = 0.0 (the value in flight lands at cycle " in err
    rc, out, err = gcnemu(capsys, "run", path, "--arch", "gfx90a", "--format", "json")
    (d,) = [d for d in json.loads(out)["diagnostics"] if d["severity"] == "warning"]
    assert d["lanes"] == list(range(32, 64))
    assert d["stale"]["v4"] == [0x40000000] * 32 + [0] * 32  # the 64 raw lanes of v4 as read
    assert d["lands"] > d["cycle"]


def test_the_python_api_has_the_lanes_and_values_on_the_hazard(tmp_path):
    import gcnemu as g
    kernel = g.resolve(g.parse_file(str(write(tmp_path, "m.s", MFMA_RACE))), "gfx90a")
    sim = g.Simulation(kernel).run()
    (h,) = sim.hazards
    assert h.lanes == list(range(32, 64)) and h.values["v4"][40] == 0


# ---------------------------------------------------------------- errors and notes


def test_json_output_carries_parse_errors_when_nothing_ran(tmp_path, capsys):
    path = write(tmp_path, "b.s", """
        s_mov_b32 s0,
        s_endpgm
    """)
    rc, out, err = gcnemu(capsys, "run", path, "--format", "json")
    assert rc == 1
    data = json.loads(out)
    assert data["waves"] == [] and data["instructions"] == 0
    (d,) = data["diagnostics"]
    assert (d["severity"], d["line"], d["column"]) == ("error", 1, 1)
    assert d["message"] == "too few operands for instruction"


def test_runtime_notes_render_like_llvm_mc_and_carry_their_position(tmp_path, capsys):
    path = write(tmp_path, "u.s", """
        s_nop 0
        v_add_u32 v1, v5, v5
        s_endpgm
    """)
    rc, out, err = gcnemu(capsys, "run", path)
    assert f"{path}:2:1: note: reads v5 before anything wrote it" in err
    assert "note: " + str(path) not in err
    rc, out, err = gcnemu(capsys, "run", path, "--format", "json")
    (n,) = [d for d in json.loads(out)["diagnostics"] if d["severity"] == "note"]
    assert (n["file"], n["line"], n["column"]) == (str(path), 2, 1)
    assert n["message"].startswith("reads v5 before anything wrote it")


def test_running_off_the_end_points_at_the_last_instruction(tmp_path, capsys):
    path = write(tmp_path, "e.s", """
        v_mov_b32 v1, 0
        v_add_u32 v1, v0, v0
    """)
    rc, out, err = gcnemu(capsys, "run", path, "--format", "json")
    assert rc == 1
    (d,) = [d for d in json.loads(out)["diagnostics"] if d["severity"] == "error"]
    assert d["message"] == "execution ran past the last instruction without s_endpgm"
    assert (d["line"], d["column"]) == (2, 1)


# ---------------------------------------------------------------- machine facts


def _cycles(tmp_path, capsys, body: str) -> int:
    path = write(tmp_path, "k.s", body)
    rc, out, err = gcnemu(capsys, "run", path, "--format", "json")
    assert rc == 0, err
    return json.loads(out)["cycles"]


@pytest.mark.parametrize("n,same_as", [(16, 0), (17, 1), (0x7FFF, 15), (0xFFF0, 0)])
def test_s_nop_uses_only_the_low_four_bits_of_its_count(tmp_path, capsys, n, same_as):
    """S_NOP: "repeat SIMM16[3:0] times" (1..16 wait states, CDNA ISA guides)."""
    assert _cycles(tmp_path, capsys, f"s_nop {n}\ns_endpgm\n") == \
        _cycles(tmp_path, capsys, f"s_nop {same_as}\ns_endpgm\n")


D16 = """
    {target}
    ; gcnemu:
    ;   buffer A: u16[64] = i + 1 -> s[4:5]
    ;   vgpr v1 = lane * 2
    global_load_short_d16 v2, v1, s[4:5]     ; v2 starts as 0xdead0000 | ...
    global_load_short_d16_hi v3, v1, s[4:5]
    s_waitcnt vmcnt(0)
    s_endpgm
"""


@pytest.mark.parametrize("target,keeps", [
    ("", False),  # the default: Instinct parts run with SRAM ECC on
    ('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:sramecc+"', False),
    ('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:sramecc-"', True),
    ('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+"', True),
])
def test_the_target_ids_sramecc_feature_decides_what_d16_loads_do_to_the_other_half(tmp_path, capsys, target, keeps):
    path = write(tmp_path, "d16.s", D16.format(target=target))
    rc, out, err = gcnemu(capsys, "run", path, "--vgpr", "v2=0xdead0000", "--vgpr", "v3=0xbeef",
                          "--print", "v2", "v3", "--format", "json")
    assert rc == 0, err
    regs = json.loads(out)["waves"][0]["registers"]
    lo = [lane + 1 for lane in range(64)]
    if keeps:
        assert regs["v2"] == [0xDEAD0000 | x for x in lo] and regs["v3"] == [(x << 16) | 0xBEEF for x in lo]
    else:
        assert regs["v2"] == lo and regs["v3"] == [x << 16 for x in lo]
