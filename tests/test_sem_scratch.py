"""Scratch (private memory) executes per lane: scratch_load/scratch_store with vaddr, saddr or
`off`, sized by the descriptor's .amdhsa_private_segment_fixed_size or the header's `scratch:`,
and an access outside a lane's segment is a clear error, never silent corruption."""
from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

from gcnemu.snippets.runner import load_snippet

COMPILED = Path(__file__).resolve().parent / "compiled"


def run(tmp_path: Path, body: str, scratch: int | None = 64, target: str = "gfx942"):
    header = f"// gcnemu:\n//   arch: {target}\n//   workgroup: 64\n"
    if scratch is not None:
        header += f"//   scratch: {scratch}\n"
    path = tmp_path / "k.s"
    path.write_text(header + textwrap.dedent(body))
    snippet = load_snippet(str(path))
    return snippet.simulate()


def test_each_lane_has_its_own_private_bytes(tmp_path):
    sim = run(tmp_path, """\
          v_mul_u32_u24 v1, v0, 3
          v_mov_b32 v2, 8
          scratch_store_dword v2, v1, off offset:4
          s_mov_b32 s5, 4
          scratch_store_short off, v0, s5 offset:32
          s_waitcnt vmcnt(0)
          scratch_load_dword v3, v2, off offset:4
          scratch_load_ushort v4, off, s5 offset:32
          scratch_load_dwordx2 v[6:7], off, off offset:12
          s_waitcnt vmcnt(0)
          s_endpgm
    """)
    assert sim.error is None
    lane = np.arange(64)
    w = sim.wave(0)
    assert np.array_equal(w.v[3].u32, lane * 3)  # every lane at the same private address, its own value
    assert np.array_equal(w.v[4].u32, lane)
    assert np.array_equal(w.v[6].u32, lane * 3)  # bytes 12..15 are the dword stored at 8 + 4


def test_an_access_past_the_private_segment_names_the_lane_and_bytes(tmp_path):
    sim = run(tmp_path, """\
          v_mov_b32 v1, 60
          scratch_store_dword v1, v0, off offset:2
          s_endpgm
    """)
    assert sim.error is not None
    assert "lane 0 accesses private bytes [62, 66) outside its 64-byte private segment" in sim.error.message


def test_a_kernel_without_a_private_segment_is_told_how_to_give_it_one(tmp_path):
    sim = run(tmp_path, "  scratch_load_dword v1, off, off\n  s_endpgm\n", scratch=None)
    assert sim.error is not None and ".amdhsa_private_segment_fixed_size" in sim.error.message


@pytest.mark.skipif(shutil.which("llc-22") is None, reason="needs llc-22")
@pytest.mark.parametrize("target", ["gfx908", "gfx90a", "gfx942", "gfx950"])
def test_llc_output_spilling_to_scratch_runs_from_its_descriptor(tmp_path, target):
    """gfx942/gfx950 address scratch with scratch_*; gfx908/gfx90a with buffer_* through the
    private segment buffer V# and wave offset that the descriptor asks the launch for."""
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", str(COMPILED / "private_array.ll"),
                          "-o", "-"], check=True, capture_output=True, text=True).stdout
    store = "buffer_store_dword" if target in ("gfx908", "gfx90a") else "scratch_store_dword"
    assert store in asm and ".amdhsa_private_segment_fixed_size" in asm
    path = tmp_path / "k.s"
    path.write_text("// gcnemu:\n//   workgroup: 64\n//   buffer O: u32[64] = zeros(64)\n//   arg: out=O\n"
                    "//   arg: idx = 0\n" + asm)  # by the names in the kernel's metadata
    snippet = load_snippet(str(path))
    sim = snippet.simulate()
    assert sim.error is None
    lane = np.arange(64, dtype=np.uint32)
    assert np.array_equal(sim.buffer("O", np.uint32), lane * (lane & 15))
