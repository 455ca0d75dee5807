"""`gcnemu check` on real kernels against llvm-mc 22 on the same files, in one run.

    python benchmarks/bench_check_real.py [--repeat 3] [--defsym N=V] [-I DIR] FILE...

For each file: gcnemu's parse + validate in this process (best of --repeat, CPU and wall, and
the first run's CPU: the parser's caches are cold then, as in a fresh process), `gcnemu check` as
a fresh process (what a user waits for, Python start-up included), and llvm-mc 22 assembling it
(`-filetype=null`: parse, match and encode; best of --repeat, wall and CPU from its rusage). The
ratio is gcnemu's in-process wall time over llvm-mc's; the CPU ratio beside it is the one to
trust on a loaded machine, where wall times follow the scheduler. Files are not stored in this
repository: pass real kernels you have (e.g. hipBLASLt's tensilelite/Tensile/CustomKernels,
MIOpen's src/kernels); the README quotes this script's output.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gcnemu.asm import parse as parse_mod  # noqa: E402
from gcnemu.asm.validate import validate  # noqa: E402

LLVM_MC = os.environ.get("GCNEMU_LLVM_MC", "/usr/lib/llvm-22/bin/llvm-mc")


def target_of(path: Path) -> str:
    m = re.search(r'\.amdgcn_target\s+"amdgcn-amd-amdhsa--(gfx[0-9a-z]+)', path.read_text(errors="replace")[:50000])
    name = m.group(1) if m else "gfx90a"
    return {"gfx940": "gfx942", "gfx941": "gfx942"}.get(name, name)


def best(fn, repeat: int) -> tuple[float, float, float]:
    """Best wall, best CPU, and the first run's CPU (the parser's caches are cold then, as in
    a fresh `gcnemu check`; they live across parse() calls)."""
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus), cpus[0]


def best_child(args: list[str], cwd: Path, repeat: int) -> tuple[float, float]:
    """Best wall and best CPU (user + system, from the child's rusage) of running args."""
    walls, cpus = [], []
    for _ in range(repeat):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        w = time.perf_counter()
        subprocess.run(args, capture_output=True, cwd=cwd)
        walls.append(time.perf_counter() - w)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return min(walls), min(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("--defsym", action="append", default=[])
    args = ap.parse_args()
    for d in args.defsym:
        k, _, v = d.partition("=")
        parse_mod.DEFSYMS[k] = int(v, 0)
    print(f"{'file':<48} {'lines':>7} {'gcnemu':>8} {'(cpu)':>7} {'(1st)':>7} {'CLI':>7} {'llvm-mc':>8} {'(cpu)':>7}"
          f" {'ratio':>6} {'(cpu)':>6}")
    for f in args.files:
        path = Path(f)
        target = target_of(path)
        data = path.read_bytes()
        lines = data.count(b"\n")

        def ours():
            prog = parse_mod.parse(data, str(path), include_dirs=args.includes, target=target)
            validate(prog, target)

        wall, cpu, first = best(ours, args.repeat)
        mc_args = [LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=null", str(path.resolve())]
        mc_args += [f"-I{d}" for d in args.includes] + [f"--defsym={d}" for d in args.defsym]
        mc, mc_cpu = best_child(mc_args, path.parent, args.repeat)
        cli_args = [sys.executable, "-m", "gcnemu", "check", "--arch", target, str(path)]
        cli_args += [x for d in args.includes for x in ("-I", d)] + [x for d in args.defsym for x in ("--defsym", d)]
        t = time.perf_counter()
        subprocess.run(cli_args, capture_output=True)
        cli = time.perf_counter() - t
        name = path.name if len(path.name) <= 48 else path.name[:45] + "..."
        print(f"{name:<48} {lines:>7} {wall:>7.2f}s {cpu:>6.2f}s {first:>6.2f}s {cli:>6.2f}s {mc:>7.2f}s {mc_cpu:>6.2f}s"
              f" {wall / mc:>5.1f}x {cpu / max(mc_cpu, 1e-9):>5.1f}x", flush=True)


if __name__ == "__main__":
    main()
