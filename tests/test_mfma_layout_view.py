"""Specification of ``gcnemu layout`` (gcnemu.views.layout): output for people and machines."""
from __future__ import annotations

import argparse
import csv
import io
import json

import pytest

from gcnemu.views import layout as LV
from gcnemu.isa import mfma as M


def run(capsys, *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    LV.add_arguments(parser)
    rc = LV.run(parser.parse_args(list(argv)))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("name,arch", [("v_mfma_f32_16x16x16f16", "gfx90a"),
                                       ("v_mfma_f32_32x32x8_f16", "gfx942"),
                                       ("v_mfma_f64_4x4x4f64", "gfx90a"),
                                       ("v_smfmac_f32_32x32x16_bf16", "gfx942"),
                                       ("v_mfma_f32_32x32x64_f8f6f4", "gfx950")])
def test_text_fits_80_columns_and_states_the_facts(capsys, name, arch):
    rc, out, _ = run(capsys, name, "--arch", arch)
    assert rc == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    info = M.lookup(name, arch)
    assert f"{info.passes} passes = {info.cycles} cycles" in out
    assert f"A {info.a_regs}, B {info.b_regs}, C/D {info.cd_regs}" in out
    for op in M.OPERANDS:
        assert f"== {op}:" in out and f"{op}: what each lane holds" in out


def test_text_grid_shows_the_article_layout(capsys):
    rc, out, _ = run(capsys, "v_mfma_f32_16x16x4f32", "--arch", "gfx908", "--operand", "D")
    lines = out.splitlines()
    start = lines.index("D: lane of D[i][j]")
    assert lines[start + 1].split()[1:] == [str(j) for j in range(16)]
    # row i=5 lives in lanes 16..31 (ty = 1), register 1
    assert lines[start + 2 + 5].split() == ["5"] + [str(16 + j) for j in range(16)]
    reg = lines.index("D: register[.slot] of D[i][j]")
    assert set(lines[reg + 2 + 5].split()[1:]) == {"1"}


def test_32x32_is_paged_in_16_column_chunks(capsys):
    rc, out, _ = run(capsys, "v_mfma_f32_32x32x2f32", "--arch", "gfx90a", "--operand", "C")
    assert "C: lane of C[i][j] [j 0..15]" in out and "C: lane of C[i][j] [j 16..31]" in out


def test_inverse_view_lists_packed_elements(capsys):
    rc, out, _ = run(capsys, "v_mfma_f32_32x32x8f16", "--arch", "gfx90a", "--operand", "A")
    lines = out.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("A: what each lane holds"))
    assert lines[i + 1].split() == ["lane", "v0", "v1"]
    assert lines[i + 2].split() == ["0", "0,0-1", "0,2-3"]       # lane 0: A[0][0..3]
    assert lines[i + 2 + 33].split() == ["33", "1,4-5", "1,6-7"]  # lane 33: A[1][4..7]


def test_unknown_mnemonic_is_one_line_with_did_you_mean(capsys):
    rc, out, err = run(capsys, "v_mfma_f32_16x16x16_f61", "--arch", "gfx942")
    assert rc == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "did you mean" in err and "v_mfma_f32_16x16x16_f16" in err


def test_wrong_target_and_bad_modifiers_are_errors(capsys):
    rc, _, err = run(capsys, "v_mfma_i32_32x32x8i8", "--arch", "gfx942")
    assert rc == 1 and "gfx908, gfx90a" in err
    # cbsz wider than a one-block MFMA is one group (llvm-mc accepts it); abid must name a block
    assert run(capsys, "v_mfma_f32_16x16x4f32", "--cbsz", "2")[0] == 0
    rc, _, err = run(capsys, "v_mfma_f32_16x16x4f32", "--cbsz", "2", "--abid", "3")
    assert rc == 1 and err.startswith("error: ")
    rc, _, err = run(capsys, "v_mfma_f32_4x4x1f32", "--arch", "gfx1100")
    assert rc == 1 and "unknown target" in err


def test_json_is_complete_and_consistent(capsys):
    rc, out, _ = run(capsys, "v_mfma_f32_4x4x4f16", "--arch", "gfx90a", "--format", "json",
                     "--blgp", "4")
    doc = json.loads(out)
    assert doc["instruction"]["blocks"] == 16 and doc["modifiers"]["blgp"] == 4
    b = doc["operands"]["B"]
    assert b["shape"] == [16, 4, 4] and len(b["elements"]) == 256
    info = M.lookup("v_mfma_f32_4x4x4f16", "gfx90a")
    fields = doc["fields"]
    for row in b["elements"][:20]:
        e = dict(zip(fields, row))
        assert e["lane"] == M.locate(info, "B", e["block"], e["row"], e["col"], blgp=4).lane
        assert e["lane"] < 16  # blgp=4: everyone reads lanes 0-15


def test_csv_has_one_row_per_element(capsys):
    rc, out, _ = run(capsys, "v_mfma_f64_16x16x4f64", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 16 * 4 + 4 * 16 + 2 * 256
    d = [r for r in rows if r["operand"] == "D" and r["row"] == "5" and r["col"] == "3"][0]
    assert (d["reg"], d["lane"], d["width"]) == ("2", "19", "64")


def test_markdown_tables(capsys):
    rc, out, _ = run(capsys, "v_mfma_i32_4x4x4i8", "--arch", "gfx908", "--operand", "A",
                     "--format", "markdown")
    assert rc == 0 and "| fact | value |" in out and "| lane | v0 |" in out
    assert "0.1@0" in out  # A[0][1] of block 0: byte 1 of v0, lane 0


def test_list(capsys):
    rc, out, _ = run(capsys, "--list", "--arch", "gfx908")
    assert rc == 0 and out.startswith("gfx908: 20 MFMA/SMFMAC instructions")
    rc, out, _ = run(capsys, "--list", "--format", "json")
    assert len(json.loads(out)) == sum(len(M.catalog(t)) for t in M.TARGETS)


@pytest.mark.parametrize("arch", M.TARGETS)
def test_text_list_fits_80_columns_and_carries_passes_and_flops(capsys, arch):
    rc, out, _ = run(capsys, "--list", "--arch", arch)
    assert rc == 0 and max(len(line) for line in out.splitlines()) <= 80
    row = next(line for line in out.splitlines() if line.split()[:1] == ["v_mfma_f32_32x32x8f16"] or
               line.split()[:1] == ["v_mfma_f32_32x32x8_f16"])
    # 32x32x8 f16: 16 passes on gfx908/gfx90a, 8 on gfx942/gfx950 (../shared/isa/mfma.md); FLOPs per
    # cycle per CU = 2*32*32*8 / (4*passes) * 4 SIMDs
    passes = 16 if arch in ("gfx908", "gfx90a") else 8
    cols = row.split()
    assert cols[4] == str(passes) and cols[6] == str(2 * 32 * 32 * 8 * 4 // (4 * passes))


def test_default_arch_picks_a_target_that_has_the_mnemonic(capsys):
    rc, out, _ = run(capsys, "v_mfma_f32_16x16x8bf16", "--operand", "A")
    assert rc == 0 and out.startswith("v_mfma_f32_16x16x8bf16 on gfx90a")


def test_wired_into_the_gcnemu_cli(capsys):
    cli = pytest.importorskip("gcnemu.cli")
    assert cli.main(["layout", "v_mfma_f32_16x16x1f32", "--arch", "gfx908", "--operand", "B",
                     "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 64 and {r["lane"] for r in rows} == {str(n) for n in range(64)}
    assert cli.main(["layout", "v_mfma_bogus"]) == 1
    assert capsys.readouterr().err.startswith("error: ")
