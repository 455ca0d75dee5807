"""A real MIOpen iGEMM forward convolution kernel runs over its whole grid and matches numpy (issue 14).

The kernels are MIOpen's, unchanged (tests/corpus/miopen/igemm_gfx90a and igemm_gfx908, the
gfx90a one also in programs/miopen_igemm/). Their launch, the grid and the kernel arguments with
the magic-division constants, comes from tools/miopen_igemm_host.py, our Python rendering of
MIOpen's host code. These tests hold that host code to the kernel's own metadata and to exact
division, and run the kernels with the functional engine (every workgroup of the grid; the
timed run of the program is the pytest plugin's, from its header).
"""
from __future__ import annotations

import importlib.util
import re
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from gcnemu.grid import GridJob, run_functional
from gcnemu.snippets import check
from gcnemu.snippets.runner import load_snippet

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("miopen_igemm_host", ROOT / "tools" / "miopen_igemm_host.py")
host = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = host  # dataclasses look their module up while the file executes
_spec.loader.exec_module(host)

TILE = "bx0_ex0_bt32x64x32_wt16x64x4_ws1x1_wr1x1_ta1x8x1x1_1x4x1x32_tb1x8x2x1_1x4x1x32"
GFX90A = ROOT / "tests/corpus/miopen/igemm_gfx90a" / f"igemm_fwd_gtcx2_nhwc_fp16_{TILE}.s"
GFX908 = ROOT / "tests/corpus/miopen/igemm_gfx908" / f"igemm_fwd_gtcx_nhwc_fp16_{TILE}.s"
PROGRAM = ROOT / "programs/miopen_igemm/conv1x1_fwd_nhwc_fp16.s"
EXAMPLE = host.Conv2d(n=2, c=96, hi=6, wi=6, k=72)  # the program's convolution


def metadata_args(kernel_file: Path) -> list[tuple[str, int, int]]:
    """(name, size, offset) of each `.args` entry of the kernel's code-object metadata."""
    text = kernel_file.read_text()
    return [(n.strip(), int(s), int(o)) for n, s, o in
            re.findall(r"\.name:\s*(\w+)\s*,\s*\.size:\s*(\d+),\s*\.offset:\s*(\d+)", text)]


def run_grid_functional(path: Path):
    """Every workgroup of the file's `grid:` through the functional engine: (snippet, sim, run)."""
    snippet = load_snippet(str(path))
    sim, run = run_functional(snippet, snippet.kernel(), snippet.header.grid, GridJob(str(path), None))
    assert sim.error is None, sim.error.render(snippet.program.lines) if hasattr(sim.error, "render") else sim.error
    return snippet, sim, run


def output_and_inputs(snippet, sim, p):
    """The kernel's output as fp32 (n, ho, wo, k) and the fp16 inputs the header made."""
    initial = {b.name: np.asarray(b.data) for b in snippet.built.setup.buffers}
    out = sim.memory.buffer("OUT").data.view(np.float16).reshape(p.n, p.ho, p.wo, p.k).astype(np.float32)
    return out, initial["IN"], initial["WEI"]


def numpy_conv1x1(inp: np.ndarray, wei: np.ndarray) -> np.ndarray:
    """out[n, h, w, k] = sum_c in[n, h, w, c] * wei[k, 0, 0, c], in fp32."""
    return np.einsum("nhwc,kc->nhwk", inp.astype(np.float32), wei[:, 0, 0, :].astype(np.float32))


def assert_matches(out, ref, kernel, p):
    tol, rtol = host.tolerance(kernel, p)
    assert not np.isnan(out).any(), f"{np.isnan(out).sum()} outputs never written"
    err = np.abs(out - ref)
    bad = err > tol + rtol * np.abs(ref)
    assert not bad.any(), f"{bad.sum()} of {bad.size} outputs off, first at {np.argwhere(bad)[0]}, max error {err.max()}"


# ---------------------------------------------------------------- the host code, alone


