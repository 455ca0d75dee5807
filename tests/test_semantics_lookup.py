"""`semantics.lookup` sees every semantics module even when one was imported on its own first."""
import subprocess
import sys


def test_lookup_after_importing_one_semantics_module():
    # a fresh interpreter: the registry must start with only the directly imported module
    code = ("import gcnemu.sim.semantics.ds\n"
            "from gcnemu.sim.semantics import lookup\n"
            "assert lookup('v_mov_b32') is not None\n"
            "assert lookup('s_add_u32') is not None\n")
    subprocess.run([sys.executable, "-c", code], check=True)
