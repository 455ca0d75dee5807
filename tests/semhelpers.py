"""A tiny harness for instruction-semantics tests: run a snippet on one wave, read registers back.

    r = run("v_add_u32 v2, v0, v1", v={0: a, 1: b})
    assert (r.v(2) == a + b).all()

Registers are poked straight into the wave state before the run (any SGPR slot,
VGPR/AGPR lanes, EXEC, VCC, SCC), so a test states exactly the machine state it
needs. Every snippet is also assembled with llvm-mc for the target (when it is
installed) so that tests only use syntax the real assembler accepts.
"""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
from dataclasses import dataclass

import numpy as np

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import Setup
from gcnemu.simulation import Simulation
from gcnemu.sim.state import WAVE

# llvm-mc 22 is the syntax oracle; an older llvm-mc on PATH lacks gfx942/gfx950 syntax
LLVM_MC = next((p for p in ("/usr/lib/llvm-22/bin/llvm-mc", shutil.which("llvm-mc-22")) if p and shutil.which(p)),
               None)
HAVE_LLVM_MC = LLVM_MC is not None
TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
RNG = np.random.default_rng(1234)

_SREG = re.compile(r"^s(\d+)$|^s\[(\d+):(\d+)\]$")
_VREG = re.compile(r"^([va])(\d+)$|^([va])\[(\d+):(\d+)\]$")
_SPECIAL = {"vcc": (106, 2), "exec": (126, 2), "m0": (124, 1), "vcc_lo": (106, 1), "vcc_hi": (107, 1),
            "exec_lo": (126, 1), "exec_hi": (127, 1), "flat_scratch": (102, 2)}


@functools.lru_cache(maxsize=None)
def llvm_mc_errors(text: str, target: str) -> str:
    """llvm-mc's complaints about `text` on `target` ('' when it assembles)."""
    if not HAVE_LLVM_MC:
        return ""
    proc = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding", "-o", "/dev/null"],
                          input=text, capture_output=True, text=True)
    return proc.stderr.strip() if proc.returncode or "error" in proc.stderr else ""


