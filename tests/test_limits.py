"""gcnemu/isa/data/limits.json: immediate ranges llvm-mc 22 enforces, per target.

Spec tests pin the values gcnemu relies on; where llvm-mc 22 is installed the
boundaries are re-measured: min and max assemble, min-1 and max+1 fail with the
recorded message, and the encodable bounds survive assemble+disassemble while
the values just beyond them do not.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from importlib import resources

import pytest

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
LIMITS = json.loads(resources.files("gcnemu.isa").joinpath("data/limits.json").read_text())


def test_shape():
    assert set(LIMITS["targets"]) == set(TARGETS)
    for t in TARGETS:
        for name, rec in LIMITS["targets"][t].items():
            assert "{v}" in rec["syntax"], name
            for k in ("min", "max", "encodable_min", "encodable_max"):
                assert rec[k] is None or isinstance(rec[k], int), (t, name, k)


@pytest.mark.parametrize("target", TARGETS)
def test_known_values(target):
    lim = LIMITS["targets"][target]
    assert (lim["s_waitcnt.vmcnt"]["min"], lim["s_waitcnt.vmcnt"]["max"]) == (0, 63)
    assert lim["s_waitcnt.expcnt"]["max"] == 7
    assert lim["s_waitcnt.lgkmcnt"]["max"] == 15
    assert lim["s_waitcnt.vmcnt"]["error_above"] == "too large value for vmcnt"
    assert (lim["ds.offset"]["min"], lim["ds.offset"]["max"]) == (0, 65535)
    assert (lim["ds.offset0"]["max"], lim["ds.offset1"]["max"]) == (255, 255)
    assert (lim["flat.offset"]["min"], lim["flat.offset"]["max"]) == (0, 4095)
    for k in ("global.offset", "global.saddr.offset", "scratch.offset", "scratch.saddr.offset"):
        assert (lim[k]["min"], lim[k]["max"]) == (-4096, 4095), k
    assert lim["global.offset"]["error_above"] == "expected a 13-bit signed offset"
    # llvm-mc 22 accepts MUBUF/MTBUF offsets up to 65535 but only 12 bits reach the encoding
    assert (lim["mubuf.offset"]["max"], lim["mubuf.offset"]["encodable_max"]) == (65535, 4095)
    assert (lim["mtbuf.offset"]["max"], lim["mtbuf.offset"]["encodable_max"]) == (65535, 4095)
    # s_nop takes any integer; the low 16 bits are encoded
    assert (lim["s_nop"]["min"], lim["s_nop"]["max"]) == (None, None)
    assert (lim["s_nop"]["encodable_min"], lim["s_nop"]["encodable_max"]) == (0, 65535)
    assert (lim["smem.offset"]["min"], lim["smem.offset"]["max"]) == (-(1 << 20), (1 << 20) - 1)


# --------------------------------------------------------------------------
# re-measure with llvm-mc 22
# --------------------------------------------------------------------------

def _find_llvm_mc() -> str | None:
    for cand in (os.environ.get("LLVM_MC"), "/usr/lib/llvm-22/bin/llvm-mc",
                 shutil.which("llvm-mc-22"), shutil.which("llvm-mc")):
        if cand and os.path.exists(cand):
            out = subprocess.run([cand, "--version"], capture_output=True, text=True).stdout
            if re.search(r"LLVM version 22\.", out):
                return cand
    return None


LLVM_MC = _find_llvm_mc()
needs_llvm = pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc 22 not installed")
PROBE_SPAN = 1 << 40


def _assemble(target: str, lines: list[str]) -> tuple[list[str], list[bytes | None]]:
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    errs: dict[int, str] = {}
    for l in r.stderr.splitlines():
        m = re.match(r"<stdin>:(\d+):\d+: error: (.*)", l)
        if m:
            errs.setdefault(int(m.group(1)) - 1, m.group(2).strip())
    enc = iter(bytes(int(x, 16) for x in m.group(1).split(","))
               for m in re.finditer(r"; encoding: \[([^\]]*)\]", r.stdout))
    blobs = [None if i in errs else next(enc) for i in range(len(lines))]
    return [errs.get(i, "") for i in range(len(lines))], blobs


def _disassemble_one(target: str, blob: bytes) -> str:
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-disassemble"],
                       input=",".join(f"0x{b:02x}" for b in blob) + "\n", capture_output=True, text=True)
    return r.stdout.strip().splitlines()[0].strip()


def _read_back(syntax: str, text: str) -> int:
    head = syntax.split("{v}")[0]
    key = ", " if head.endswith(", ") else head.rstrip().split()[-1] + " " if head.endswith(" ") \
        else re.split(r"[ (]", head)[-1]
    m = re.search(re.escape(key) + r"(-?(?:0x[0-9a-fA-F]+|\d+))", text)
    if not m:
        return 0  # the printer omits a zero offset
    s = m.group(1)
    v = int(s.lstrip("-"), 16) if s.lstrip("-").startswith("0x") else int(s.lstrip("-"))
    return -v if s.startswith("-") else v


@needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_accepted_boundaries(target):
    lines, expect = [], []
    for name, rec in LIMITS["targets"][target].items():
        for bound, step, err_key in (("max", 1, "error_above"), ("min", -1, "error_below")):
            v = rec[bound]
            if v is None:  # unbounded: a far value is accepted
                lines.append(rec["syntax"].format(v=step * PROBE_SPAN))
                expect.append((name, ""))
                continue
            lines.append(rec["syntax"].format(v=v))
            expect.append((name, ""))
            lines.append(rec["syntax"].format(v=v + step))
            expect.append((name, rec[err_key]))
    got, _ = _assemble(target, lines)
    bad = [(l, e, g) for l, (n, e), g in zip(lines, expect, got) if g != e]
    assert not bad, bad


@needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_encodable_boundaries(target):
    cases = []
    for name, rec in LIMITS["targets"][target].items():
        for bound, step in (("encodable_max", 1), ("encodable_min", -1)):
            v = rec[bound]
            if v is None:
                continue
            cases.append((rec["syntax"], v, True))
            accepted = rec["max" if step > 0 else "min"]
            if accepted is None or (v + step) * step <= accepted * step:
                cases.append((rec["syntax"], v + step, False))
    assert cases
    errs, blobs = _assemble(target, [s.format(v=v) for s, v, _ in cases])
    for (syntax, v, faithful), err, blob in zip(cases, errs, blobs):
        if blob is None:
            assert not faithful, (syntax, v, err)
            continue
        back = _read_back(syntax, _disassemble_one(target, blob))
        assert (back == v) == faithful, (syntax.format(v=v), back)
