"""A snippet header's launch: buffers, arguments, register and LDS values evaluated into a `Setup`
(plus the per-wave register patches the Simulation applies after launch), and the launch facts
the linter needs."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from .header import (
    BufferDecl, Header, LdsInit, RegInit, RegRef, TYPE_BYTES, cast_to, default_type, np_dtype, parse_directive,
    parse_header, words_from_typed,
)
from ..setup import Setup
from ..asm.program import Program

# ---------------------------------------------------------------- building the launch


@dataclass
class WavePatch:
    """A register value that differs between waves (Setup holds one value for all waves)."""

    wave: int
    reg: RegRef
    words: np.ndarray  # uint32[count, 64] or uint32[count]


@dataclass
class SnippetBuild:
    """The evaluated header: a Setup plus what Setup cannot say and what checks need."""

    setup: Setup
    patches: list[WavePatch]
    inputs: dict[str, np.ndarray]  # buffer name -> initial contents (typed, shaped)
    buffer_types: dict[str, tuple[str, tuple]]
    arg_values: dict[str, Any]
    latencies: dict[str, int]


def lane_env(setup: Setup, wave: int) -> dict[str, Any]:
    """Per-lane names for register expressions: lane, wave, tid and its x/y/z parts."""
    lane = np.arange(64, dtype=np.int64)
    tid = wave * 64 + lane
    x, y, _ = setup.workgroup_size
    return {"lane": lane, "wave": wave, "tid": tid, "tid_x": tid % x, "tid_y": (tid // x) % y,
            "tid_z": tid // (x * y)}


def build(header: Header, target, base_dir: str | None = None, abi_program: Program | None = None) -> SnippetBuild:
    """Evaluate a header into a Setup for `target` (a Target)."""
    setup = Setup()
    if header.kernel is not None:
        setup.kernel = header.kernel[0]
    if abi_program is not None:
        from ..setup import abi_from_program
        from ..asm.diagnostics import GcnemuError
        try:
            abi_from_program(abi_program, setup, target.name)
        except GcnemuError as e:
            if header.kernel is None or e.diagnostics:
                raise
            raise header.kernel[1].error(str(e)) from None
    if header.workgroup:
        setup.workgroup_size = header.workgroup[0]
    if header.waves:
        n, src = header.waves
        if header.workgroup and setup.num_waves != n:
            raise src.error(f"waves: {n} disagrees with the workgroup size ({setup.threads} work-items make "
                            f"{setup.num_waves} waves)")
        if not header.workgroup:
            setup.workgroup_size = (64 * n, 1, 1)
    if setup.num_waves > target.max_waves_per_workgroup:
        raise header.workgroup[1].error(f"{setup.num_waves} waves exceed the {target.max_waves_per_workgroup} "
                                        f"waves of a workgroup on {target.name}")
    if header.workgroup_id:
        setup.workgroup_id = header.workgroup_id
    if header.scratch is not None:
        setup.private_segment_size = header.scratch
    if header.kernarg:
        setup.kernarg_sgpr = header.kernarg[0]
    if header.lds_dynamic is not None:
        setup.lds_dynamic, src = header.lds_dynamic
        desc = setup.descriptor
        if desc is None and setup.lds_dynamic:
            raise src.error("dynamic LDS needs a kernel description (an .amdhsa_kernel block or .amdgpu_metadata) "
                            "to add it to; without one the whole LDS is usable")
        if desc is not None and desc.group_segment_size + setup.lds_dynamic > target.lds_bytes:
            raise src.error(f"{desc.group_segment_size} static + {setup.lds_dynamic} dynamic bytes of LDS exceed "
                            f"the {target.lds_bytes} bytes of a workgroup on {target.name}")

    inputs: dict[str, np.ndarray] = {}
    types: dict[str, tuple[str, tuple]] = {}
    total = 0
    for b in header.buffers:
        data = _buffer_data(b, inputs, base_dir)
        total += data.nbytes
        if total > 512 << 20:
            raise b.src.error("buffers of one snippet are limited to 512 MiB in total")
        inputs[b.name] = data
        types[b.name] = (b.tname or _tname_of(data), data.shape)
        spec_data = data
        setup.buffers.append(_buffer_spec(b, spec_data))

    arg_values: dict[str, Any] = {}
    for a in header.args:
        if a.value is None:
            if a.name not in inputs:
                raise a.src.error(f"kernel argument '{a.name}' is not a buffer; write {a.name}=VALUE for a number")
            setup.args.append((a.name, a.name))
            arg_values[a.name] = a.name
            continue
        if a.value.src.text in inputs:
            setup.args.append((a.name, a.value.src.text))
            arg_values[a.name] = a.value.src.text
            continue
        v = a.value.eval(dict(inputs))
        if isinstance(v, np.ndarray) or isinstance(v, tuple):
            raise a.value.src.error("a kernel argument is one number (or a buffer name)")
        if isinstance(v, (bool, np.bool_)):
            v = int(v)
        if isinstance(v, (np.integer,)):
            v = int(v)
        if isinstance(v, (np.floating,)):
            v = float(v)
        if isinstance(v, int) and not -(1 << 63) <= v < (1 << 64):
            raise a.value.src.error("a kernel argument must fit in 64 bits")
        setup.args.append((a.name, v))
        arg_values[a.name] = v

    _check_args(setup, header)

    patches: list[WavePatch] = []
    for init in header.reg_inits:
        per_wave = []
        uses_wave = bool(init.expr.names() & {"wave", "tid", "tid_x", "tid_y", "tid_z"})
        for w in range(setup.num_waves if uses_wave else 1):
            env = {**inputs, **{k: v for k, v in arg_values.items() if not isinstance(v, str)},
                   **lane_env(setup, w)}
            value = init.expr.eval(env, base_dir=base_dir)
            per_wave.append(_init_words(init, value, target))
        first = per_wave[0]
        if init.reg.file == "a":  # Setup has no AGPRs: every wave gets its value after the launch
            patches += [WavePatch(w, init.reg, per_wave[w if uses_wave else 0]) for w in range(setup.num_waves)]
            continue
        if init.reg.file == "v":
            for k in range(init.reg.count):
                setup.vgprs[f"v{init.reg.index + k}"] = first[k]
        else:
            value = 0
            for k, word in enumerate(first):
                value |= int(word) << (32 * k)
            setup.sgprs[init.reg.setup_key()] = value
        for w in range(1, len(per_wave)):
            if not np.array_equal(per_wave[w], first):
                patches.append(WavePatch(w, init.reg, per_wave[w]))

    if header.lds_inits:
        end = 0
        pieces = []
        for li in header.lds_inits:
            data = _lds_data(li, inputs, base_dir)
            raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1)
            if li.offset + len(raw) > target.lds_bytes:
                raise li.src.error(f"LDS contents end at byte {li.offset + len(raw)}, past the "
                                   f"{target.lds_bytes} bytes of LDS on {target.name}")
            pieces.append((li.offset, raw))
            end = max(end, li.offset + len(raw))
        lds = np.zeros(end, dtype=np.uint8)
        for off, raw in pieces:
            lds[off:off + len(raw)] = raw
        setup.lds_init = lds
    return SnippetBuild(setup, patches, inputs, types, arg_values, dict(header.latencies))


def _check_args(setup: Setup, header: Header) -> None:
    """With metadata for the kernel, its arguments are matched by name now, so that an unknown
    or surplus one, or a value that does not fit, is an error at the `arg:` (or `--arg`) that
    names it; a missing one at the last `arg:` statement (a plain error when there is none)."""
    desc = setup.descriptor
    if desc is None or desc.args is None:
        return
    from ..launch import ArgError, pack_kernarg
    try:  # laid out once with placeholder addresses: a value that does not fit its argument shows here too
        pack_kernarg(desc, setup.args, {b.name: 0 for b in setup.buffers}, tuple(setup.grid),
                     tuple(setup.workgroup_size), {})
    except ArgError as e:
        if e.arg is not None:
            for a in reversed(header.args):
                if a.name == e.arg:
                    raise a.src.error(str(e), 0, len(a.name)) from None
        if header.args:
            raise header.args[-1].src.error(str(e)) from None
        raise


def _tname_of(data: np.ndarray) -> str:
    for name in TYPE_BYTES:
        if np_dtype(name) == data.dtype:
            return name
    return "u8"


def _buffer_data(b: BufferDecl, inputs: dict, base_dir: str | None) -> np.ndarray:
    env = dict(inputs)
    shape = b.shape
    if shape is not None:
        env["i"] = np.arange(int(np.prod(shape)) if shape else 1, dtype=np.int64).reshape(shape)
    if b.init is None:
        value = 0
    else:
        value = b.init.eval(env, default_shape=shape, base_dir=base_dir)
    if shape is None:
        shape = np.shape(value)
        if shape == ():
            raise (b.init.src if b.init else b.src).error(f"buffer '{b.name}': give a shape, e.g. "
                                                          f"{b.tname or 'f32'}[64]")
    tname = b.tname
    if tname is None:
        kind = np.asarray(value).dtype
        tname = _tname_of(np.asarray(value)) if kind != np.float64 and kind != np.int64 else (
            "f32" if kind == np.float64 else "i32")
    try:
        return cast_to(value, tname, shape, f"buffer '{b.name}'")
    except ValueError as e:
        raise (b.init.src if b.init else b.src).error(str(e)) from None


def _buffer_spec(b: BufferDecl, data: np.ndarray):
    from ..setup import BufferSpec
    return BufferSpec(b.name, data, b.sgpr, b.rsrc, b.stride)


def _lds_data(li: LdsInit, inputs: dict, base_dir: str | None) -> np.ndarray:
    env = dict(inputs)
    if li.shape is not None:
        env["i"] = np.arange(int(np.prod(li.shape)) if li.shape else 1, dtype=np.int64).reshape(li.shape)
    value = 0 if li.expr is None else li.expr.eval(env, default_shape=li.shape, base_dir=base_dir)
    shape = li.shape if li.shape is not None else np.shape(value)
    try:
        return cast_to(value, li.tname, shape, "lds")
    except ValueError as e:
        raise (li.expr.src if li.expr else li.src).error(str(e)) from None


def _init_words(init: RegInit, value, target) -> np.ndarray:
    """An initial register value as uint32 words: [count, 64] (vector) or [count] (scalar)."""
    reg = init.reg
    tname = init.tname or default_type(reg.count, value)
    size = TYPE_BYTES[tname]
    per_reg = 2 if size == 8 else 1
    if size == 8 and reg.count % 2:
        raise init.src.error(f"a {tname} value needs a register pair")
    n_values = reg.count // per_reg
    shape = (n_values, 64) if reg.vector else (n_values,)
    arr = np.asarray(value)
    if reg.vector and arr.ndim == 1 and arr.shape[0] == 64:
        arr = arr[None, :]
    try:
        typed = cast_to(arr, tname, shape, f"initial value of {reg.text}")
    except ValueError as e:
        raise init.expr.src.error(str(e)) from None
    return words_from_typed(typed, tname).reshape((reg.count, 64) if reg.vector else (reg.count,))


def launch_facts(program: Program):
    """The launch facts the linter needs (workgroup size, registers the header initialises) from
    a file's header; empty facts when it has no header or a broken one (`run`/`test` report
    header errors, the linter does not).

    Only the lines before the first instruction are read: the launch statements live in the
    header comment (after an instruction only ``expect`` may follow), and scanning a 20k-line
    file for them would cost more than the whole analysis."""
    from types import SimpleNamespace

    from ..analysis.values import LaunchFacts
    try:
        ins = program.instructions
        end = ins[0].span.line - 1 if ins else len(program.lines)
        h = parse_header(SimpleNamespace(lines=program.lines[:end], file=program.file))
    except Exception:
        return LaunchFacts()
    wg = h.workgroup[0] if h.workgroup else ((64 * h.waves[0], 1, 1) if h.waves else None)
    if wg is None:
        wg = _required_workgroup(program)
    regs = set()
    for ri in h.reg_inits:
        r = ri.reg
        if r.file in ("v", "s"):
            regs |= {(r.file, r.index + k) for k in range(r.count)}
    return LaunchFacts(wg, frozenset(regs))


def _required_workgroup(program: Program) -> tuple[int, int, int] | None:
    """The workgroup size the metadata's ``.reqd_workgroup_size`` fixes (the runtime refuses any
    other launch), when the file describes exactly one kernel; else None."""
    from ..asm.kernels import describe
    try:
        kernels = describe(program)
    except Exception:  # broken metadata: `check`/`run` report it, the linter does not
        return None
    if len(kernels) != 1:
        return None
    size = kernels[0].meta("reqd_workgroup_size")
    try:
        x, y, z = (int(v) for v in size)
    except (TypeError, ValueError):
        return None
    return (x, y, z) if min(x, y, z) >= 1 else None


def setup_from_program(program: Program, target, extra: list | None = None) -> Setup:
    """The launch Setup a file's header declares, then `extra` statements (command-line options)
    over it (register values that differ per wave need `Snippet.simulate`, which applies them
    after the launch)."""
    from ..isa.targets import Target, get_target
    tgt = target if isinstance(target, Target) else get_target(target)
    header = parse_header(program)
    for d in extra or ():
        parse_directive(d, header)
    base = os.path.dirname(os.path.abspath(program.file)) if program.file and not program.file.startswith("<") \
        else None
    return build(header, tgt, base, program).setup
