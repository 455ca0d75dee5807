"""Lint time on a generated 20k-instruction kernel (issue 6 target: under 1 second).

    python benchmarks/bench_lint.py [--instructions N] [--arch gfx90a] [--repeat 3]

The kernel is a realistic mix, generated deterministically: K loops of
global loads -> LDS -> MFMA chains with their s_waitcnt and s_nop, VALU
epilogues, branches and joins; it lints clean on gfx90a (on gfx942/gfx950 the v_cmp -> v_cndmask
vcc pair is a real valu-sgpr-valu-read hazard), so every consumer walks its
full window (the worst case for the wait-state search).  Parse time is
reported separately; "lint" is classification + CFG + both analyses +
diagnostics.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from gcnemu.analysis.lint import lint
from gcnemu.asm.parse import parse

BLOCK = """\
loop{n}:
\tglobal_load_dwordx2 v[2:3], v1, s[4:5]
\tglobal_load_dwordx2 v[4:5], v1, s[6:7]
\ts_waitcnt vmcnt(0)
\tds_write_b64 v1, v[2:3]
\tds_write_b64 v1, v[4:5] offset:512
\ts_waitcnt lgkmcnt(0)
\ts_barrier
\tds_read_b64 v[6:7], v1
\tds_read_b64 v[8:9], v1 offset:512
\ts_waitcnt lgkmcnt(0)
\tv_mfma_f32_32x32x8f16 v[64:79], v[6:7], v[8:9], v[64:79]
\tv_mfma_f32_32x32x8f16 v[64:79], v[8:9], v[6:7], v[64:79]
\ts_add_u32 s4, s4, 16
\ts_addc_u32 s5, s5, 0
\ts_sub_u32 s10, s10, 1
\ts_cmp_lg_u32 s10, 0
\ts_cbranch_scc1 loop{n}
\ts_nop 15
\ts_nop 2
\tv_add_f32 v20, v64, v65
\tv_mul_f32 v21, v20, v66
\tv_fma_f32 v22, v21, v67, v20
\tv_cmp_gt_f32 vcc, v22, v23
\tv_cndmask_b32 v24, v22, v23, vcc
\ts_cbranch_vccz skip{n}
\tv_max_f32 v24, v24, v25
skip{n}:
\tglobal_store_dword v1, v24, s[8:9]
\tv_mov_b32 v64, 0
"""


BRANCHY = """\
b{n}:
\tglobal_load_dword v{d}, v[0:1], off
\tds_read_b32 v{e}, v1
\ts_cmp_eq_u32 s{s}, {n}
\ts_cbranch_scc0 skip{n}
\tv_add_f32 v2, v3, v4
skip{n}:
\tv_mul_f32 v5, v2, v6
"""


BRANCHY_LOADS = """\
b{n}:
\ts_cmp_eq_u32 s{s}, {n}
\ts_cbranch_scc0 skip{n}
\tglobal_load_dword v{d}, v[0:1], off
\tds_read_b32 v{e}, v1
skip{n}:
\tv_add_f32 v2, v3, v4
\tv_mul_f32 v5, v2, v6
"""


def branchy(instructions: int, conditional_loads: bool = False) -> str:
    """A branch every few instructions (issue 16): loads and LDS reads stay outstanding across
    many small blocks, so every instruction is checked against long queues, block by block.
    With ``conditional_loads`` the loads sit inside the skipped blocks, so the paths differ in
    what is outstanding and several counter states reach each instruction."""
    out = ["\t.text", "k:"]
    n = 0
    body = BRANCHY_LOADS if conditional_loads else BRANCHY
    while len(out) < instructions:
        out += body.format(n=n, s=20 + n % 10, d=10 + n % 8, e=30 + n % 8).splitlines()
        n += 1
        if n % 4 == 0:
            out.append("\ts_waitcnt vmcnt(4) lgkmcnt(4)")
            out.append(f"\tv_add_f32 v40, v{10 + (n - 4) % 8}, v{30 + (n - 4) % 8}")
    return "\n".join(out + ["\ts_waitcnt vmcnt(0) lgkmcnt(0)", "\ts_endpgm"]) + "\n"


def kernel(instructions: int) -> str:
    per_block = sum(1 for ln in BLOCK.splitlines() if ln.startswith("\t"))
    blocks = -(-instructions // per_block)
    head = "\t.text\nk:\n\ts_load_dwordx4 s[4:7], s[0:1], 0x0\n\ts_load_dwordx2 s[8:9], s[0:1], 0x10\n" \
           "\ts_waitcnt lgkmcnt(0)\n"
    return head + "".join(BLOCK.format(n=n) for n in range(blocks)) + "\ts_endpgm\n"


TENSILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "corpus", "tensile",
                       "Custom_Cijk_Alik_Bljk_HHS_BH_UserArgs_MT128x16x128_MI16x16x1_SN_K1_MIWT2_1_triple_buffer.s")


def _cpu(fn, repeat: int) -> float:
    """Best CPU time of ``repeat`` calls (CPU, not wall: the machine is shared)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _no_counter_memo():
    """Context: CounterAnalysis without its check caches (what every state cost before issue 16)."""
    import contextlib

    from gcnemu.analysis import counters as cm

    class NoMemo(dict):
        def get(self, key, default=None):
            return default

        def __setitem__(self, key, value):
            pass

    @contextlib.contextmanager
    def ctx():
        orig = cm.CounterAnalysis.__init__

        def init(self, *a, **k):
            orig(self, *a, **k)
            self._state_memo, self._pair_memo, self._units_memo, self._ret_memo = NoMemo(), NoMemo(), NoMemo(), NoMemo()
        cm.CounterAnalysis.__init__ = init
        try:
            yield
        finally:
            cm.CounterAnalysis.__init__ = orig
    return ctx()


