"""A compiled kernel that calls ROCm's real device libraries runs from its descriptor over a grid.

tests/compiled/ocml_math.cl is OpenCL C using sin, exp, log, pow (ocml), get_global_id (ockl), a
correctly rounded sqrt and division, in two kernels: float (ocml_math) and double (ocml_math_f64). It is built the way the ROCm driver builds OpenCL: clang-22
links the device-library bitcode (opencl, ocml, ockl and the oclc_* control libraries from
Debian's `rocm-device-libs`, ROCm 5.2) with `-mlink-builtin-bitcode`, optimises at -O2, and llc-22
makes the assembly. `-mllvm -force-attribute=NAME:noinline` keeps __ocml_sin/exp/log/pow_f32 and
_f64 and __ockl_get_global_id out of line, so the kernel reaches them through `s_getpc_b64`, `@rel32`
relocations and `s_swappc_b64`, with their real bodies (table lookups, Payne-Hanek reduction,
v_div_scale/fmas/fixup, scratch spills of callee-saved registers) in the same file.

The ROCm 5.2 bitcode has no oclc_isa_version_942.bc or _950.bc (those targets came later), so
gfx942/gfx950 link oclc_isa_version_940.bc: the ISA version only steers ocml's choice of
instructions available since gfx9 (fma, ldexp, ...), the same on 940, 942 and 950.

gcnemu launches the kernel from its own `.amdhsa_kernel` block and `.amdgpu_metadata` only:
arguments by name, the hidden arguments filled as the runtime fills them (__ockl_get_global_id
reads hidden_group_size_x and hidden_global_offset_x through the implicit-argument pointer, as
ockl does for code object v5+), no SGPR set by hand.

Tolerances are the OpenCL C specification's maximum errors for its built-ins (the tables of ULP
values for single and double precision built-in math functions), which ocml is written to meet:
sin 4 ulp, exp 3 ulp, log 3 ulp, pow 16 ulp; sqrt and x/y are correctly rounded (0.5 ulp) because
the kernel is built with -cl-fp32-correctly-rounded-divide-sqrt and oclc_correctly_rounded_sqrt_on
(double sqrt and division are always correctly rounded in OpenCL). See `Precision` for how the
numpy reference's own error is allowed for. The errors measured are printed with -s: at most
1.11 ulp in float, 1 ulp in double. A gcnemu that gets one instruction of these routines wrong is
off by far more (a v_alignbit_b32 shifting by S2 & 15 instead of & 31 puts 143 of 300 float
sin(x * 2^13) results beyond 4 ulp).

Skipped, with the reason, where clang-22, llc-22 or the device-library bitcode is missing
(.ci/run installs llvm-22, clang-22 and rocm-device-libs).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
CL = HERE / "compiled" / "ocml_math.cl"
CLANG = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"
LLC = shutil.which("llc-22") or "/usr/lib/llvm-22/bin/llc"
LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
TARGETS = ["gfx908", "gfx90a", "gfx942", "gfx950"]
BITCODE_DIRS = [Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"), Path("/usr/lib/amdgcn/bitcode"),
                Path("/opt/rocm/amdgcn/bitcode")]
BITCODE = next((d for d in BITCODE_DIRS if (d / "ocml.bc").exists()), None)
# the oclc controls, as clang's ROCm toolchain picks them for OpenCL without fast-math flags
CONTROLS = ["daz_opt_off", "unsafe_math_off", "finite_only_off", "correctly_rounded_sqrt_on",
            "wavefrontsize64_on", "abi_version_500"]
OUT_OF_LINE = [f"__ocml_{fn}_{p}" for p in ("f32", "f64") for fn in ("sin", "exp", "log", "pow")] + ["__ockl_get_global_id"]
# a grid of 5 workgroups of 64 work-items; n leaves the last 20 work-items out (the `i < n` test)
GRID, WG, N = 5, 64, 300
COLUMNS = 7  # results per work-item, in the kernel's order


@dataclass(frozen=True)
class Precision:
    """One of the file's two kernels: its element type, and where its sine's long reduction starts."""

    kernel: str
    dtype: type
    type_name: str  # in --buffer
    long_sin_scale: float  # the kernel's last column is sin(x * this)
    bounds: dict  # column -> allowed error in ulp of the result type


# The OpenCL C specification's maximum errors for these built-ins (its tables of ULP values for
# single and double precision built-in math functions), which ocml is written to meet; sqrt and x/y
# are correctly rounded here (0.5 ulp). For double, numpy's reference is glibc's, itself within
# 1 ulp for sin/exp/log/pow on x86_64 (glibc manual, "Known Maximum Errors in Math Functions"),
# so those bounds get 1 ulp more; for float it is float64, far finer than a float ulp.
F32 = Precision("ocml_math", np.float32, "f32", 2.0 ** 13,
                {"sin": 4.0, "exp": 3.0, "log": 3.0, "pow": 16.0, "sqrt": 0.5, "div": 0.5, "sin(long)": 4.0})
F64 = Precision("ocml_math_f64", np.float64, "f64", 2.0 ** 30,
                {"sin": 5.0, "exp": 4.0, "log": 4.0, "pow": 17.0, "sqrt": 0.5, "div": 0.5, "sin(long)": 5.0})
PRECISIONS = {"f32": F32, "f64": F64}

pytestmark = [
    pytest.mark.skipif(not (Path(CLANG).exists() and Path(LLC).exists()), reason="needs clang-22 and llc-22"),
    pytest.mark.skipif(BITCODE is None, reason="needs ROCm device-library bitcode (apt-get install rocm-device-libs)"),
]


def isa_version(target: str) -> str:
    """oclc_isa_version_NNN.bc for a target; ROCm 5.2 stops at 940 (see the module docstring)."""
    number = target[3:]
    return "940" if number in ("942", "950") else number


def compile_kernel(d: Path, target: str) -> Path:
    bc, asm = d / f"ocml_math_{target}.bc", d / f"ocml_math_{target}.s"
    libs = ["opencl", "ocml", "ockl", f"oclc_isa_version_{isa_version(target)}"] + [f"oclc_{c}" for c in CONTROLS]
    cmd = [CLANG, "-x", "cl", "-cl-std=CL2.0", "-cl-kernel-arg-info", "-cl-fp32-correctly-rounded-divide-sqrt",
           "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", "-nogpulib", "-O2", "-c", "-emit-llvm"]
    for lib in libs:
        cmd += ["-Xclang", "-mlink-builtin-bitcode", "-Xclang", str(BITCODE / f"{lib}.bc")]
    for fn in OUT_OF_LINE:
        cmd += ["-mllvm", f"-force-attribute={fn}:noinline"]
    subprocess.run(cmd + [str(CL), "-o", str(bc)], check=True, capture_output=True)
    subprocess.run([LLC, "-O2", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", str(bc), "-o", str(asm)],
                   check=True, capture_output=True)
    return asm


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("ocml")
    return {t: compile_kernel(d, t) for t in TARGETS}


def buffers(p: Precision) -> list[str]:
    """`--buffer` values: inputs over ranges where every result is a finite normal number."""
    total, t = GRID * WG, p.type_name
    return [f"out={t}[{total * COLUMNS}]:-1", f"x={t}[{total}]:rand(lo=-30,hi=30,seed=1)",
            f"y={t}[{total}]:rand(lo=0.05,hi=9,seed=2)"]


def directives(p: Precision) -> list:
    """The launch, as `gcnemu run` options would give it: kernel, buffers and arguments by name."""
    from gcnemu.commands.run import CliSource
    cli = CliSource()
    return [cli.directive("--kernel", p.kernel, "kernel", ":"), cli.directive("--workgroup", str(WG), "workgroup", ":"),
            *(cli.directive("--buffer", b, "buffer", " ") for b in buffers(p)),
            cli.directive("--arg", f"out=out, x=x, y=y, n={N}", "arg", ":")]


def reference(p: Precision, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """What each work-item should write, in float64 from the inputs (the scalings are exact)."""
    a, b = x.astype(np.float64), y.astype(np.float64)
    return np.stack([np.sin(a), np.exp(a), np.log(b), np.power(b, a), np.sqrt(b), a / b,
                     np.sin(a * p.long_sin_scale)], axis=1)


def ulp_errors(p: Precision, got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in units of the last place of the result type at `want`. For float64, where
    the reference is float64 too, the count of representable numbers between the two."""
    if p.dtype is np.float64:
        steps = np.abs(_ordered(got) - _ordered(want)).astype(np.float64)
        return np.where(np.isnan(steps), np.inf, steps)
    ulp = np.spacing(np.abs(want.astype(np.float32))).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / ulp