def u32(x) -> np.ndarray:
    """Any lane values (ints, floats as float32 bits, arrays, scalars) as uint32[64]."""
    arr = np.asarray(x)
    if arr.dtype == np.float32:
        arr = arr.view(np.uint32)
    elif arr.dtype.kind == "f":
        arr = arr.astype(np.float32).view(np.uint32)
    elif arr.dtype.kind in "iu":
        arr = (arr.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32) if arr.dtype != np.uint64 else \
            (arr & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    return np.broadcast_to(arr.astype(np.uint32), (WAVE,)).copy()


def lanes_mask(bits: np.ndarray) -> int:
    return int(np.packbits(np.asarray(bits, dtype=bool).astype(np.uint8), bitorder="little").view(np.uint64)[0])


@dataclass
class Result:
    sim: Simulation

    @property
    def w(self):
        return self.sim.wave(0)

    def s(self, slot: int) -> int:
        return int(self.w.sgpr[slot])

    def s64(self, slot: int) -> int:
        return int(self.w.sgpr[slot]) | (int(self.w.sgpr[slot + 1]) << 32)

    def v(self, i: int) -> np.ndarray:
        return self.w.vgpr[i].copy()

    def a(self, i: int) -> np.ndarray:
        return self.w.agpr[i].copy()

    def v64(self, i: int) -> np.ndarray:
        return self.w.vgpr[i].astype(np.uint64) | (self.w.vgpr[i + 1].astype(np.uint64) << np.uint64(32))

    def f32(self, i: int) -> np.ndarray:
        return self.v(i).view(np.float32)

    def f64(self, i: int) -> np.ndarray:
        return self.v64(i).view(np.float64)

    def f16(self, i: int, hi: bool = False) -> np.ndarray:
        return ((self.v(i) >> (16 if hi else 0)) & 0xFFFF).astype(np.uint16).view(np.float16)

    @property
    def scc(self) -> int:
        return self.w.scc

    @property
    def vcc(self) -> int:
        return self.s64(106)

    @property
    def exec(self) -> int:
        return self.s64(126)

    def mask(self, slot: int) -> np.ndarray:
        """bool[64] lane mask held in SGPR pair `slot`."""
        v = self.s64(slot)
        return ((np.uint64(v) >> np.arange(WAVE, dtype=np.uint64)) & np.uint64(1)).astype(bool)

    @property
    def notes(self) -> list[str]:
        return [n for _, n in self.sim.engine.notes]


def _set_sgpr(w, key, value: int) -> None:
    if isinstance(key, int):
        slot, n = key, (2 if value > 0xFFFFFFFF else 1)
    elif key in _SPECIAL:
        slot, n = _SPECIAL[key]
    else:
        m = _SREG.match(key)
        assert m, key
        slot, n = (int(m.group(1)), 1) if m.group(1) else (int(m.group(2)), int(m.group(3)) - int(m.group(2)) + 1)
    value = int(value)
    w.set_sgpr(slot, np.array([(value >> (32 * k)) & 0xFFFFFFFF for k in range(n)], dtype=np.uint32))


def _set_vreg(w, key, value) -> None:
    if isinstance(key, int):
        file, lo, n = "v", key, 1
    else:
        m = _VREG.match(key)
        assert m, key
        if m.group(1):
            file, lo, n = m.group(1), int(m.group(2)), 1
        else:
            file, lo, n = m.group(3), int(m.group(4)), int(m.group(5)) - int(m.group(4)) + 1
    arr, init = w.file(file)
    if n == 1:
        arr[lo] = u32(value)
        init[lo] = True
        return
    val = np.asarray(value)
    if n == 2 and val.ndim <= 1:  # 64-bit lanes
        if val.dtype.kind == "f":
            val = val.astype(np.float64).view(np.uint64)
        val = np.broadcast_to(val.astype(np.uint64), (WAVE,))
        arr[lo] = (val & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        arr[lo + 1] = (val >> np.uint64(32)).astype(np.uint32)
    else:
        for k in range(n):
            arr[lo + k] = u32(val[k])
    init[lo:lo + n] = True


def run(asm: str, target: str = "gfx90a", *, s: dict | None = None, v: dict | None = None,
        a: dict | None = None, exec: int | np.ndarray | None = None, vcc: int | None = None,
        scc: int | None = None, buffers: dict | None = None, check: bool = True,
        expect_error: str | None = None, mode=None) -> Result:
    """Run `asm` (s_endpgm appended) on one wave64 of `target`.

    buffers: {name: (array, "s[4:5]")} puts the buffer's address into that SGPR pair,
    {name: (array, "s[8:11]", "rsrc")} a buffer descriptor V# (num_records = size).
    """
    text = asm.strip("\n")
    if not re.search(r"^\s*s_endpgm\b", text, re.M):
        text += "\ns_endpgm"
    text += "\n"
    if check:
        errors = llvm_mc_errors(text, target)
        assert not errors, f"llvm-mc rejects the test snippet on {target}:\n{errors}"
    prog = gcnemu.parse(text, "<test>")
    assert not prog.diagnostics, prog.diagnostics
    kernel = resolve(prog, target, validate_first=False)
    setup = Setup(kernarg_sgpr=None, workgroup_id_sgprs={})
    rsrc_regs = {}
    for name, spec in (buffers or {}).items():
        data, reg = spec[0], spec[1]
        if len(spec) > 2 and spec[2] == "rsrc":
            setup.buffers.append(gcnemu.setup.BufferSpec(name, np.asarray(data), rsrc=reg))
            rsrc_regs[name] = reg
        else:
            setup.add_buffer(name, data, sgpr=reg)
    sim = Simulation(kernel, setup, abi_from_file=False)
    w = sim.wave(0)
    for key, value in (s or {}).items():
        _set_sgpr(w, key, value)
    for key, value in (v or {}).items():
        _set_vreg(w, key, value)
    for key, value in (a or {}).items():
        _set_vreg(w, f"a{key}" if isinstance(key, int) else key, value)
    if exec is not None:
        _set_sgpr(w, "exec", exec if isinstance(exec, int) else lanes_mask(exec))
    if vcc is not None:
        _set_sgpr(w, "vcc", vcc if isinstance(vcc, int) else lanes_mask(vcc))
    if scc is not None:
        w.scc = int(scc)
    if mode is not None:
        sim.engine.float_mode = mode  # the MODE a kernel descriptor would set
    sim.run()
    if expect_error is not None:
        assert sim.error is not None, f"expected an error containing {expect_error!r}"
        assert expect_error in sim.error.message, sim.error.message
    else:
        assert sim.error is None, f"{sim.error}"
    return Result(sim)


def rand_u32(n: int = WAVE) -> np.ndarray:
    return RNG.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)


def rand_f32(n: int = WAVE, scale: float = 100.0) -> np.ndarray:
    return (RNG.standard_normal(n) * scale).astype(np.float32)


def with_edges_u32(n: int = WAVE) -> np.ndarray:
    """Random uint32 lanes with the usual edge values in the first lanes."""
    x = rand_u32(n)
    edges = np.array([0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0x10000, 0xFFFF],
                     dtype=np.uint32)
    x[: len(edges)] = edges
    return x


def f32_specials() -> np.ndarray:
    """float32 lanes covering zeros, denormals, infinities, NaNs, rounding edges, then random values."""
    x = rand_f32()
    sp = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 3.4e38, -3.4e38,
                   1.17549435e-38, 0.5, 1.5, 2.5, -2.5, 65504.0, 65520.0, 1e-8, 6e-8], dtype=np.float32)
    x[: len(sp)] = sp
    x[len(sp)] = np.uint32(0x7F800001).view(np.float32)  # a signalling NaN
    return x
