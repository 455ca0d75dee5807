"""Launching a kernel from its own description, as the ROCm runtime and the hardware do.

Given a `KernelDescription` (the `.amdhsa_kernel` block and metadata entry, see
`gcnemu.asm.kernels`) and a `Setup` (workgroup shape, grid, buffers, arguments by name), this
module works out what a real dispatch gives the first instruction (AMDGPUUsage, "Initial Kernel
Execution State"):

- user SGPRs in ABI order, each only when its `.amdhsa_user_sgpr_*` is set: private segment
  buffer (4), dispatch ptr (2), queue ptr (2), kernarg segment ptr (2), dispatch id (2), flat
  scratch init (2), private segment size (1), then on gfx940+ the preloaded kernarg dwords
  (`.amdhsa_user_sgpr_kernarg_preload_length/offset`);
- then the system SGPRs: workgroup id x, y, z (each when enabled), workgroup info, private
  segment wave offset;
- the kernarg segment laid out by the metadata's offsets, hidden arguments filled from the grid
  and workgroup sizes as the runtime fills them (a user may override any by its value kind);
- an `hsa_kernel_dispatch_packet_t` the dispatch pointer points at, and a zeroed queue;
- where execution starts: the kernel's label, or 256 bytes further (past the `.p2align 8`) when
  kernarg preloading is on, as the command processor skips the compatibility loads then;
- the register budget: an instruction that names a register at or above
  `.amdhsa_next_free_vgpr/sgpr` (or a VGPR in the AGPR part of the unified file on gfx90a+)
  contradicts the descriptor and is an error at its line.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass

from .asm.diagnostics import Diagnostic, GcnemuError
from .asm.kernels import KernelArg, KernelDescription, _as_int
from .asm.program import Span

# user SGPRs in the order the hardware fills them: (role, `.amdhsa_user_sgpr_*` directive, SGPRs)
USER_SGPRS: tuple[tuple[str, str, int], ...] = (
    ("private_segment_buffer", ".amdhsa_user_sgpr_private_segment_buffer", 4),
    ("dispatch_ptr", ".amdhsa_user_sgpr_dispatch_ptr", 2),
    ("queue_ptr", ".amdhsa_user_sgpr_queue_ptr", 2),
    ("kernarg_segment_ptr", ".amdhsa_user_sgpr_kernarg_segment_ptr", 2),
    ("dispatch_id", ".amdhsa_user_sgpr_dispatch_id", 2),
    ("flat_scratch_init", ".amdhsa_user_sgpr_flat_scratch_init", 2),
    ("private_segment_size", ".amdhsa_user_sgpr_private_segment_size", 1),
)
# targets whose command processor preloads kernarg dwords into user SGPRs
PRELOAD_TARGETS = frozenset({"gfx942", "gfx950"})
MAX_USER_SGPRS = 16

# hsa_kernel_dispatch_packet_t (HSA runtime spec, 64 bytes): field -> (byte offset, struct format)
DISPATCH_PACKET: dict[str, tuple[int, str]] = {
    "header": (0, "<H"), "setup": (2, "<H"),
    "workgroup_size_x": (4, "<H"), "workgroup_size_y": (6, "<H"), "workgroup_size_z": (8, "<H"),
    "grid_size_x": (12, "<I"), "grid_size_y": (16, "<I"), "grid_size_z": (20, "<I"),
    "private_segment_size": (24, "<I"), "group_segment_size": (28, "<I"),
    "kernel_object": (32, "<Q"), "kernarg_address": (40, "<Q"), "completion_signal": (56, "<Q"),
}
DISPATCH_PACKET_BYTES = 64
# type KERNEL_DISPATCH (2), barrier bit, system-scope acquire and release fences: what ROCm writes
DISPATCH_HEADER = 2 | 1 << 8 | 2 << 9 | 2 << 11
QUEUE_BYTES = 256  # amd_queue_t (the hsa_queue_t at its start); the kernel sees zeros
# the flat apertures' high 32 bits that hidden_shared_base / hidden_private_base carry (the
# values the Linux kernel driver gives gfx9: LDS at 1 << 48, scratch at 2 << 48). gcnemu does
# not map flat addresses in these apertures; the values are what a kernel would compare against.
SHARED_APERTURE_HI = 0x10000
PRIVATE_APERTURE_HI = 0x20000


@dataclass(frozen=True)
class AbiLayout:
    """Where a kernel's initial SGPRs go."""

    user: dict[str, int]  # role (USER_SGPRS) -> first SGPR
    preload: tuple[int, int, int] | None  # (first SGPR, first kernarg dword, dwords)
    workgroup_id: dict[str, int]  # "x"/"y"/"z" -> SGPR
    workgroup_info: int | None
    wave_offset: int | None  # private segment wave byte offset
    workitem_dims: int  # VGPR workitem ids: 0 -> x, 1 -> x, y, 2 -> x, y, z