def _file_row(path: str, arch: str | None, repeat: int) -> None:
    with open(path, "rb") as fh:
        data = fh.read()
    if arch is None:
        arch = "gfx942" if b"gfx94" in data[:20000] else "gfx90a"
    t0 = time.process_time()
    prog = parse(data, path)
    t_parse = time.process_time() - t0
    t0 = time.process_time()
    lint(prog, arch)  # cold: the first lint in this process, as `gcnemu lint FILE` meets it
    t_cold = time.process_time() - t0
    t_lint = float("inf")
    for _ in range(repeat):  # warm: lint alone, on a fresh parse each time
        p2 = parse(data, path)
        t0 = time.process_time()
        lint(p2, arch)
        t_lint = min(t_lint, time.process_time() - t0)
    lines = data.count(b"\n")
    verdict = "met" if t_parse + t_cold < 10.0 else "MISSED"
    print(f"  {os.path.basename(path)[:60]}: {lines} lines, {len(prog.instructions)} instructions ({arch})")
    print(f"    parse {t_parse:.2f} s, lint {t_cold:.2f} s CPU cold ({t_lint:.2f} s warm)   target: parse + lint < 10 s: {verdict}")


BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"  # Debian's rocm-device-libs


def ocml_library(target: str, out_dir: str) -> str | None:
    """llc-22's assembly of ROCm's whole ocml library for `target` (issue 24: 47,735 lines took
    123 s to lint): the bitcode as shipped, its native_*_f64 bodies turned into declarations
    (llc cannot select their f64 sin/cos intrinsics). None without llvm-22 or the bitcode."""
    import re
    src = os.path.join(BITCODE, "ocml.bc")
    if not (os.path.exists(src) and os.path.exists("/usr/bin/llc-22")):
        return None
    ll = os.path.join(out_dir, "ocml.ll")
    subprocess.run(["llvm-dis-22", src, "-o", ll], check=True)
    out, skip = [], False
    for line in open(ll).read().split("\n"):
        if line.startswith("define") and "native_" in line and "_f64" in line:
            decl = re.sub(r"^define\s+(linkonce_odr\s+|weak\s+|internal\s+)?", "declare ", line)
            out.append(re.sub(r"\s*#\d+\s*\{\s*$", "", decl).rstrip(" {"))
            skip = True
        elif skip:
            skip = line != "}"
        else:
            out.append(line)
    with open(ll, "w") as fh:
        fh.write("\n".join(out))
    asm = os.path.join(out_dir, f"ocml_{target}.s")
    subprocess.run(["llvm-as-22", ll, "-o", ll + ".bc"], check=True)
    subprocess.run(["llc-22", "-O2", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", ll + ".bc", "-o", asm],
                   check=True)
    return asm


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--instructions", type=int, default=20_000)
    ap.add_argument("--arch", default="gfx90a")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--file", action="append", default=[], help="also lint these real kernels (repeatable)")
    ap.add_argument("--ocml", metavar="TARGET", help="also build ROCm's ocml library with llc-22 and lint it")
    a = ap.parse_args()
    if a.ocml:
        d = tempfile.mkdtemp()
        path = ocml_library(a.ocml, d)
        if path is None:
            print("  ocml: skipped (needs llvm-22 and rocm-device-libs)")
        else:
            a.file.append(path)
    text = kernel(a.instructions)
    # cold: the first parse and the first lint in this process, as `gcnemu lint` meets them
    t0 = time.perf_counter()
    prog = parse(text, "bench.s")
    t_parse = time.perf_counter() - t0
    t0 = time.perf_counter()
    diags = lint(prog, a.arch)
    t_cold = time.perf_counter() - t0
    n = len(prog.instructions)
    best = float("inf")
    for _ in range(a.repeat):  # warm: fresh parse each time, so no per-program memo is reused
        p2 = parse(text, "bench.s")
        t0 = time.perf_counter()
        lint(p2, a.arch)
        best = min(best, time.perf_counter() - t0)
    # end to end: the CLI in a fresh interpreter (imports, read, parse, validate, lint, print)
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text)
    try:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gcnemu", "lint", "--arch", a.arch, f.name],
                       capture_output=True, check=False)
        t_cli = time.perf_counter() - t0
    finally:
        os.unlink(f.name)
    warnings = sum(d.severity == "warning" for d in diags)
    print(f"{n} instructions ({a.arch}), {warnings} warnings")
    print(f"  parse (cold)           {t_parse:.3f} s")
    print(f"  lint (cold)            {t_cold:.3f} s   target < 1 s: {'met' if t_cold < 1.0 else 'MISSED'}")
    print(f"  lint (warm, best of {a.repeat}) {best:.3f} s")
    print(f"  parse + lint (cold)    {t_parse + t_cold:.3f} s")
    print(f"  `gcnemu lint` end to end (fresh process, incl. validation) {t_cli:.3f} s")

    # issue 16: a branch every few instructions; CPU per instruction against straight-line code,
    # and the counter checks with and without their caches
    print("branchy code (CPU, best of %d):" % a.repeat)
    for label, src in (("straight-line", kernel(2000)), ("branch every 5", branchy(2000)),
                       ("branch every 6, conditional loads", branchy(400, conditional_loads=True))):
        progs = parse(src, "b.s")
        ni = len(progs.instructions)
        memo = _cpu(lambda: lint(parse(src, "b.s"), "gfx942"), a.repeat)
        with _no_counter_memo():
            fresh = _cpu(lambda: lint(parse(src, "b.s"), "gfx942"), a.repeat)
        print(f"  {label:36} {ni:5} instr  {1e6 * memo / ni:7.0f} us/instr, counter caches off "
              f"{1e6 * fresh / ni:7.0f} us/instr ({fresh / memo:.2f}x)")

    print("real kernels:")
    for path in [TENSILE] + a.file:
        _file_row(path, None, a.repeat)


if __name__ == "__main__":
    main()