def _ordered(v: np.ndarray) -> np.ndarray:
    """float64 bit patterns on a line where neighbours differ by 1 (negatives mirrored)."""
    bits = v.astype(np.float64).view(np.int64)
    return np.where(bits < 0, np.int64(-0x8000000000000000) - bits, bits)


def check_against_numpy(sim, p: Precision) -> dict[str, float]:
    x, y = sim.buffer("x", p.dtype), sim.buffer("y", p.dtype)
    out = sim.buffer("out", p.dtype).reshape(-1, COLUMNS)
    assert np.all(out[N:] == -1.0), "work-items past n wrote"
    got, want = out[:N], reference(p, x[:N], y[:N])
    assert np.all(np.isfinite(got))
    worst = {}
    for col, (name, bound) in enumerate(p.bounds.items()):
        err = ulp_errors(p, got[:, col], want[:, col])
        worst[name] = float(err.max())
        bad = np.flatnonzero(err > bound)
        assert bad.size == 0, (f"{name}: {bad.size} of {N} beyond {bound} ulp, e.g. work-item {bad[0]}: "
                               f"x={x[bad[0]]!r} y={y[bad[0]]!r} got {got[bad[0], col]!r} want {want[bad[0], col]!r}")
    return worst


# ---------------------------------------------------------------- the compiler output is what we meant


