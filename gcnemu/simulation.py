"""Public API: `Simulation(kernel, setup).run()` and inspection of the results.

    import gcnemu
    prog = gcnemu.parse_file("programs/vector_add.s")
    kernel = gcnemu.resolve(prog, "gfx90a")
    sim = gcnemu.Simulation(kernel, setup)
    sim.run()
    sim.wave(0).v[1].f32        # numpy array of the 64 lanes of v1 as float32
    sim.buffer("C", np.float32) # a buffer's contents
"""
from __future__ import annotations

import struct

import numpy as np

from .asm.diagnostics import Diagnostic, GcnemuError
from .asm.resolve import Kernel
from .launch import QUEUE_BYTES
from .setup import (MAX_PRIVATE_BYTES, Setup, apply_description, buffer_descriptor, private_segment_descriptor,
                    sgpr_range)
from .sim.context import SimError
from .sim.engine import Engine
from .sim.state import LDS, GlobalMemory, MemoryError_, WaveState



def _pack_int_arg(name: str, value: int) -> bytes:
    """An integer kernel argument as kernarg bytes: 32 bits when it fits an i32 or a u32, else 64;
    a negative value is stored as the two's complement of that size (`--arg n=-1` is 0xffffffff)."""
    if -(1 << 31) <= value < (1 << 32):
        return struct.pack("<I", value & 0xFFFFFFFF)
    if -(1 << 63) <= value < (1 << 64):
        return struct.pack("<Q", value & 0xFFFFFFFFFFFFFFFF)
    raise GcnemuError(f"kernel argument '{name}' = {value} does not fit in 64 bits")


def misaligned_warnings(engine) -> list[Diagnostic]:
    """The engine's misaligned-access notes (see `gcnemu.sim.alignment`) as one warning per
    instruction: the first issue's lanes and address, and how often it happened; the notes are
    taken out of `engine.notes` so they are not reported twice."""
    from .sim.alignment import RULE, MisalignedNote
    notes = getattr(engine, "notes", None)
    if not notes:
        return []
    first: dict = {}  # the instruction's span -> [wave, finding, issues, waves]
    keep = []
    for wave, note in notes:
        message = getattr(note, "message", None)
        if not isinstance(message, MisalignedNote):
            keep.append((wave, note))
            continue
        found = message.found
        key = str(note.span)
        entry = first.setdefault(key, [wave, found, note.span, 0, set()])
        entry[3] += 1
        entry[4].add(wave)
    if not first:
        return []
    notes[:] = keep
    out = []
    for wave, found, span, times, waves in first.values():
        where = f" in wave {wave}" + (f"; {times} times in {len(waves)} wave(s)" if times > 1 else "")
        d = Diagnostic("warning", found.message(where), span, rule=RULE,
                       notes=[Diagnostic("note", found.note, None)])
        d.extra = {"address": found.address, "required_alignment": found.required, "lanes": list(found.lanes),
                   "wave": wave, "count": times}
        out.append(d)
    return out


def place_code_object(memory: GlobalMemory, kernel: Kernel) -> None:
    """Put what the code reads of its own code object in memory: the GOT, when the code loads
    function addresses through `@gotpcrel32`, and the data sections its relocations address
    (gcnemu.asm.image). Nothing when the code relocates nothing."""
    image = kernel._image
    if image is None:
        return
    if image.got:
        memory.place("__got", image.got_base, image.got_bytes())
    for name, base, data in image.data:
        memory.place(name, base, data)