def test_magic_division_is_exact_for_every_31_bit_numerator_and_divisor():
    rng = np.random.default_rng(14)
    divisors = [*range(1, 1100), *rng.integers(1, 2**31, 300).tolist(), 2**31 - 1, 2**30, 2**30 + 1]
    xs = np.concatenate([np.arange(0, 4096), rng.integers(0, 2**31, 4096), [2**31 - 1, 2**31 - 2]]).astype(np.uint64)
    for d in divisors:
        magic, shift = host.magic_div_u32(d)
        assert 0 <= magic < 2**32 and (1 << shift) >= d
        # what .mdiv_u32_vs does per lane: v_mul_hi_u32, v_add_u32, v_lshrrev_b32
        q = ((((np.uint64(magic) * xs) >> np.uint64(32)) + xs) & np.uint64(0xFFFFFFFF)) >> np.uint64(shift)
        assert np.array_equal(q, xs // np.uint64(d)), d
        edges = [d - 1, d, 2 * d - 1, (2**31 - 1) // d * d]
        assert [host.magic_div_do(x, magic, shift) for x in edges] == [x // d for x in edges]


def test_a_divisor_outside_31_bits_is_refused():
    for d in (0, 2**31):
        with pytest.raises(ValueError, match="1..2\\^31-1"):
            host.magic_div_u32(d)


def test_shifts_pack_one_byte_each_where_the_kernel_extracts_them():
    packed = host.pack_shifts(1, 6, 3, 5)
    # the kernel: s_bfe_u32 s, shift_pack_0, 0x00080000 / 0x00080008 / 0x00080010 / 0x00080018
    assert [(packed >> off) & 0xFF for off in (0, 8, 16, 24)] == [1, 6, 3, 5]
    assert '0x00080018' in GFX90A.read_text()


@pytest.mark.parametrize("kernel_file", [GFX90A, GFX908], ids=["gfx90a", "gfx908"])
def test_the_kernel_name_gives_the_tiling_the_file_was_generated_with(kernel_file):
    k = host.IgemmKernel.from_name(kernel_file.stem)
    text = kernel_file.read_text()

    def comment(key):  # the generator's summary at the top of the file: "; gemm_m_per_block : 32"
        return int(re.search(rf"^; {key}\s*: (\d+)", text, re.M).group(1))

    assert (k.m_per_block, k.n_per_block, k.k_per_block) == (comment("gemm_m_per_block"), comment("gemm_n_per_block"),
                                                             comment("gemm_k_per_block"))
    assert k.block_size == comment("block_size") == 128
    assert re.search(rf"\.reqd_workgroup_size\s*:\s*\[{k.block_size}, 1, 1\]", text)
    assert k.arch == kernel_file.parent.name.split("_")[1]  # the corpus folder names the GPU MIOpen builds for
    assert (k.precision, k.nxe, k.options) == ("fp16", 0, ())


def test_the_example_launch_is_six_workgroups_with_the_divisors_the_kernel_divides_by():
    kernel = host.IgemmKernel.from_name(GFX90A.stem)
    run = host.launch(kernel, EXAMPLE)
    # GEMM M = 2*6*6 = 72 pixels in tiles of 32 -> 3, N = 72 channels in tiles of 64 -> 2
    assert run.grid == (6, 1, 1) and run.workgroup == 128
    a = run.args
    shifts = [(a["shift_pack_0"] >> (8 * i)) & 0xFF for i in range(4)]
    for i, divisor in enumerate([2, 36, 6, 6]):  # N tiles, ho*wo, wo, tiles of the group
        for x in range(0, 4 * divisor * 32):
            assert host.magic_div_do(x, a[f"magic_{i}"], shifts[i]) == x // divisor
    assert (a["magic_4"], a["magic_5"], a["shift_pack_1"], a["gemm_k_split"]) == (1, 1, 0, 0)
    tol, rtol = host.tolerance(kernel, EXAMPLE)  # fp32 sum order (rounded up, still a bound), fp16 rounding
    assert 2 * 95 * 96 * 2.0**-24 <= tol <= 0.0011 and rtol == 2.0**-11


def test_the_arguments_follow_the_kernels_metadata_in_order_and_offset(tmp_path):
    """The header's `arg:` list names every `.args` entry of the metadata, and each value lands
    at the offset the metadata gives it."""
    path = tmp_path / "conv.s"
    path.write_text(host.snippet(GFX90A, EXAMPLE, include=str(GFX90A)))
    snippet = load_snippet(str(path))
    meta = metadata_args(GFX90A)
    ours = ["p_in", "p_wei", "p_out", *host.launch(host.IgemmKernel.from_name(GFX90A.stem), EXAMPLE).args]
    assert [n.strip("_") for n, _, _ in meta] == [n.strip("_") for n in ours]
    sim = snippet.simulate(run=False, monitor=False)
    kernarg = bytes(sim.memory.buffer("__kernarg").data)
    assert len(kernarg) == meta[-1][2] + meta[-1][1] == 128  # .kernarg_segment_size
    args = snippet.built.setup.args  # (name, buffer name | int), in the header's order
    assert [n for n, _ in args] == [n for n, _, _ in meta]
    assert [v for _, v in args[:3]] == ["IN", "WEI", "OUT"]
    for (name, size, offset), (_, value) in zip(meta, args):
        field = kernarg[offset:offset + size]
        if size == 8:
            assert struct.unpack("<Q", field)[0] == sim.memory.buffer(value).base, name
        else:
            assert struct.unpack("<I", field)[0] == value & 0xFFFFFFFF, name


@pytest.mark.parametrize("problem, reason", [
    (host.Conv2d(n=1, c=64, hi=8, wi=8, k=64, y=3, x=3, pad_h=1, pad_w=1), "only 1x1 filters"),
    (host.Conv2d(n=1, c=64, hi=8, wi=8, k=64, stride_h=2), "stride 1"),
    (host.Conv2d(n=1, c=48, hi=8, wi=8, k=64), "multiple of the GEMM-K tile, 32"),
    (host.Conv2d(n=1, c=64, hi=8, wi=8, k=60), "k / group must be a multiple of 8"),
])
def test_a_shape_the_kernel_cannot_compute_is_refused_with_the_reason(problem, reason):
    kernel = host.IgemmKernel.from_name(GFX90A.stem)
    assert any(reason in why for why in host.unsupported(kernel, problem))
    with pytest.raises(ValueError, match=re.escape(reason)):
        host.launch(kernel, problem)


def test_kernels_whose_host_code_is_not_modelled_are_refused():
    kernel = host.IgemmKernel.from_name(GFX90A.stem + "_me_gkgs")
    assert kernel.options == ("me", "gkgs")
    why = host.unsupported(kernel, EXAMPLE)
    assert any("_me" in w for w in why) and any("_gkgs" in w for w in why)
    with pytest.raises(ValueError, match="not the name of an MIOpen NHWC iGEMM forward kernel"):
        host.IgemmKernel.from_name("igemm_bwd_gtcx2_nhwc_fp16_" + TILE)


def test_the_tool_writes_a_runnable_file_or_says_why_not(tmp_path, capsys):
    out = tmp_path / "sub" / "conv.s"
    out.parent.mkdir()
    assert host.main([str(GFX90A), "--n", "1", "--c", "32", "--hi", "2", "--wi", "2", "--k", "8", "-o", str(out)]) == 0
    include = re.search(r'\.include "([^"]+)"', out.read_text()).group(1)
    assert (out.parent / include).resolve() == GFX90A.resolve()
    assert host.main([str(GFX90A), "--n", "1", "--c", "33", "--hi", "2", "--wi", "2", "--k", "8"]) == 1
    assert "error: " in capsys.readouterr().err


# ---------------------------------------------------------------- the example program


def header_statements(text: str) -> list[str]:
    """The statements of a file's `// gcnemu:` block (comment markers and indentation removed)."""
    lines = text.splitlines()
    start = lines.index("// gcnemu:")
    out = []
    for line in lines[start + 1:]:
        if not line.startswith("//"):
            break
        out.append(line[2:].strip())
    return out


def test_the_program_header_is_what_the_host_code_computes():
    ours = host.snippet(GFX90A, EXAMPLE)
    assert header_statements(PROGRAM.read_text()) == header_statements(ours)
    assert PROGRAM.read_text().rstrip().endswith(ours.rstrip().splitlines()[-1])  # the same .include


def test_the_program_runs_the_corpus_kernel_verbatim():
    for name in (GFX90A.name, "igemm_fwd_gtcx2_nhwc_fp16_utils.inc"):
        assert (PROGRAM.parent / name).read_bytes() == (GFX90A.parent / name).read_bytes(), name
    assert (PROGRAM.parent / "LICENSE.txt").read_bytes() == (ROOT / "tests/corpus/miopen/LICENSE.txt").read_bytes()


def test_the_program_matches_numpy_over_its_whole_grid():
    snippet, sim, run = run_grid_functional(PROGRAM)
    assert run.grid == (6, 1, 1) and run.waves == 12  # every workgroup, two waves each
    out, inp, wei = output_and_inputs(snippet, sim, EXAMPLE)
    assert_matches(out, numpy_conv1x1(inp, wei), host.IgemmKernel.from_name(GFX90A.stem), EXAMPLE)
    assert check(snippet, sim, values_only=True) == []  # and the header's own expectation holds


# ---------------------------------------------------------------- other shapes, the gfx908 build, fp16-alt

CASES = {
    # M = 15 -> one tile, N = 136 -> 3 tiles (the last 8 wide), K = 32: no trip through the loop body
    "gfx90a-k136-c32": (GFX90A, host.Conv2d(n=1, c=32, hi=3, wi=5, k=136), 3),
    # the gfx908 build of the same tiling (AGPRs from a0, no fp16-alt path), the program's problem
    "gfx908-example": (GFX908, EXAMPLE, 6),
}


@pytest.mark.parametrize("case", CASES)
def test_another_shape_or_build_matches_numpy_from_the_host_codes_launch(case, tmp_path):
    kernel_file, problem, workgroups = CASES[case]
    path = tmp_path / "conv.s"
    path.write_text(host.snippet(kernel_file, problem, seed=7, include=str(kernel_file)))
    snippet, sim, run = run_grid_functional(path)
    assert run.grid[0] * run.grid[1] * run.grid[2] == workgroups
    out, inp, wei = output_and_inputs(snippet, sim, problem)
    assert_matches(out, numpy_conv1x1(inp, wei), host.IgemmKernel.from_name(kernel_file.stem), problem)
    assert check(snippet, sim, values_only=True) == []


def test_fp16_alt_mode_multiplies_inputs_truncated_to_bf16(tmp_path):
    """MIOpen's second gfx90a build (`igemm_fwd_fp16_alt_impl=1`, for fp16 denormal-free runs)
    widens each fp16 input to fp32 and keeps its top 16 bits: bf16 by truncation, then
    v_mfma_f32_16x16x4bf16_1k. The result is the convolution of the truncated inputs."""
    problem = host.Conv2d(n=1, c=32, hi=3, wi=5, k=136)
    path = tmp_path / "conv_alt.s"
    text = host.snippet(GFX90A, problem, seed=3, include=str(GFX90A))
    path.write_text(text.replace(".include", ".set igemm_fwd_fp16_alt_impl, 1\n.include"))
    snippet, sim, _ = run_grid_functional(path)
    out, inp, wei = output_and_inputs(snippet, sim, problem)

    def bf16_truncated(a):
        return (a.astype(np.float32).view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)

    kernel = host.IgemmKernel.from_name(GFX90A.stem)
    assert_matches(out, numpy_conv1x1(bf16_truncated(inp), bf16_truncated(wei)), kernel, problem)
    plain = numpy_conv1x1(inp, wei)
    tol, rtol = host.tolerance(kernel, problem)
    assert (np.abs(out - plain) > tol + rtol * np.abs(plain)).mean() > 0.5  # most outputs tell the modes apart


def test_wrong_magic_constants_make_the_check_fail(tmp_path):
    """The shifts matter: with shift_pack_0 = 0 the block id is no longer split into tiles."""
    problem = host.Conv2d(n=1, c=32, hi=3, wi=5, k=136)
    text = host.snippet(GFX90A, problem, include=str(GFX90A))
    path = tmp_path / "wrong.s"
    path.write_text(re.sub(r"shift_pack_0=0x[0-9a-f]+", "shift_pack_0=0x0", text))
    snippet, sim, _ = run_grid_functional(path)
    failures = check(snippet, sim, values_only=True)
    assert len(failures) == 1 and "OUT" in failures[0].render(snippet.program.lines)
