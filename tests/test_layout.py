"""The package's stages import one way (asm -> sim/analysis -> commands), with no circles, and
whether an instruction runs is read from the ISA tables, which must agree with the simulator."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import check_imports  # noqa: E402
import gen_modelled  # noqa: E402


def test_stages_import_without_circles():
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "check_imports.py")], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout


def test_the_front_end_imports_no_later_stage():
    graph = check_imports.stage_graph()
    later = {"sim", "analysis", "commands", "debugger", "snippets", "views", "simulation", "cli"}
    assert not (set(graph.successors("asm")) & later)


def test_modelled_table_matches_the_simulator():
    table = (ROOT / "gcnemu" / "isa" / "data" / "modelled.txt").read_text(encoding="utf-8")
    assert table == gen_modelled.render(), "run: python tools/gen_modelled.py"