class Simulation:
    def __init__(self, kernel: Kernel, setup: Setup | None = None, latencies=None,
                 max_cycles: int = 50_000_000, max_instructions: int = 5_000_000, abi_from_file: bool = True,
                 monitor: bool = True, race_check: bool = True):
        """`race_check` reports LDS races between waves (gcnemu.sim.races). `monitor` applies the hazard rule table to the executed instruction stream (the
        dynamic half of `gcnemu lint`): wait-state violations that actually ran are reported
        with the same rule ids as the static linter."""
        self.kernel = kernel
        self.setup = setup or Setup()
        if abi_from_file:  # the description resolve read (Kernel.descriptions), not the Program's directives
            apply_description(kernel.description(self.setup.kernel), self.setup, kernel.target.name)
        self.memory = GlobalMemory()
        place_code_object(self.memory, kernel)
        self.lds = LDS(kernel.target.lds_bytes)
        self.descriptor = self.setup.descriptor  # the KernelDescription launched from, or None
        self.diagnostics: list[Diagnostic] = []
        self._buffers = {}
        self._launch()
        if self.descriptor is not None and (self.descriptor.has_group_segment or self.setup.lds_dynamic):
            # the workgroup's LDS allocation (the dispatch's group segment, see _group_segment);
            # an access beyond it is an error at its line
            self.lds.limit = self._group_bytes
        self.engine = Engine(kernel, self.waves, self.memory, self.lds, latencies,
                             max_cycles=max_cycles, max_instructions=max_instructions, race_check=race_check)
        if self.descriptor is not None and self.descriptor.has("next_free_vgpr"):
            self.engine.vgpr_limit = min(self.engine.vgpr_limit, self._indexable_vgprs(self.descriptor))
        if monitor:
            from .analysis.monitor import HazardMonitor
            from .analysis.values import LaunchFacts
            self.engine.attach_monitor(HazardMonitor(kernel, launch=LaunchFacts.from_setup(self.setup)))
        self.error: Diagnostic | None = None

    # ------------------------------------------------------------ launch
    def _indexable_vgprs(self, desc) -> int:
        """VGPRs an operand relocated by VGPR indexing mode may reach: the kernel's allocation
        (.amdhsa_next_free_vgpr), and on gfx90a+ not into its AGPRs, which follow from
        .amdhsa_accum_offset in the unified register file when the kernel uses any."""
        limit = desc.value("next_free_vgpr")
        if desc.has("accum_offset"):
            from .asm.program import Modified, Reg
            uses_agprs = any(type(getattr(o, "inner", o)) is Reg and getattr(o, "inner", o).file == "a"
                             for ins in self.kernel.instructions for o in ins.operands if type(o) in (Reg, Modified))
            if uses_agprs:
                limit = min(limit, desc.value("accum_offset"))
        return limit

    def _group_segment(self, desc) -> int:
        """The dispatch's group segment (LDS bytes per workgroup): the kernel's static size plus
        the launch's dynamic size, whatever the metadata lists. CLR's VirtualGPU::submitKernelInternal
        (rocclr/device/rocm/rocvirtual.cpp) writes `group_segment_size = ldsUsage + sharedMemBytes`
        into the dispatch packet and refuses a launch whose LDS exceeds the CU's ("No local memory
        available"); gcnemu refuses it the same way. A `hidden_dynamic_lds_size` given by name
        (the older way to ask for dynamic LDS here) counts when no lds_dynamic is given."""
        s = self.setup
        if s.lds_dynamic < 0:
            raise GcnemuError(f"dynamic LDS of {s.lds_dynamic} bytes: it cannot be negative")
        if desc is None:
            if s.lds_dynamic:
                raise GcnemuError("dynamic LDS (--lds-dynamic, lds-dynamic:) needs a kernel description (an "
                                  ".amdhsa_kernel block or .amdgpu_metadata) to add it to; without one the "
                                  "whole LDS is usable")
            return self.lds.size
        dynamic = s.lds_dynamic
        if not dynamic:
            args = s.args.items() if isinstance(s.args, dict) else s.args
            dynamic = next((int(v) for k, v in args if k == "hidden_dynamic_lds_size" and not isinstance(v, str)), 0)
        from .launch import dynamic_lds_offset
        static = desc.group_segment_size
        # the dynamic part starts where a __local pointer argument points (static, aligned up)
        start = max([static] + [dynamic_lds_offset(desc, a) for a in desc.args or ()
                                if a.value_kind == "dynamic_shared_pointer"])
        total = start + max(0, dynamic)
        if total > self.lds.size:
            raise GcnemuError(f"kernel '{desc.name}' needs {total} bytes of LDS per workgroup ({static} static + "
                              f"{dynamic} dynamic); {self.kernel.target.name} has {self.lds.size}")
        return total

    def _launch(self) -> None:
        s = self.setup
        for b in s.buffers:
            self._buffers[b.name] = (self.memory.alloc(b.name, b.data), b)
        desc = s.descriptor
        layout = None
        if desc is not None and desc.values:
            from .launch import abi_layout
            layout = abi_layout(desc, self.kernel.target.name)
        if desc is not None:
            self._check_descriptor(desc)
        grid = tuple(max(g, i + 1) for g, i in zip(s.grid, s.workgroup_id))  # the dispatch holds this workgroup
        self._group_bytes = self._group_segment(desc)
        kernarg = bytearray()
        addresses: dict[str, int] = {}
        if desc is not None and desc.values:  # the runtime's queue, in emulated memory like the rest
            addresses["queue"] = self.memory.alloc("__queue", QUEUE_BYTES).base
        for name, value in ([] if desc is not None and desc.args is not None else
                            (s.args.items() if isinstance(s.args, dict) else s.args)):
            if isinstance(value, str):
                if value not in self._buffers:
                    raise GcnemuError(f"kernel argument '{name}' names unknown buffer '{value}'")
                packed = struct.pack("<Q", self._buffers[value][0].base)
            elif isinstance(value, float):
                packed = struct.pack("<f", value)
            else:
                packed = _pack_int_arg(name, int(value))
            # each argument at its natural alignment, as the HSA kernarg segment lays them out (a
            # 64-bit integer after a 32-bit one starts at the next multiple of 8, like a pointer)
            while len(kernarg) % len(packed):
                kernarg.append(0)
            kernarg += packed
        if desc is not None and desc.args is not None:
            from .launch import pack_kernarg
            kernarg = pack_kernarg(desc, s.args, {k: v[0].base for k, v in self._buffers.items()}, grid,
                                   tuple(s.workgroup_size), addresses, s.lds_dynamic)
        kernarg_buf = self.memory.alloc("__kernarg", bytes(kernarg) or bytes(8))
        dispatch = None
        if layout is not None:
            from .launch import dispatch_packet
            dispatch = self.memory.alloc("__dispatch", dispatch_packet(
                grid, tuple(s.workgroup_size), s.private_segment_size, self._group_bytes, kernarg_buf.base)).base
        entry = 0
        if desc is not None:
            from .launch import entry_index
            entry = entry_index(self.kernel, desc, layout) if layout is not None else \
                self.kernel.labels.get(desc.name, 0)
        if s.lds_init is not None:
            raw = np.ascontiguousarray(s.lds_init).view(np.uint8).reshape(-1)
            if len(raw) > self.lds.size:
                raise GcnemuError(f"LDS initial contents ({len(raw)} bytes) exceed the target's LDS ({self.lds.size})")
            self.lds.data[: len(raw)] = raw
        self.waves: list[WaveState] = []
        if s.private_segment_size < 0 or s.private_segment_size > MAX_PRIVATE_BYTES:
            raise GcnemuError(f"private segment of {s.private_segment_size} bytes per lane: gcnemu gives each lane "
                              f"0..{MAX_PRIVATE_BYTES} bytes")
        x, y, z = s.workgroup_size
        packed = self.kernel.target.name != "gfx908"
        for wi in range(s.num_waves):
            w = WaveState(wi)
            w.pc = entry
            if s.private_segment_size:
                w.scratch_size = s.private_segment_size
                w.scratch_base = self.memory.alloc(f"__scratch_w{wi}", 64 * s.private_segment_size).base
            tid = np.arange(wi * 64, wi * 64 + 64)
            active = tid < s.threads
            bits = 0
            for lane in range(64):
                if active[lane]:
                    bits |= 1 << lane
            w.set_sgpr(126, np.array([bits & 0xFFFFFFFF, bits >> 32], dtype=np.uint32))
            tx, ty, tz = tid % x, (tid // x) % y, tid // (x * y)
            dims = 2 if layout is None else layout.workitem_dims  # without a descriptor: all three
            ids = [t if k <= dims else np.zeros_like(t) for k, t in enumerate((tx, ty, tz))]
            if packed:
                w.vgpr[0] = (ids[0] | (ids[1] << 10) | (ids[2] << 20)).astype(np.uint32)
                w.vgpr_init[0] = True
            else:
                for k in range(dims + 1):
                    w.vgpr[k] = ids[k].astype(np.uint32)
                    w.vgpr_init[k] = True
            if layout is not None:
                self._abi_sgprs(w, wi, layout, dispatch, addresses.get("queue", 0), kernarg)
            if s.kernarg_sgpr is not None:
                w.set_sgpr(s.kernarg_sgpr, np.array([kernarg_buf.base & 0xFFFFFFFF, kernarg_buf.base >> 32], np.uint32))
            for axis, slot in s.workgroup_id_sgprs.items():
                w.set_sgpr(slot, np.array([s.workgroup_id["xyz".index(axis)]], np.uint32))
            for b in s.buffers:
                base = self._buffers[b.name][0].base
                if b.sgpr:
                    lo, n = sgpr_range(b.sgpr)
                    w.set_sgpr(lo, np.array([base & 0xFFFFFFFF, base >> 32][:n], np.uint32))
                if b.rsrc:
                    lo, n = sgpr_range(b.rsrc)
                    if n != 4:
                        raise GcnemuError(f"buffer '{b.name}': a resource descriptor needs 4 SGPRs, got {b.rsrc}")
                    w.set_sgpr(lo, np.array(buffer_descriptor(base, len(self._buffers[b.name][0].data), b.stride),
                                            np.uint32))
            for reg, value in s.sgprs.items():
                lo, n = sgpr_range(reg)
                v = int(value)
                w.set_sgpr(lo, np.array([(v >> (32 * k)) & 0xFFFFFFFF for k in range(n)], np.uint32))
            for reg, value in s.vgprs.items():
                import re
                m = re.match(r"^v(\d+)$", reg)
                if not m:
                    raise GcnemuError(f"'{reg}' is not a VGPR (expected vN)")
                arr = np.broadcast_to(np.asarray(value), (64,))
                if arr.dtype.kind == "f":
                    arr = arr.astype(np.float32).view(np.uint32)
                w.vgpr[int(m.group(1))] = arr.astype(np.int64).astype(np.uint32) if arr.dtype.kind in "iu" else arr
                w.vgpr_init[int(m.group(1))] = True
            self.waves.append(w)

    def _private_segment(self, w: WaveState) -> tuple[list[int], int]:
        """The private segment buffer V# (swizzled, ADD_TID, 4-byte elements, index stride 64, as
        the runtime builds it for scratch) and the wave's offset into it: the V# of every wave
        points at wave 0's scratch, so wave w's offset is the distance to its own."""
        if not hasattr(self, "_scratch_base0"):
            self._scratch_base0 = w.scratch_base or 0
        base = self._scratch_base0
        return private_segment_descriptor(base), ((w.scratch_base or 0) - base) & 0xFFFFFFFF

    def _check_descriptor(self, desc) -> None:
        """What the launch refuses up front: a workgroup larger than the kernel allows, code
        that names registers beyond the descriptor's budget (an error at each such line)."""
        from .launch import register_budget_errors
        s = self.setup
        limit = desc.max_flat_workgroup_size
        if limit is not None and s.threads > limit:
            raise GcnemuError(f"a workgroup of {s.threads} work-items is larger than kernel '{desc.name}' allows "
                              f"(.max_flat_workgroup_size {limit})")
        errors = register_budget_errors(self.kernel, desc)
        if errors:
            raise GcnemuError(errors[0].message, errors)

    def _abi_sgprs(self, w: WaveState, wi: int, layout, dispatch: int | None, queue: int, kernarg: bytes) -> None:
        """The user and system SGPRs the descriptor enables, besides the kernarg pointer and
        workgroup ids (set with the common layout): see gcnemu.launch."""
        s = self.setup

        def put(slot: int, words) -> None:
            w.set_sgpr(slot, np.array([int(x) & 0xFFFFFFFF for x in words], np.uint32))

        def pair(value: int) -> list[int]:
            return [value & 0xFFFFFFFF, value >> 32]

        vsharp, wave_offset = self._private_segment(w)
        for role, slot in layout.user.items():
            if role == "private_segment_buffer":  # a swizzled V# over the workgroup's scratch
                put(slot, vsharp)
            elif role == "dispatch_ptr" and dispatch is not None:
                put(slot, pair(dispatch))
            elif role == "queue_ptr":
                put(slot, pair(queue))
            elif role == "dispatch_id":
                put(slot, pair(0))
            elif role == "flat_scratch_init":  # the scratch base; the kernel's prologue adds its wave offset
                put(slot, pair(self._scratch_base0))
            elif role == "private_segment_size":
                put(slot, [s.private_segment_size])
        if layout.preload is not None:
            first, dword, count = layout.preload
            raw = bytes(kernarg) + bytes(4 * (dword + count))
            put(first, struct.unpack_from(f"<{count}I", raw, 4 * dword))
        if layout.workgroup_info is not None:  # first-wave flag (bit 31) and the workgroup's waves
            put(layout.workgroup_info, [(1 << 31 if wi == 0 else 0) | s.num_waves])
        if layout.wave_offset is not None:  # this wave's scratch, from the V#'s base
            put(layout.wave_offset, [wave_offset])

    # ------------------------------------------------------------ running
    def run(self) -> "Simulation":
        """Run to s_endpgm on every wave (or a limit). Runtime errors become `self.error`."""
        try:
            self.engine.run()
        except (SimError, MemoryError_) as e:
            self._fail(e)
        except GcnemuError as e:
            self.error = e.diagnostics[0] if e.diagnostics else Diagnostic("error", str(e), None)
            self.diagnostics.append(self.error)
        if self.engine.halt_reason and not self.error:
            self.diagnostics.append(Diagnostic("warning", self.engine.halt_reason, None, rule="limit"))
        self.diagnostics.extend(misaligned_warnings(self.engine))
        return self

    def step(self) -> bool:
        """Advance the clock to the next cycle where something happens. False when finished."""
        try:
            return self.engine.step_cycle()
        except (SimError, MemoryError_) as e:
            self._fail(e)
            return False

    def _fail(self, e: Exception) -> None:
        eng = self.engine
        span = None
        index = getattr(e, "instruction", None)
        if index is not None and 0 <= index < len(self.kernel.instructions):
            span = self.kernel.instructions[index].span
        for w in ([] if span is not None else eng.waves):
            if not w.state.done and w.state.pc < len(self.kernel.instructions):
                span = self.kernel.instructions[w.state.pc].span
                break
        self.error = Diagnostic("error", str(e), span, rule="runtime")
        desc = self.descriptor
        if isinstance(e, MemoryError_) and "'__kernarg'" in str(e) and desc is not None and desc.values:
            from .launch import kernarg_allocation_bytes
            self.error.notes.append(Diagnostic(
                "note", f"'__kernarg' is the kernarg segment of kernel '{desc.name}' ({desc.kernarg_size} bytes) "
                        f"as the ROCm runtime allocates it: padded to {kernarg_allocation_bytes(desc)} bytes; "
                        f"nothing the runtime provides lies past that", None))
        self.diagnostics.append(self.error)

    # ------------------------------------------------------------ results
    def wave(self, i: int) -> WaveState:
        return self.waves[i]

    @property
    def cycles(self) -> int:
        return self.engine.cycle

    @property
    def instructions_executed(self) -> int:
        return self.engine.executed

    @property
    def hazards(self):
        return self.engine.hazards

    def buffer(self, name: str, dtype=np.uint8) -> np.ndarray:
        """A copy of a buffer's current contents viewed as `dtype`."""
        if name not in self._buffers:
            raise KeyError(f"no buffer named '{name}'")
        return self._buffers[name][0].data.copy().view(dtype)

    def buffer_address(self, name: str) -> int:
        return self._buffers[name][0].base