def abi_layout(desc: KernelDescription, target: str | None) -> AbiLayout:
    user: dict[str, int] = {}
    nxt = 0
    for role, directive, width in USER_SGPRS:
        if desc.values.get(directive, 0):
            user[role] = nxt
            nxt += width
    preload = None
    length = desc.value("user_sgpr_kernarg_preload_length")
    if length and (target is None or target in PRELOAD_TARGETS):
        preload = (nxt, desc.value("user_sgpr_kernarg_preload_offset"), length)
        nxt += length
    nxt = max(nxt, desc.value("user_sgpr_count", nxt))
    ids: dict[str, int] = {}
    for axis in "xyz":
        if desc.value(f"system_sgpr_workgroup_id_{axis}", 1 if axis == "x" else 0):
            ids[axis] = nxt
            nxt += 1
    info = None
    if desc.value("system_sgpr_workgroup_info"):
        info, nxt = nxt, nxt + 1
    offset = None
    if desc.value("system_sgpr_private_segment_wavefront_offset"):
        offset, nxt = nxt, nxt + 1
    return AbiLayout(user, preload, ids, info, offset, min(2, max(0, desc.value("system_vgpr_workitem_id"))))


# ---------------------------------------------------------------- arguments


class ArgError(GcnemuError):
    """A kernel argument that does not fit the kernel's metadata; `arg` is the name the user
    wrote (None when the problem is an argument the user did not give)."""

    def __init__(self, message: str, arg: str | None = None):
        super().__init__(message)
        self.arg = arg


def _describe_arg(a: KernelArg) -> str:
    what = f"'{a.name}'" if a.name else f"{a.index}"
    return f"argument {what} ({a.value_kind}, {a.size} bytes at offset {a.offset})"


def bind_args(desc: KernelDescription, given) -> dict[int, tuple[str, object]]:
    """Match the user's arguments to the kernel's: `.args` index -> (name as written, value).

    By name: `.name` for explicit arguments, the value kind for hidden ones. When the metadata
    names no explicit argument (hipcc leaves names out unless -fhip-kernel-arg-name), the
    arguments that are not hidden-kind overrides are taken in order and their names are only
    labels. ArgError for an unknown name, too many arguments, or a missing explicit one."""
    pairs = list(given.items()) if isinstance(given, dict) else list(given)
    args = desc.args or ()
    by_key = {a.key: a for a in args if a.key}
    explicit = [a for a in args if not a.hidden]
    unnamed = bool(explicit) and all(a.name is None for a in explicit)
    bound: dict[int, tuple[str, object]] = {}
    in_order: list[tuple[str, object]] = []
    for name, value in pairs:
        a = by_key.get(name)
        if a is not None:
            bound[a.index] = (name, value)
        elif unnamed and not name.startswith("hidden_"):
            in_order.append((name, value))
        else:
            named = [a.name for a in explicit if a.name]
            hidden = [a.value_kind for a in args if a.hidden]
            known = ", ".join(named) or "none by name"
            more = f"; hidden: {', '.join(hidden)}" if hidden else ""
            raise ArgError(f"kernel '{desc.name}' has no argument named '{name}'; its arguments: {known}{more}", name)
    if unnamed:
        if len(in_order) > len(explicit):
            extra = in_order[len(explicit)]
            raise ArgError(f"kernel '{desc.name}' takes {len(explicit)} argument{'s' if len(explicit) != 1 else ''} "
                           f"(unnamed in its metadata, so given in order), got {len(in_order)}: '{extra[0]}' is one "
                           f"too many", extra[0])
        for a, pair in zip(explicit, in_order):
            bound[a.index] = pair
    # a __local pointer nobody gave points at the launch's dynamic LDS (pack_kernarg fills it)
    missing = [a for a in explicit if a.index not in bound and a.value_kind != "dynamic_shared_pointer"]
    if missing:
        a = missing[0]
        others = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        hint = f"--arg {a.name}=VALUE or 'arg: {a.name}=...'" if a.name else "its value in order"
        raise ArgError(f"kernel '{desc.name}' needs its {_describe_arg(a)}{others}: give {hint}")
    return bound


