"""A run's global buffers as results: `--print C`, `--print C:f16[0:8,0:8]`, `--dump C=c.npy` and
the `buffers` object of `--format json`.

A kernel's output is memory, not registers; a user checking it wants the values in the type
they think in (the declared one, or another view of the same bytes) and the piece they care
about, or the whole array in a file numpy opens. A selection is written as numpy's basic
indexing (`[0:8, 2]`, `[::4]`) over the buffer's declared shape; unlike numpy, an index or a
bound past the end is an error rather than silently clipped, since a clipped print looks like
a complete one.
"""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import dataclass

import numpy as np

from ..asm.diagnostics import GcnemuError

SPEC = re.compile(r"\s*([A-Za-z_.$][\w.$]*)\s*(?::\s*(\w+))?\s*(\[[^\]]*\])?\s*(?::\s*(\w+))?\s*$")


@dataclass
class BufferView:
    """One requested piece of a buffer: its name, the type to read its bytes as, the selection."""

    text: str
    name: str
    tname: str  # the declared type unless the request names another
    index: tuple  # numpy basic index: ints and slices, one per leading axis
    selection: str | None  # the text of the selection as typed ("[0:8,0:8]"), None: all of it


def user_buffers(setup) -> list:
    """The buffers the run's header or options declared (not gcnemu's own, named __...)."""
    return [b for b in setup.buffers if not b.name.startswith("__")]


def buffer_name(text: str, setup) -> str | None:
    """The buffer a `--print`/`--dump` text names, or None (then it is a register)."""
    m = SPEC.match(text)
    names = {b.name for b in user_buffers(setup)}
    return m.group(1) if m and m.group(1) in names else None


def known(setup) -> str:
    names = [b.name for b in user_buffers(setup)]
    return f"buffers of this run: {', '.join(names)}" if names else "this run has no buffers"


def type_name(dtype) -> str:
    from ..snippets.header import TYPE_BYTES, np_dtype
    for t in TYPE_BYTES:
        if np_dtype(t) == dtype:
            return t
    return str(dtype)


def declared(setup, name: str):
    return next(b for b in user_buffers(setup) if b.name == name).data


def parse_view(src, setup) -> BufferView:
    """`NAME[:TYPE][[SELECTION]]` (the type may also follow the selection), checked against the
    buffer's declared shape now, so a typo fails before the kernel runs."""
    from ..snippets.header import TYPE_BYTES
    text = src.text
    m = SPEC.match(text)
    if m is None or m.group(1) not in {b.name for b in user_buffers(setup)}:
        raise src.error(f"'{text}' is not a buffer ({known(setup)})", 0, len(text))
    name, t1, sel, t2 = m.groups()
    if t1 and t2:
        raise src.error("give the type once: NAME:TYPE[SELECTION]", m.start(4), len(text))
    tname = t1 or t2
    data = declared(setup, name)
    if tname is None:
        tname = type_name(data.dtype)
    elif tname not in TYPE_BYTES:
        col = m.start(2) if t1 else m.start(4)
        raise src.error(f"unknown type '{tname}' (known: {', '.join(TYPE_BYTES)})", col, col + len(tname))
    shape = typed_shape(data, TYPE_BYTES[tname])
    if shape is None:
        raise src.error(f"buffer '{name}' ({type_name(data.dtype)}{list(data.shape)}, {data.nbytes} bytes) cannot be "
                        f"read as {tname}: its last dimension's bytes are not a whole number of {tname} values",
                        0, len(text))
    index = ()
    if sel is not None:
        index = parse_selection(src, m.start(3), sel, shape, name, tname, setup)
    return BufferView(text, name, tname, index, sel)


