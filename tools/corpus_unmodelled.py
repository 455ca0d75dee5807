"""Which instructions of a folder of real kernels `gcnemu run` cannot execute, per target.

A measurement tool (not run in CI): point it at upstream kernel folders (MIOpen's src/kernels,
hipBLASLt's tensilelite/Tensile/CustomKernels, llc output) to see which mnemonics real code uses
that `gcnemu check --list-unmodelled` would list. Each file is scanned for the mnemonics it
spells (macro bodies included, so a superset of what one configuration assembles), for every
target the file is for: its `.amdgcn_target`, a gfx name in its path, or else gfx908 and
gfx90a (MIOpen's generic gfx9 kernels). Files written as `.long` machine words are assembled by
llvm-mc 22 and disassembled by llvm-objdump 22, so their real instructions are counted too.

    python tools/corpus_unmodelled.py DIR_OR_FILE... [--json]
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from gcnemu.isa import mnemonics, modelled

LLVM = "/usr/lib/llvm-22/bin"
_TARGET = re.compile(r'\.amdgcn_target\s+"amdgcn-amd-amdhsa--(gfx[0-9a-f]+)')
# MIOpen names its gfx942 folders gfx940; gfx1030 folders are another generation
_ALIAS = {"gfx940": "gfx942", "gfx941": "gfx942"}
_TOKEN = re.compile(r"^\s*(?:[\w.$]+:\s*)?([a-z][a-z0-9_]*)\b", re.M)
_LONG = re.compile(r"^\s*\.long\s+0x", re.M)


def targets_of(path: Path, text: str) -> list[str]:
    m = _TARGET.search(text[:50000])
    found = [m.group(1)] if m else re.findall(r"gfx[0-9]+[0-9a-z]*", str(path))[-1:]
    if not found:
        return ["gfx908", "gfx90a"]
    t = _ALIAS.get(found[0], found[0])
    return [t] if t in mnemonics.TARGETS else []


def _disassembled(path: Path, text: str, target: str) -> str:
    """The instructions of a `.long` kernel, as llvm-objdump 22 prints them ("" if it does not assemble)."""
    with tempfile.TemporaryDirectory() as tmp:
        obj = f"{tmp}/k.o"
        src = f"{tmp}/k.s"  # (gfx941 is gfx942 to llvm 22, which no longer knows the name)
        Path(src).write_text(text.replace("--gfx941", "--gfx942"))
        p = subprocess.run([f"{LLVM}/llvm-mc", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj",
                            f"-I{path.parent}", "-o", obj, src], capture_output=True, text=True, cwd=path.parent)
        if p.returncode:
            print(f"{path}: llvm-mc refuses it for {target}, not counted", file=sys.stderr)
            return ""
        d = subprocess.run([f"{LLVM}/llvm-objdump", "-d", f"--mcpu={target}", "--no-show-raw-insn",
                            "--no-leading-addr", obj], capture_output=True, text=True)
        return d.stdout


def mnemonics_in(text: str, target: str) -> set[str]:
    """Base mnemonics (no _e32/_e64/_sdwa/_dpp) of `target` spelled at the start of a statement."""
    out = set()
    for tok in _TOKEN.findall(text):
        if mnemonics.exists(tok, target):
            out.add(mnemonics._split_suffix(tok)[0])
    return out


def scan(paths: list[Path]) -> dict[str, dict[str, list[str]]]:
    """target -> unexecuted mnemonic -> up to 3 files using it."""
    found: dict[str, dict[str, list[str]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    files = [f for p in paths for f in (sorted(p.rglob("*")) if p.is_dir() else [p])
             if f.suffix in (".s", ".S", ".inc", ".asm")]
    for f in files:
        text = f.read_text(errors="replace")
        for t in targets_of(f, text):
            body = text  # kernels shipped as machine words: their instructions as well
            if len(_LONG.findall(text)) > 100:
                body += _disassembled(f, text, t)
            for m in mnemonics_in(body, t):
                if not modelled.executes(m) and len(found[t][m]) < 3:
                    found[t][m].append(str(f))
    return {t: dict(sorted(v.items())) for t, v in sorted(found.items())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res = scan(args.paths)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        for t, ms in res.items():
            print(f"{t}: {len(ms)} unexecuted")
            for m, fs in ms.items():
                print(f"  {m:40s} {fs[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
