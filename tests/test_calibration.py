"""The calibration suite in CI: every published hardware measurement in benchmarks/calibration/
stays within its tolerance (10% for throughput, 4 cycles for latencies).

A row marked `xfail-until:` is a known gap with a reason: it must still be outside its tolerance
(when it passes, the marker is stale and this test says so). The whole suite runs in a few seconds.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("calibration", ROOT / "benchmarks" / "calibration.py")
calibration = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("calibration", calibration)
_spec.loader.exec_module(calibration)

ROWS = calibration.load_rows()
_MEASURED: dict[str, object] = {}


def _measured(row):
    """Each row runs once per session (the README check reuses the rows' results)."""
    if row.file not in _MEASURED:
        _MEASURED[row.file] = calibration.measure(row)
    return _MEASURED[row.file]


def test_suite_has_rows_for_gfx942():
    assert sum(r.target == "gfx942" for r in ROWS) >= 10


@pytest.mark.parametrize("row", ROWS, ids=[Path(r.file).stem for r in ROWS])
def test_row_within_tolerance(row):
    r = _measured(row)
    detail = (f"{r.name} ({r.target}): hardware {r.hardware:g}, gcnemu {r.gcnemu:.2f} "
              f"({r.error_text}, tolerance {r.tolerance_text})")
    if r.xfail_until:
        assert not r.within, f"{detail} is within tolerance: remove its 'xfail-until:' line"
        pytest.xfail(f"{detail}; until {r.xfail_until}")
    assert r.within, detail


def test_header_errors_point_at_the_line(tmp_path):
    f = tmp_path / "bad.s"
    f.write_text("// calibration: x\n//   hardware: 20\n//   unit: cycles/fortnight\n")
    with pytest.raises(calibration.GcnemuError) as e:
        calibration.parse_header(f)
    text = str(e.value)
    assert f"{f}:3:" in text and "error: unit must be one of" in text and "^" in text
    f.write_text("// calibration: x\n//   hardware: 20\n//   colour: red\n")
    with pytest.raises(calibration.GcnemuError, match=r":3:6: error: unknown calibration field 'colour'"):
        calibration.parse_header(f)
    f.write_text("// calibration: x\n//   hardware: many\n//   unit: cycles latency\n//   tolerance: 4 cycles\n"
                 "//   part: p\n//   target: gfx942\n//   count: 1\n//   source: s\n")
    with pytest.raises(calibration.GcnemuError, match=r":2:\d+: error: hardware: 'many' is not a number"):
        calibration.parse_header(f)


def test_tolerance_kinds(tmp_path):
    f = tmp_path / "ok.s"
    f.write_text("// calibration: x\n//   hardware: 50\n//   unit: cycles latency\n//   tolerance: 4 cycles\n"
                 "//   part: MI300X\n//   target: gfx942\n//   count: 8\n//   source: https://example.org/a (a)\n")
    r = calibration.parse_header(f)
    assert (r.tolerance_kind, r.tolerance, r.tolerance_text) == ("absolute", 4.0, "4 cyc")


def test_readme_table_is_the_generator_output():
    """README's "How close to hardware" table is `python benchmarks/calibration.py --markdown`."""
    text = (ROOT / "README.md").read_text()
    start, end = calibration.README_START, calibration.README_END
    assert start in text and end in text, "README.md lacks the calibration table markers"
    shown = text[text.index(start) + len(start):text.index(end)]
    want = calibration.markdown_table([_measured(r) for r in ROWS])
    assert shown == want, ("README's calibration table is stale: run "
                           "`python benchmarks/calibration.py --update-readme`")
