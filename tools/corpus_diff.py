"""Whole-file differential of `gcnemu check` against llvm-mc 22 over real kernels you have on disk.

    python tools/corpus_diff.py [--target gfx90a] [-I DIR] [--defsym N=V] [--jobs 2] PATH...

PATH is a file or a folder (searched for *.s). Each file is assembled by llvm-mc 22 as an object
(`-filetype=obj`, so errors found only at emission count) for its own target (its
`.amdgcn_target`, else a gfxNNN in its path, else --target) and checked by gcnemu. A file agrees
when both accept it, or both reject it and gcnemu reports an error on every line where llvm-mc
does (errors llvm-mc reports inside `<instantiation>` buffers count as matched by any gcnemu
error in the file). The table groups the disagreements by message, most frequent first.

No kernel is stored in this repository: point it at a checkout of MIOpen (src/kernels), of
hipBLASLt (tensilelite/Tensile/CustomKernels) or at your own kernels. The README's figures come
from this script.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LLVM_MC = os.environ.get("GCNEMU_LLVM_MC", "/usr/lib/llvm-22/bin/llvm-mc")
MODELLED = ("gfx908", "gfx90a", "gfx942", "gfx950")
_TARGET = re.compile(r'\.amdgcn_target\s+"amdgcn-amd-amdhsa--(gfx[0-9a-z]+)')
_ERROR = re.compile(r"^(.*?):(\d+):\d+: error: (.*)$")


def target_of(path: Path, default: str) -> str:
    m = _TARGET.search(path.read_text(errors="replace")[:50000])
    if m:
        return m.group(1)
    found = re.findall(r"gfx[0-9]+[0-9a-z]*", str(path))
    return found[-1] if found else default


def llvm_mc(path: Path, target: str, includes: list[str], defsyms: list[str]) -> tuple[bool, set, str, float]:
    gpu, *features = target.split(":")  # a target id: gfx908:xnack- is -mcpu=gfx908 -mattr=-xnack
    args = [LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={gpu}", "-filetype=obj", "-o", os.devnull]
    if features:
        args.append("-mattr=" + ",".join(f[-1] + f[:-1] for f in features))
    args += [f"-I{d}" for d in includes] + [f"--defsym={d}" for d in defsyms] + [str(path.resolve())]
    t = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True, cwd=path.parent)
    dt = time.perf_counter() - t
    lines = set()
    for line in p.stderr.splitlines():
        m = _ERROR.match(line)
        if m:
            lines.add((Path(m.group(1)).name, int(m.group(2))))
    return p.returncode == 0, lines, p.stderr, dt


def gcnemu(path: Path, target: str, includes: list[str], defsyms: list[str]) -> tuple[dict, float]:
    from gcnemu.asm import parse as parse_mod
    from gcnemu.asm import resolve as resolve_mod
    from gcnemu.asm.validate import validate
    target, *features = target.split(":")
    resolve_mod.TARGET_FEATURES.clear()
    resolve_mod.TARGET_FEATURES.update({f[:-1]: f[-1] == "+" for f in features})
    parse_mod.DEFSYMS.clear()
    for d in defsyms:
        k, _, v = d.partition("=")
        parse_mod.DEFSYMS[k] = int(v, 0)
    t = time.perf_counter()
    prog = parse_mod.parse(path.read_bytes(), str(path), include_dirs=includes, target=target)
    errors = [d for d in validate(prog, target) if d.severity == "error"]  # parse diagnostics included
    resolve_mod.TARGET_FEATURES.clear()
    dt = time.perf_counter() - t
    return {(Path(d.span.file).name, d.span.line): d.message for d in errors if d.span}, dt


def one(job) -> dict:
    path, default, includes, defsyms = job
    path = Path(path)
    target = target_of(path, default)
    if target.split(":")[0] in ("gfx940", "gfx941"):  # gone from LLVM 22 (gcnemu reads them as gfx942)
        return {"file": str(path), "status": "skipped", "why": f"llvm-mc 22 does not know {target}"}
    if target.split(":")[0] not in MODELLED:
        return {"file": str(path), "status": "skipped", "why": f"target {target} is not modelled"}
    ok, theirs, stderr, t_mc = llvm_mc(path, target, includes, defsyms)
    try:
        mine, t_ours = gcnemu(path, target, includes, defsyms)
    except Exception as e:  # a crash is a finding, not a verdict
        return {"file": str(path), "status": "crash", "why": repr(e)}
    real = {k for k in theirs if not k[0].startswith("<")}
    if ok:
        agree = not mine
    else:
        agree = bool(mine) and real <= set(mine)
    first_mc = next((l.split("error:", 1)[1].strip() for l in stderr.splitlines() if "error:" in l), "")
    return {"file": str(path), "status": "agree" if agree else "disagree", "target": target, "llvm_ok": ok,
            "ours": sorted(f"{f}:{ln}: {m}" for (f, ln), m in mine.items())[:3], "theirs": first_mc,
            "lines": sum(1 for _ in open(path, "rb")), "t_mc": t_mc, "t_ours": t_ours}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--target", default="gfx90a", help="for files that name no target")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("--defsym", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    files = []
    for p in map(Path, args.paths):
        files += sorted(p.rglob("*.s")) if p.is_dir() else [p]
    jobs = [(str(f), args.target, args.includes, args.defsym) for f in files]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, jobs, chunksize=4))
    count = collections.Counter(r["status"] for r in results)
    classes = collections.Counter()
    example = {}
    for r in results:
        if r["status"] == "disagree":
            key = (f"llvm-mc rejects ({r['theirs'][:70]}), gcnemu accepts" if not r["ours"] else
                   re.sub(r"'[^']*'", "'X'", r["ours"][0].split(": ", 1)[1])[:90] +
                   (" (llvm-mc accepts)" if r["llvm_ok"] else " (other lines than llvm-mc)"))
            classes[key] += 1
            example.setdefault(key, r["ours"][0] if r["ours"] else r["file"])
        elif r["status"] in ("crash", "skipped"):
            classes[f"{r['status']}: {r['why'][:90]}"] += 1
    checked = count["agree"] + count["disagree"] + count["crash"]
    print(f"{checked} files checked ({count['skipped']} skipped): {count['agree']} agree with llvm-mc 22, "
          f"{count['disagree']} disagree, {count['crash']} crashed")
    timed = [r for r in results if "t_ours" in r]
    if timed:
        big = max(timed, key=lambda r: r["lines"])
        print(f"largest: {big['file']} ({big['lines']} lines): gcnemu parse+validate {big['t_ours']:.2f} s, "
              f"llvm-mc {big['t_mc']:.2f} s ({big['t_ours'] / big['t_mc']:.1f}x)")
    for key, n in classes.most_common(25):
        print(f"{n:5}  {key}\n       e.g. {example.get(key, '')}")
    return 0 if not count["disagree"] and not count["crash"] else 1


if __name__ == "__main__":
    sys.exit(main())