def _int_bytes(a: KernelArg, name: str, value: int, kernel: str) -> bytes:
    bits = 8 * a.size
    if a.size == 0:
        return b""
    if not -(1 << (bits - 1)) <= value < (1 << bits):
        raise ArgError(f"kernel '{kernel}': {value} does not fit the {a.size}-byte argument '{name}'", name)
    return (value & ((1 << bits) - 1)).to_bytes(a.size, "little")


# C type names (metadata `.type_name`, as clang writes them) whose values are integers
_INTEGER_WORDS = frozenset("int unsigned signed char short long bool size_t ptrdiff_t uint uchar ushort ulong".split())
_INTEGER_TYPE_RE = re.compile(r"u?int(8|16|32|64)_t|__u?int(8|16|32|64)|_Bool")


def integer_type(a: KernelArg) -> str | None:
    """What integer an argument holds, for a float given to it ('a 2-byte integer'), None when
    it may hold a float. Hidden arguments and pointers are integers; a
    by-value argument is one when its `.type_name` says so (without one, hipcc's default, its
    type is unknown and a float is taken as written). Why: packing a float's bits into an
    integer argument silently hands the kernel another number (1.5 -> 15872 in 16 bits)."""
    if a.value_kind != "by_value":
        return f"a {a.size}-byte {'integer' if a.hidden else 'address'} ({a.value_kind})"
    t = (a.type_name or "").replace("const", " ").replace("volatile", " ").strip()
    if t.endswith("*"):
        return f"a {a.size}-byte address ('{a.type_name}')"
    if t and (all(w in _INTEGER_WORDS for w in t.split()) or _INTEGER_TYPE_RE.fullmatch(t)):
        return f"a {a.size}-byte integer ('{a.type_name}')"
    return None


def _float_bytes(a: KernelArg, name: str, value: float, kernel: str) -> bytes:
    kind = integer_type(a)
    if kind is not None:
        raise ArgError(f"kernel '{kernel}': argument '{name}' is {kind}: the float {value!r} is not one", name)
    fmt = {2: "<e", 4: "<f", 8: "<d"}.get(a.size)
    if fmt is None:
        raise ArgError(f"kernel '{kernel}': argument '{name}' is {a.size} bytes; a float fills 2, 4 or 8", name)
    return struct.pack(fmt, value)


def grid_dims(grid: tuple[int, int, int], workgroup: tuple[int, int, int]) -> int:
    """Dimensions of the dispatch: up to the last one with more than one work-item (at least 1)."""
    dims = 1
    for d in range(3):
        if grid[d] * workgroup[d] > 1:
            dims = d + 1
    return dims


