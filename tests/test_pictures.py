"""Pictures (`--svg`/`--png`): the timeline as a Gantt chart and an MFMA layout as a coloured grid.

They need the optional extra gcnemu[plot] (matplotlib); these tests skip without it, except the
one that checks the error a user without it sees.
"""
from __future__ import annotations

import json
import os
import stat
import sys
import xml.etree.ElementTree as ET

import pytest

from gcnemu.cli import main

SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

KERNEL = """\
v_mov_b32 v1, 1.0
v_mov_b32 v2, 2.0
v_mfma_f32_32x32x2f32 a[0:15], v1, v2, 0
v_mfma_f32_32x32x2f32 a[16:31], v1, v2, 0
s_nop 3
v_add_u32 v3, v1, v2
s_endpgm
"""


@pytest.fixture
def kernel(tmp_path):
    p = tmp_path / "k.s"
    p.write_text(KERNEL)
    return str(p)


def ids(path) -> list[str]:
    return [e.get("id") for e in ET.parse(path).getroot().iter() if e.get("id")]


def texts(path) -> list[str]:
    return ["".join(e.itertext()) for e in ET.parse(path).getroot().iter(f"{SVG}text")]


def test_timeline_svg_has_one_bar_per_issue_and_the_stalls(tmp_path, capsys, kernel):
    pytest.importorskip("matplotlib")
    out = tmp_path / "t.svg"
    assert main(["timeline", kernel, "--svg", str(out)]) == 0
    assert f"picture written to {out}" in capsys.readouterr().out
    main(["timeline", kernel, "--format", "json"])
    rows = json.loads(capsys.readouterr().out)["instructions"]
    found = ids(out)  # (ET.parse also proves the file is well-formed XML)
    assert sorted(i for i in found if i.startswith("issue-")) == sorted(f"issue-{k}" for k in range(len(rows)))
    stalled = [k for k, r in enumerate(rows) if r["stall_cycles"] > 0]
    assert stalled and sorted(i for i in found if i.startswith("stall-")) == sorted(f"stall-{k}" for k in stalled)
    labels = texts(out)
    assert any("v_mfma_f32_32x32x2f32 a[16:31]" in t for t in labels)  # rows are labelled with their source
    assert "mfma" in labels and "cycle" in labels  # the class legend and the axis


def test_timeline_png_is_a_png_and_a_window_draws_only_its_rows(tmp_path, kernel, capsys):
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "t.png", tmp_path / "w.svg"
    assert main(["timeline", kernel, "--png", str(png), "--cycles", "0:10", "--svg", str(svg)]) == 0
    assert png.read_bytes()[:8] == PNG_SIGNATURE
    assert len([i for i in ids(svg) if i.startswith("issue-")]) == 3  # the two v_movs and the first MFMA


def test_hazard_rows_carry_the_rule_in_the_picture(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    src = tmp_path / "h.s"
    src.write_text("v_mov_b32 v1, 1.0\nv_mov_b32 v2, 2.0\nv_mfma_f32_32x32x2f32 a[0:15], v1, v2, 0\n"
                   "v_accvgpr_read_b32 v3, a0\ns_endpgm\n")
    out = tmp_path / "h.svg"
    main(["timeline", str(src), "--svg", str(out)])
    capsys.readouterr()
    main(["timeline", str(src), "--format", "json"])
    rules = {h["rule"] for h in json.loads(capsys.readouterr().out)["hazards"]}
    marked = [t for t in texts(out) if t.startswith("! ")]
    assert rules and marked and all(any(r in t for r in rules) for t in marked)


def test_layout_svg_colours_every_element_and_labels_it_with_its_lane(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "l.svg"
    assert main(["layout", "v_mfma_f32_16x16x16f16", "--operand", "D", "--svg", str(out)]) == 0
    assert f"picture written to {out}" in capsys.readouterr().out
    cells = [i for i in ids(out) if i.startswith("cell-D-")]
    assert len(cells) == 16 * 16
    lanes = [t for t in texts(out) if t.isdigit()]
    assert {str(n) for n in range(64)} <= set(lanes)  # every lane holds a part of D
    main(["layout", "v_mfma_f32_16x16x16f16", "--operand", "D", "--format", "json"])
    capsys.readouterr()


def test_layout_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "l.png"
    assert main(["layout", "v_mfma_f32_4x4x1f32", "--operand", "A", "--png", str(out)]) == 0
    assert out.read_bytes()[:8] == PNG_SIGNATURE


def test_an_unwritable_picture_is_a_clear_error_and_leaves_no_file(tmp_path, capsys, kernel):
    pytest.importorskip("matplotlib")
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    out = blocker / "t.svg"
    assert main(["timeline", kernel, "--svg", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"cannot write the picture {out}" in err and "Traceback" not in err
    assert main(["layout", "v_mfma_f32_4x4x1f32", "--svg", str(out)]) == 1
    assert f"cannot write the picture {out}" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.s", "not-a-dir"]


def test_a_write_failing_halfway_keeps_the_old_picture_whole(tmp_path, capsys, kernel, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure
    out = tmp_path / "t.svg"
    out.write_text("<svg>old</svg>")

    def disk_full(self, fh, **kw):
        fh.write(b"<svg><g")  # part of a picture, then the disk fills up
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", disk_full)
    assert main(["timeline", kernel, "--svg", str(out)]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert out.read_text() == "<svg>old</svg>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.s", "t.svg"]


def test_without_matplotlib_the_error_names_the_extra(tmp_path, capsys, kernel, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    assert main(["timeline", kernel, "--svg", str(tmp_path / "t.svg")]) == 1
    err = capsys.readouterr().err
    assert "gcnemu[plot]" in err and "Traceback" not in err
    assert main(["layout", "v_mfma_f32_4x4x1f32", "--svg", str(tmp_path / "l.svg")]) == 1
    assert "gcnemu[plot]" in capsys.readouterr().err
    assert not (tmp_path / "t.svg").exists() and not (tmp_path / "l.svg").exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("option", ["--svg", "--trace"])
def test_a_device_is_written_in_place_not_replaced(kernel, capsys, option):
    """A rename over /dev/full would swap the device for a plain file: devices are written as they are."""
    if option == "--svg":
        pytest.importorskip("matplotlib")
    assert main(["timeline", kernel, option, "/dev/full"]) == 1
    assert "o space left on device" in capsys.readouterr().err
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