@pytest.mark.parametrize("target", TARGETS)
def test_the_kernel_really_calls_the_device_library(compiled, target):
    """Not inlined away: each library function is a function of the file that the kernel calls."""
    text = compiled[target].read_text()
    for fn in OUT_OF_LINE:
        assert f"\n{fn}:" in text, f"{fn} has no body in the file"
        assert f"{fn}@rel32@lo+4" in text, f"nothing calls {fn}"
    assert text.count("s_swappc_b64") >= len(OUT_OF_LINE)
    for ins in ("v_div_fixup_f32", "v_div_fixup_f64", "v_trig_preop_f64"):  # correctly rounded x/y, f64 sin's long reduction
        assert ins in text


@pytest.mark.parametrize("target", TARGETS)
def test_every_instruction_of_the_output_is_modelled_and_lint_is_clean(compiled, target):
    """`check --list-unmodelled` lists nothing, and lint finds no hazard: llc-22 put every wait
    state and s_waitcnt these routines need, across the calls too."""
    path = str(compiled[target])
    r = subprocess.run([sys.executable, "-m", "gcnemu", "check", path, "--list-unmodelled"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "", r.stdout
    from gcnemu.analysis.lint import lint
    from gcnemu.asm.parse import parse
    prog = parse(compiled[target].read_bytes(), path)
    warnings = [d for d in lint(prog, target) if d.severity == "warning"]
    assert warnings == [], [f"{d.span.line}: {d.message} [{d.rule}]" for d in warnings[:10]]


@pytest.mark.skipif(not Path(LLVM_MC).exists(), reason="needs llvm-mc 22")
@pytest.mark.parametrize("target", ["gfx90a", "gfx942"])
def test_llvm_mc_assembles_the_output(compiled, target):
    mc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj", "-o", "/dev/null",
                         str(compiled[target])], capture_output=True, text=True)
    assert mc.returncode == 0, mc.stderr[:2000]


# ---------------------------------------------------------------- it runs, over the whole grid


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("precision", PRECISIONS)
def test_the_whole_grid_matches_numpy_within_the_documented_ulp(compiled, target, precision):
    from gcnemu.grid import GridJob, run_functional
    from gcnemu.snippets.runner import load_snippet
    p = PRECISIONS[precision]
    extra = directives(p)
    snippet = load_snippet(str(compiled[target]), None, extra)
    sim, run = run_functional(snippet, snippet.kernel(), (GRID, 1, 1), GridJob(str(compiled[target]), None, tuple(extra)))
    assert sim.error is None, sim.error
    assert run.waves == GRID
    print(target, p.kernel, {k: round(v, 3) for k, v in check_against_numpy(sim, p).items()})


@pytest.mark.parametrize("target, precision", [("gfx942", "f32"), ("gfx90a", "f64")])
def test_the_timed_engine_in_worker_processes_gives_the_same_memory(compiled, target, precision):
    """The timed grid runner (each workgroup in a worker process, memory merged) agrees with the
    functional one bit for bit, and every workgroup finished."""
    from gcnemu.grid import GridJob, run_functional, run_grid
    from gcnemu.snippets.runner import load_snippet
    p, path = PRECISIONS[precision], compiled[target]
    extra = directives(p)
    job = GridJob(str(path), None, tuple(extra))
    snippet = load_snippet(str(path), None, extra)
    timed, run = run_grid(snippet, snippet.kernel(), (GRID, 1, 1), job, jobs=2)
    assert timed.error is None and not any(r.error for r in run.results)
    assert len(run.results) == GRID and all(c > 0 for c in run.cycles)
    check_against_numpy(timed, p)
    snippet = load_snippet(str(path), None, extra)
    functional, _ = run_functional(snippet, snippet.kernel(), (GRID, 1, 1), job)
    np.testing.assert_array_equal(timed.buffer("out", np.uint32), functional.buffer("out", np.uint32))


def test_the_cli_runs_it_by_argument_names(compiled):
    """`gcnemu run FILE --grid N --arg name=value`: the user's view of the same launch, with no
    error or warning. Two notes remain, both true and both the calling convention at work:
    __ocml_pow_f32's prologue copies the caller's frame pointer s33 (never set by the kernel) to
    restore it on return, and saves callee-saved v16 in all lanes (exec = -1), including lanes
    the kernel left unwritten (the last workgroup's work-items past n)."""
    r = subprocess.run([sys.executable, "-m", "gcnemu", "run", str(compiled["gfx90a"]), "--grid", str(GRID),
                        "--workgroup", str(WG), "--functional", "--format", "json",
                        *(a for b in buffers(F32) for a in ("--buffer", b)),
                        "--arg", "out=out", "--arg", "x=x", "--arg", "y=y", "--arg", f"n={N}"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["kernel"] == "ocml_math"
    assert [d for d in out["diagnostics"] if d["severity"] in ("error", "warning")] == []