def hidden_value(kind: str, grid: tuple[int, int, int], workgroup: tuple[int, int, int], addresses: dict,
                 dynamic_lds: int = 0) -> int:
    """The value the runtime stores for a hidden argument (unknown kinds, and the runtime's
    buffers gcnemu does not have, such as printf, hostcall and heap, are 0: a null pointer)."""
    axis = "xyz".index(kind[-1]) if kind[-2:] in ("_x", "_y", "_z") else None
    if kind.startswith("hidden_block_count_"):
        return grid[axis]
    if kind.startswith("hidden_group_size_"):
        return workgroup[axis]
    if kind.startswith("hidden_remainder_"):
        return 0  # every workgroup is whole: the grid is a whole number of workgroups
    if kind == "hidden_grid_dims":
        return grid_dims(grid, workgroup)
    if kind == "hidden_queue_ptr":
        return addresses.get("queue", 0)
    if kind == "hidden_shared_base":
        return SHARED_APERTURE_HI
    if kind == "hidden_private_base":
        return PRIVATE_APERTURE_HI
    if kind == "hidden_dynamic_lds_size":  # CLR writes the launch's sharedMemBytes (rocvirtual.cpp)
        return dynamic_lds
    return 0  # hidden_global_offset_*, hidden_none, hidden_multigrid_sync_arg, ...


# The kernel descriptor's KERNARG_SIZE is a 32-bit field (AMDGPUUsage, "Kernel Descriptor";
# llvm-mc refuses `.amdhsa_kernarg_size` past it with "value out of range"), so no launch can
# have a larger segment. Real kernels use a few hundred bytes (explicit arguments, then the
# 256-byte hidden block of code object v5); the ROCm OpenCL runtime caps the explicit arguments
# at 1 KiB (ROCclr `maxParameterSize_`). gcnemu allocates the segment in host memory, so it takes
# at most KERNARG_LIMIT bytes: far more than any compiler emits, far less than a blow-up.
KERNARG_FIELD_MAX = (1 << 32) - 1
KERNARG_LIMIT = 1 << 20


def kernarg_size_errors(desc: KernelDescription) -> list[Diagnostic]:
    """Why the kernarg segment the metadata asks for cannot be allocated (empty when it can):
    one error at whichever of `.amdhsa_kernarg_size`, `.kernarg_segment_size` or an argument's
    `.offset` + `.size` makes it too large, checked before a single byte is allocated."""
    sources: list[tuple[int, str, Span | None]] = []
    if desc.has("kernarg_size"):
        sources.append((desc.value("kernarg_size"), ".amdhsa_kernarg_size", desc.spans.get(".amdhsa_kernarg_size")))
    meta_span = None
    if desc.metadata_line is not None and desc.span is not None:
        meta_span = Span(desc.span.file, desc.metadata_line, 1, desc.metadata_line, 2)
    if desc.meta("kernarg_segment_size") is not None:
        sources.append((_as_int(desc.meta("kernarg_segment_size")), ".kernarg_segment_size", meta_span))
    for a in desc.args or ():
        sources.append((a.offset + a.size, f"argument {a.index} ('.offset' {a.offset}, '.size' {a.size})", meta_span))
    if not sources:
        return []
    size, what, span = max(sources, key=lambda s: s[0])
    if size <= KERNARG_LIMIT:
        return []
    if size > KERNARG_FIELD_MAX:
        why = (f"past the 32-bit kernarg size of the kernel descriptor (at most {KERNARG_FIELD_MAX} bytes): "
               f"no runtime can launch it")
    else:
        why = f"gcnemu allocates at most {KERNARG_LIMIT} bytes of kernel arguments ({KERNARG_LIMIT >> 20} MiB)"
    return [Diagnostic("error", f"kernel '{desc.name}': {what} makes the kernarg segment {size} bytes, {why}",
                       span, rule="kernarg-size")]