def typed_shape(data: np.ndarray, size: int) -> tuple | None:
    """The declared shape as seen through a type of `size` bytes: the last axis rescales, as
    numpy's `view` does; None when its bytes do not divide."""
    shape = tuple(data.shape) or (1,)
    last = shape[-1] * data.dtype.itemsize
    if last % size:
        return None
    return shape[:-1] + (last // size,)


def parse_selection(src, col: int, sel: str, shape: tuple, name: str, tname: str, setup) -> tuple:
    """`[a:b, i, ::s]` -> a numpy index; every bound within the axis, steps positive, not empty."""
    body = sel[1:-1]
    parts = body.split(",")
    where = f"buffer '{name}' as {tname} has shape [{', '.join(map(str, shape))}] ({known(setup)})"
    if len(parts) > len(shape):
        raise src.error(f"{len(parts)} indices for {len(shape)} dimension{'s' if len(shape) != 1 else ''}: {where}",
                        col, col + len(sel))
    index = []
    pos = col + 1
    for axis, part in enumerate(parts):
        dim = shape[axis]
        a, b = pos, pos + len(part)
        pos = b + 1
        fields = [f.strip() for f in part.split(":")]
        try:
            nums = [int(f, 0) if f else None for f in fields]
        except ValueError:
            raise src.error(f"expected an index or a slice start:stop[:step] of whole numbers, got '{part.strip()}'",
                            a, b) from None
        if len(fields) == 1:
            i = nums[0]
            if i is None:
                raise src.error("an empty index; use ':' for a whole dimension", a, b)
            if not -dim <= i < dim:
                raise src.error(f"index {i} is out of range for dimension {axis} of size {dim}: {where}", a, b)
            index.append(i)
            continue
        if len(fields) > 3:
            raise src.error(f"expected start:stop[:step], got '{part.strip()}'", a, b)
        start, stop = nums[0], nums[1]
        step = nums[2] if len(nums) == 3 else None
        if step is not None and step < 1:
            raise src.error(f"the step must be a positive whole number, got {step}", a, b)
        for bound in (start, stop):
            if bound is not None and not -dim <= bound <= dim:
                raise src.error(f"{part.strip()} is out of range for dimension {axis} of size {dim}: {where}", a, b)
        s = slice(start, stop, step)
        if len(range(*s.indices(dim))) == 0:
            raise src.error(f"{part.strip()} selects nothing of dimension {axis} (size {dim})", a, b)
        index.append(s)
    return tuple(index)


def final_array(sim, setup, name: str, tname: str | None = None) -> np.ndarray:
    """The buffer's bytes after the run, in its declared shape and type (or `tname`)."""
    from ..snippets.header import TYPE_BYTES, np_dtype
    data = declared(setup, name)
    raw = sim.memory.buffer(name).data
    typed = raw.view(data.dtype).reshape(data.shape or (1,))
    if tname is not None and np_dtype(tname) != data.dtype:
        typed = typed.view(np_dtype(tname)).reshape(typed_shape(data, TYPE_BYTES[tname]))
    return typed


def selected(sim, setup, view: BufferView) -> np.ndarray:
    return final_array(sim, setup, view.name, view.tname)[view.index]


def view_text(sim, setup, view: BufferView) -> list[str]:
    """The selection, 8 values a line, each line labelled with its indices in the whole buffer
    (an axis given one index keeps it in the label: `C[1, 56:64]` prints `[1, 56..63]`)."""
    from .common import format_values
    whole = final_array(sim, setup, view.name, view.tname)
    index = list(view.index) + [slice(None)] * (whole.ndim - len(view.index))
    kept_axes = [k for k, ix in enumerate(index) if isinstance(ix, slice)]
    at = {k: np.arange(whole.shape[k])[ix] if isinstance(ix, slice) else ix % whole.shape[k]
          for k, ix in enumerate(index)}  # an axis's selected indices, or its one index
    values = np.asarray(whole[view.index])
    shape = f"{view.tname}[{', '.join(map(str, whole.shape))}]"
    out = [f"  {view.name}{view.selection or ''} ({shape}):"]
    if values.ndim == 0:
        out.append(f"    [{', '.join(str(at[k]) for k in range(whole.ndim))}]: {format_values(values, view.tname)[0]}")
        return out
    rows = values.reshape(-1, values.shape[-1])
    texts = [format_values(r, view.tname) for r in rows]
    width = max(len(t) for row in texts for t in row)
    lead = list(np.ndindex(*values.shape[:-1])) or [()]
    last_axis = kept_axes[-1]
    last = at[last_axis]
    lines = []
    for pos, row in zip(lead, texts):
        for c in range(0, len(row), 8):
            parts = []
            for k in range(whole.ndim):
                if k == last_axis:
                    parts.append(f"{last[c]}..{last[min(c + 8, len(row)) - 1]}")
                elif k in kept_axes:
                    parts.append(str(at[k][pos[kept_axes.index(k)]]))
                else:
                    parts.append(str(at[k]))
            lines.append(("[" + ", ".join(parts) + "]:", " ".join(v.rjust(width) for v in row[c:c + 8])))
    labels = max(len(label) for label, _ in lines)
    out += [f"    {label.ljust(labels)} {values}" for label, values in lines]
    return out


def json_values(values: np.ndarray, tname: str):
    """Nested lists; floats as numbers, their non-finite values as "nan"/"inf"/"-inf" (JSON has none)."""
    from ..snippets.header import FLOAT_TYPES
    if tname in FLOAT_TYPES:
        def conv(v):
            f = float(v)
            return f if np.isfinite(f) else ("nan" if f != f else ("inf" if f > 0 else "-inf"))
    else:
        conv = int
    arr = np.asarray(values)
    if arr.ndim == 0:
        return conv(arr)
    return [json_values(x, tname) for x in arr] if arr.ndim > 1 else [conv(x) for x in arr]


def buffers_json(sim, setup, views: list[BufferView]) -> dict:
    """Every buffer's type, shape, size and sha256 of its final bytes, with the requested selections."""
    out = {}
    for b in user_buffers(setup):
        raw = sim.memory.buffer(b.name).data
        out[b.name] = {"type": type_name(b.data.dtype), "shape": list(b.data.shape), "bytes": int(raw.nbytes),
                       "sha256": hashlib.sha256(raw.tobytes()).hexdigest()}
    for v in views:
        values = selected(sim, setup, v)
        out[v.name].setdefault("prints", []).append(
            {"print": v.text, "type": v.tname, "selection": v.selection, "shape": list(np.shape(values)),
             "values": json_values(values, v.tname)})
    return out


@dataclass
class Dump:
    view: BufferView
    path: str


def parse_dump(cli, text: str, setup) -> Dump:
    """`--dump NAME[:TYPE][[SELECTION]]=FILE.npy`."""
    src = cli.span("--dump", text)
    left, eq, path = text.partition("=")
    if not eq or not path.strip():
        raise src.error(f"expected BUFFER=FILE.npy ({known(setup)})", 0, len(text))
    view = parse_view(src.sub(0, len(left)), setup)
    return Dump(view, path.strip())


def write_dump(sim, setup, dump: Dump) -> None:
    """np.save into a temporary file beside the target, then rename: a reader never sees half a file.
    The .npy format has no bfloat16 (numpy would store opaque 2-byte records), so bf16 is saved as
    float32, which holds every bf16 value exactly."""
    from .common import os_reason
    values = np.ascontiguousarray(selected(sim, setup, dump.view))
    if dump.view.tname == "bf16":
        values = values.astype(np.float32)
    folder = os.path.dirname(os.path.abspath(dump.path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".gcnemu-", suffix=".npy.tmp", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, values, allow_pickle=False)
        os.replace(tmp, dump.path)
        tmp = None
    except OSError as e:
        raise GcnemuError(f"--dump {dump.view.text}={dump.path}: cannot write {dump.path}: {os_reason(e)}") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
