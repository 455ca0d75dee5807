"""`gcnemu lint --stats PATH...`: lint warnings per rule over a folder of kernels.

A precision report for a corpus: how many warnings each rule gives, in how many files, and which
files did not assemble (they are counted apart, not linted: distances in a program llvm-mc
refuses would be guesses). Each file is linted exactly as `gcnemu lint FILE` would.
"""
from __future__ import annotations

import collections
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..asm.diagnostics import GcnemuError
from .progress import Progress


@dataclass
class Stats:
    files: int = 0
    clean: int = 0
    refused: list[str] = field(default_factory=list)  # files with assembler errors: "path: first error (hint)"
    crashed: list[str] = field(default_factory=list)  # internal errors: a gcnemu bug, said so
    warnings: collections.Counter = field(default_factory=collections.Counter)  # rule -> count
    files_per_rule: collections.Counter = field(default_factory=collections.Counter)
    worst: dict = field(default_factory=dict)  # rule -> (count, file)

    def as_json(self) -> dict:
        return {"files": self.files, "clean": self.clean, "refused": self.refused, "crashed": self.crashed,
                "rules": [{"rule": r, "warnings": n, "files": self.files_per_rule[r],
                           "most_in": self.worst[r][1]} for r, n in self.warnings.most_common()]}


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(p.rglob("*.s"))
        elif p.exists():
            files.append(p)
        else:
            raise GcnemuError(f"{p}: no such file or directory")
    if not files:
        raise GcnemuError(f"no .s files under {', '.join(paths)}")
    return files


def gather(files: list[Path], arch: str | None, rules, progress: bool) -> Stats:
    from ..analysis.lint import lint
    from ..asm.parse import parse
    from ..asm.validate import program_target, validate
    from ..snippets.launch import launch_facts

    st = Stats()
    with Progress(len(files), "lint --stats", progress) as bar:
        for f in files:
            st.files += 1
            try:
                prog = parse(f.read_bytes(), str(f))
                target = program_target(prog, arch)
                errors = [d for d in prog.diagnostics + validate(prog, target) if d.severity == "error"]
                if errors:
                    st.refused.append(refusal(str(f), errors[0]))
                    continue
                diags = lint(prog, target, rules=rules, launch=launch_facts(prog))
            except GcnemuError as e:
                st.refused.append(refusal(str(f), e.diagnostics[0] if e.diagnostics else None, str(e)))
                continue
            except Exception as e:  # noqa: BLE001 - one bad file must not hide the others' counts
                st.crashed.append(f"{f}: {type(e).__name__}: {e}")
                continue
            finally:
                bar.advance(label=f.name)
            per = collections.Counter(d.rule for d in diags if d.severity == "warning")
            st.clean += not per
            for rule, n in per.items():
                st.warnings[rule] += n
                st.files_per_rule[rule] += 1
                if n > st.worst.get(rule, (0, ""))[0]:
                    st.worst[rule] = (n, str(f))
    return st


def refusal(path: str, d, text: str = "") -> str:
    """A refused file with its first error, and what usually cures it: real kernels are often
    built with symbols or a target their build system passes (MIOpen: --defsym, --arch)."""
    if d is not None:
        where = f"{d.span.line}:{d.span.column}: " if d.span is not None else ""
        text = f"{where}{d.message}"
    text = text if len(text) <= 160 else text[:157] + "..."
    low = text.lower()
    hint = ""
    if "undefined" in low or "symbol" in low or "not a known constant" in low or ".error" in low:
        hint = " (does its build pass --defsym NAME=VALUE?)"
    elif "not supported" in low or "invalid instruction" in low or "target" in low or "accum_offset" in low:
        hint = " (written for another target? --arch)"
    return f"{path}: {text}{hint}"


def render(st: Stats) -> str:
    linted = st.files - len(st.refused) - len(st.crashed)
    out = [f"{st.files} files: {linted} linted ({st.clean} without warnings), {len(st.refused)} refused by the "
           f"assembler checks, {len(st.crashed)} internal errors"]
    if st.warnings:
        width = max(len(r) for r in st.warnings)
        out.append(f"{'rule':<{width}}  warnings  files  most in")
        for rule, n in st.warnings.most_common():
            most_n, most_f = st.worst[rule]
            out.append(f"{rule:<{width}}  {n:8}  {st.files_per_rule[rule]:5}  {Path(most_f).name} ({most_n})")
        out.append(f"{'total':<{width}}  {sum(st.warnings.values()):8}")
    else:
        out.append("no warnings")
    out += [f"refused: {f}" for f in st.refused[:10]]
    if len(st.refused) > 10:
        out.append(f"refused: ... and {len(st.refused) - 10} more")
    out += [f"internal error: {c}" for c in st.crashed]
    return "\n".join(out)


def run(args, progress: bool) -> int:
    st = gather(collect(args.files), args.arch, args.rule, progress)
    print(json.dumps(st.as_json(), indent=2) if args.format == "json" else render(st))
    return 1 if st.crashed else 0