# The ROCm runtime (CLR, rocclr/device/rocm/rockernel.cpp, LightningKernel::postLoad) raises a
# kernel's kernarg alignment to at least 128 bytes (rounded to the cache line, which 128 already
# is a multiple of on gfx9), and VirtualGPU::allocKernArg (rocclr/device/rocm/rocvirtual.cpp) hands
# out each dispatch's kernarg buffer from a pool at that alignment. The bytes from the end of the
# segment to the next 128-byte boundary therefore belong to this dispatch and to nothing else:
# llc relies on that when it loads three 4-byte arguments at offset 8 with one s_load_dwordx4
# (16 bytes, 4 past a 20-byte segment). hipGraph nodes reserve alignUp(size, alignment) the same
# way (hipamd/src/hip_graph_internal.hpp). gcnemu allocates exactly that padded size.
RUNTIME_KERNARG_ALIGN = 128


def kernarg_allocation_bytes(desc: KernelDescription) -> int:
    """Bytes the ROCm runtime reserves for this kernel's kernarg segment (see above): the
    segment rounded up to max(.kernarg_segment_align, 128). Padding bytes read as zero."""
    align = max(RUNTIME_KERNARG_ALIGN, _as_align(desc.meta("kernarg_segment_align", 0)))
    size = max(desc.kernarg_size, 8)
    return -(-size // align) * align


def _as_align(value) -> int:
    try:
        return int(value, 0) if isinstance(value, str) else int(value or 0)
    except ValueError:  # verified metadata says an integer; an odd one changes nothing here
        return 0


# CLR's worst-case alignment for a __local pointer whose metadata has no .pointee_align
# (rocclr/device/devkernel.cpp: "Missing DynamicSharedPointer alignment" -> 128)
DEFAULT_POINTEE_ALIGN = 128


def dynamic_lds_offset(desc: KernelDescription, a: KernelArg) -> int:
    """Where a __local pointer argument's LDS starts: after the static LDS, aligned to the type it
    points to, as CLR's VirtualGPU::processMemObjects (rocclr/device/rocm/rocvirtual.cpp) patches it."""
    align = a.pointee_align or DEFAULT_POINTEE_ALIGN
    return -(-desc.group_segment_size // align) * align


def pack_kernarg(desc: KernelDescription, given, buffers: dict[str, int], grid, workgroup, addresses: dict,
                 dynamic_lds: int = 0) -> bytes:
    """The kernarg buffer of a launch: the segment laid out by the kernel's metadata, padded to
    what the runtime allocates (`kernarg_allocation_bytes`). A __local pointer argument not given
    points at the dynamic LDS (`dynamic_lds_offset`); with several, each needs its offset given.
    GcnemuError, before anything is allocated, when the metadata asks for a segment larger than
    KERNARG_LIMIT."""
    errors = kernarg_size_errors(desc)
    if errors:
        raise GcnemuError(errors[0].message, errors)
    bound = bind_args(desc, given)
    unset = [a for a in desc.args or () if a.value_kind == "dynamic_shared_pointer" and a.index not in bound]
    if len(unset) > 1:
        names = ", ".join(a.name or f"#{a.index}" for a in unset)
        raise ArgError(f"kernel '{desc.name}' has {len(unset)} __local pointer arguments ({names}); the dynamic LDS "
                       f"goes to one of them unless each is given its LDS offset, e.g. "
                       f"--arg {unset[0].name or 'NAME'}={desc.group_segment_size}")
    seg = bytearray(kernarg_allocation_bytes(desc))
    for a in desc.args or ():
        if a.index in bound:
            name, value = bound[a.index]
        elif a.value_kind == "dynamic_shared_pointer":
            name, value = a.name or a.value_kind, dynamic_lds_offset(desc, a)
        else:  # a hidden argument nobody overrode
            name, value = a.value_kind, hidden_value(a.value_kind, grid, workgroup, addresses, dynamic_lds)
        if isinstance(value, str):
            if value not in buffers:
                raise ArgError(f"kernel argument '{name}' names unknown buffer '{value}'", name)
            if a.size != 8:
                raise ArgError(f"kernel '{desc.name}': argument '{name}' is {a.size} bytes ({a.value_kind}); "
                               f"a buffer address is 8", name)
            raw = struct.pack("<Q", buffers[value])
        elif isinstance(value, float):
            raw = _float_bytes(a, name, value, desc.name)
        else:
            raw = _int_bytes(a, name, int(value), desc.name)
        seg[a.offset:a.offset + len(raw)] = raw
    return bytes(seg)


def dispatch_packet(grid, workgroup, private_bytes: int, group_bytes: int, kernarg: int) -> bytes:
    """The hsa_kernel_dispatch_packet_t of this launch (grid sizes in work-items)."""
    out = bytearray(DISPATCH_PACKET_BYTES)
    values = {"header": DISPATCH_HEADER, "setup": grid_dims(grid, workgroup),
              "private_segment_size": private_bytes, "group_segment_size": group_bytes, "kernarg_address": kernarg}
    for d, axis in enumerate("xyz"):
        values[f"workgroup_size_{axis}"] = workgroup[d]
        values[f"grid_size_{axis}"] = grid[d] * workgroup[d]
    for field_name, value in values.items():
        off, fmt = DISPATCH_PACKET[field_name]
        struct.pack_into(fmt, out, off, value & ((1 << (8 * struct.calcsize(fmt))) - 1))
    return bytes(out)


# ---------------------------------------------------------------- the code


def entry_index(kernel, desc: KernelDescription, layout: AbiLayout) -> int:
    return _cached(kernel, ("entry", desc.name, layout.preload is not None), lambda: _entry_index(kernel, desc, layout))


def _entry_index(kernel, desc: KernelDescription, layout: AbiLayout) -> int:
    """The instruction a wave starts at: the kernel's label (the only or first kernel may have
    none: hand-written code starts at its first instruction); with kernarg preloading, the
    first instruction after the `.p2align 8` that pads the compatibility loads to 256 bytes
    (`Kernel.padded_entries`, found by resolve)."""
    start = kernel.labels.get(desc.name, 0)
    if layout.preload is None:
        return start
    return kernel.padded_entries.get(desc.name, start)


def _kernel_names(kernel) -> set[str]:
    return {k.name for k in kernel.descriptions if k.from_block}


def kernel_range(kernel, desc: KernelDescription) -> tuple[int, int]:
    """Instructions of this kernel: from its label to the next function's (`.type F,@function`,
    as compilers mark every function) or kernel's label, or the end. Functions it calls have
    their own register counts (llc's `.set F.num_vgpr`), so they are not held to the kernel's."""
    labels = kernel.labels
    start = labels.get(desc.name, 0)
    names = _kernel_names(kernel) | kernel.functions
    later = [labels[n] for n in names if n in labels and labels[n] > start]
    return start, min(later, default=len(kernel.instructions))


def _cached(kernel, key: tuple, make):
    """A per-Kernel memo: a grid launches the same kernel once per workgroup, and the scans
    below walk every instruction."""
    memo = kernel.__dict__.setdefault("_launch_memo", {})
    if key not in memo:
        memo[key] = make()
    return memo[key]


def register_budget_errors(kernel, desc: KernelDescription) -> list[Diagnostic]:
    return _cached(kernel, ("budget", desc.name), lambda: _register_budget_errors(kernel, desc))


def _register_budget_errors(kernel, desc: KernelDescription) -> list[Diagnostic]:
    """Registers the kernel's code names beyond what its descriptor allocates, one error per
    instruction (at the register): `.amdhsa_next_free_sgpr` bounds SGPRs; `.amdhsa_next_free_vgpr`
    bounds VGPRs and, on gfx90a+ where AGPRs follow the VGPRs from `.amdhsa_accum_offset` in one
    file, AGPRs at accum_offset + index; a VGPR there is an error only when the kernel also names
    that AGPR (MIOpen's gfx90a kernels keep VGPR accumulators past accum_offset when they use no
    AGPRs)."""
    from .asm.program import Modified, Reg, RegList
    unified = kernel.target.name != "gfx908"
    sgprs = desc.value("next_free_sgpr", -1) if desc.has("next_free_sgpr") else None
    vgprs = desc.value("next_free_vgpr", -1) if desc.has("next_free_vgpr") else None
    accum = desc.value("accum_offset") if unified and desc.has("accum_offset") else None
    if sgprs is None and vgprs is None:
        return []
    start, end = kernel_range(kernel, desc)
    code = kernel.instructions[start:end]
    # one pass collects (instruction, register) pairs by file; the checks then look at few of them
    by_file: dict[str, list] = {"s": [], "v": [], "a": []}
    for ins in code:
        for op in ins.operands:
            t = type(op)
            if t is Modified:
                op = op.inner
                t = type(op)
            if t is Reg:
                lst = by_file.get(op.file)
                if lst is not None:
                    lst.append((ins, op))
            elif t is RegList:
                for it in op.items:
                    if type(it) is Reg and it.file in by_file:
                        by_file[it.file].append((ins, it))
    agprs: set[int] = set()  # AGPRs the kernel names: on gfx90a+ they sit at accum_offset + index
    if accum is not None:
        for _, r in by_file["a"]:
            agprs.update(range(r.index, r.index + r.count))
    found: dict[int, Diagnostic] = {}  # id(instruction) -> its first problem

    def report(ins, r, problem: str) -> None:
        d = found.get(id(ins))
        if d is None or (r.span.line, r.span.column) < (d.span.line, d.span.column):
            found[id(ins)] = Diagnostic("error", problem, r.span, rule="descriptor")

    if sgprs is not None:
        for ins, r in by_file["s"]:
            if r.index + r.count > sgprs:
                report(ins, r, f"{r.text()} is beyond the SGPRs kernel '{desc.name}' allocates "
                               f"(.amdhsa_next_free_sgpr {sgprs})")
    for ins, r in by_file["v"]:
        last = r.index + r.count - 1
        if agprs and last >= accum:
            clash = [k - accum for k in range(max(r.index, accum), last + 1) if k - accum in agprs]
            if clash:  # VGPRs past accum_offset are free unless the kernel's AGPRs live there
                report(ins, r, f"{r.text()} is the same register as a{clash[0]} of kernel '{desc.name}': from "
                               f".amdhsa_accum_offset {accum} on, the unified register file holds its AGPRs")
                continue
        if vgprs is not None and last >= vgprs:
            report(ins, r, f"{r.text()} is beyond the VGPRs kernel '{desc.name}' allocates "
                           f"(.amdhsa_next_free_vgpr {vgprs})")
    if vgprs is not None:
        for ins, r in by_file["a"]:
            last = r.index + r.count - 1
            if (accum or 0) + last >= vgprs:
                where = f"accum_offset {accum} + {last} = {accum + last}" if accum is not None else f"{last}"
                report(ins, r, f"{r.text()} is beyond the registers kernel '{desc.name}' allocates ({where}; "
                               f".amdhsa_next_free_vgpr {vgprs})")
    return sorted(found.values(), key=lambda d: (d.span.file, d.span.line, d.span.column))


def budget_warnings(program, target: str) -> list[Diagnostic]:
    """`gcnemu check`'s view of the register budget: llvm-mc assembles code that names registers
    beyond `.amdhsa_next_free_*` (the descriptor and the code are encoded independently), so
    check keeps its verdict and only warns; the launch refuses such a kernel."""
    from types import SimpleNamespace

    from .asm.kernels import descriptor_blocks, function_names
    blocks = descriptor_blocks(program)
    kernels = [k for k in blocks if k.values]
    if not kernels:
        return []
    view = SimpleNamespace(instructions=program.instructions, labels=program.labels,
                           target=SimpleNamespace(name=target), descriptions=blocks,
                           functions=function_names(program))
    out = []
    for desc in kernels:
        for d in _register_budget_errors(view, desc):
            out.append(Diagnostic("warning", d.message + "; `gcnemu run` refuses to launch it", d.span,
                                  rule="descriptor-budget"))
    return out
