"""Launch setup: workgroup shape, buffers, kernel arguments, initial registers, LDS.

The same `Setup` comes from Python, from CLI flags (`gcnemu run --buffer ... --arg ...`)
or from the header comment of an asm file (see `gcnemu.snippets`).

Initial SGPRs follow the AMDHSA kernel ABI: user SGPRs first (the kernarg segment
pointer in s[0:1] when enabled), then the system SGPRs (workgroup ids x, y, z, each
only when enabled). When the file has an `.amdhsa_kernel` block its
`.amdhsa_user_sgpr_kernarg_segment_ptr` / `.amdhsa_system_sgpr_workgroup_id_*`
directives decide; otherwise gcnemu assumes the common layout: kernarg pointer in
s[0:1] and workgroup id x in s2. Workitem ids are in v0 (x), v1 (y), v2 (z) on
gfx908 and packed into v0 (x | y << 10 | z << 20) on gfx90a and later.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from .asm.diagnostics import GcnemuError

# Launch bounds, shared by every front end (Python, CLI flags, file headers) so each refuses the
# same sizes up front with its own location, instead of running out of memory later.
MAX_WORKGROUPS = 1 << 20  # workgroups in one grid (`--grid`, the header's `grid:`)
MAX_PRIVATE_BYTES = 1 << 20  # scratch bytes per lane; real kernels use bytes to a few KiB


@dataclass
class BufferSpec:
    """A global buffer. `sgpr` receives its 64-bit address (e.g. "s[4:5]"); `rsrc`
    receives a buffer resource descriptor V# (e.g. "s[8:11]") with num_records = size."""

    name: str
    data: np.ndarray
    sgpr: str | None = None
    rsrc: str | None = None
    stride: int = 0


@dataclass
class Setup:
    workgroup_size: tuple[int, int, int] = (64, 1, 1)
    workgroup_id: tuple[int, int, int] = (0, 0, 0)
    grid: tuple[int, int, int] = (1, 1, 1)  # workgroups in the dispatch (a grid run sets it)
    private_segment_size: int = 0  # scratch bytes per lane (.amdhsa_private_segment_fixed_size)
    buffers: list[BufferSpec] = field(default_factory=list)
    args: list[tuple[str, object]] = field(default_factory=list)  # kernarg order: (name, buffer name | int | float)
    sgprs: dict[str, int] = field(default_factory=dict)  # "s5" / "s[4:5]" -> value
    vgprs: dict[str, object] = field(default_factory=dict)  # "v3" -> int | array[64]
    lds_init: np.ndarray | None = None
    kernarg_sgpr: int | None = 0  # first SGPR of the kernarg pointer, None when not enabled
    workgroup_id_sgprs: dict[str, int] = field(default_factory=lambda: {"x": 2})
    # scratch through MUBUF (gfx908/gfx90a): the private segment buffer V# (4 user SGPRs) and the
    # wave's offset into it (a system SGPR), None when the descriptor does not enable them
    private_buffer_sgpr: int | None = None
    wave_offset_sgpr: int | None = None

    @property
    def threads(self) -> int:
        x, y, z = self.workgroup_size
        return x * y * z

    @property
    def num_waves(self) -> int:
        return max(1, -(-self.threads // 64))

    def add_buffer(self, name: str, data, sgpr: str | None = None, rsrc: str | None = None) -> "Setup":
        self.buffers.append(BufferSpec(name, np.asarray(data), sgpr, rsrc))
        return self


_SREG = re.compile(r"^s(?:(\d+)|\[(\d+):(\d+)\])$")
_VREG = re.compile(r"^v(\d+)$")


def sgpr_range(text: str) -> tuple[int, int]:
    m = _SREG.match(text.strip())
    if not m:
        raise GcnemuError(f"'{text}' is not an SGPR (expected sN or s[N:M])")
    if m.group(1) is not None:
        return int(m.group(1)), 1
    lo, hi = int(m.group(2)), int(m.group(3))
    if hi < lo:
        raise GcnemuError(f"'{text}': first register index exceeds the second")
    return lo, hi - lo + 1


def abi_from_program(program, setup: Setup) -> None:
    """Take the SGPR layout from `.amdhsa_kernel` directives when the file has them."""
    values = {}
    for s in program.statements:
        name = getattr(s, "name", "")
        if isinstance(name, str) and name.startswith(".amdhsa_") and getattr(s, "args", None):
            try:
                values[name] = int(s.args[0], 0)
            except ValueError:
                pass
    if not values:
        return
    if values.get(".amdhsa_private_segment_fixed_size"):
        setup.private_segment_size = max(setup.private_segment_size, values[".amdhsa_private_segment_fixed_size"])
    # user SGPRs in ABI order; only the ones this emulator models matter for placement
    order = [(".amdhsa_user_sgpr_private_segment_buffer", 4), (".amdhsa_user_sgpr_dispatch_ptr", 2),
             (".amdhsa_user_sgpr_queue_ptr", 2), (".amdhsa_user_sgpr_kernarg_segment_ptr", 2),
             (".amdhsa_user_sgpr_dispatch_id", 2), (".amdhsa_user_sgpr_flat_scratch_init", 2),
             (".amdhsa_user_sgpr_private_segment_size", 1)]
    nxt = 0
    setup.kernarg_sgpr = None
    for name, width in order:
        if values.get(name, 0):
            if name == ".amdhsa_user_sgpr_kernarg_segment_ptr":
                setup.kernarg_sgpr = nxt
            nxt += width
    nxt = max(nxt, values.get(".amdhsa_user_sgpr_count", nxt))
    if values.get(".amdhsa_system_sgpr_private_segment_wavefront_offset", 0) and False:
        nxt += 1
    ids = {}
    for axis in "xyz":
        default = 1 if axis == "x" else 0
        if values.get(f".amdhsa_system_sgpr_workgroup_id_{axis}", default):
            ids[axis] = nxt
            nxt += 1
    setup.workgroup_id_sgprs = ids
    private_segment_abi(values, setup)


def private_segment_abi(values: dict[str, int], setup: Setup) -> None:
    """Where the private segment buffer V# and the scratch wave offset go (gfx908/gfx90a scratch
    through buffer_* instructions): the V# is the first user SGPRs; the wave offset is the last
    system SGPR, after the workgroup ids and workgroup info (AMDGPUUsage, "Initial Kernel
    Execution State"). `values`: the `.amdhsa_*` directives of the kernel."""
    setup.private_buffer_sgpr = 0 if values.get(".amdhsa_user_sgpr_private_segment_buffer", 0) else None
    setup.wave_offset_sgpr = None
    if values.get(".amdhsa_system_sgpr_private_segment_wavefront_offset", 0):
        slot = values.get(".amdhsa_user_sgpr_count", 0)
        slot += sum(1 for axis in "xyz" if values.get(f".amdhsa_system_sgpr_workgroup_id_{axis}", axis == "x"))
        slot += 1 if values.get(".amdhsa_system_sgpr_workgroup_info", 0) else 0
        setup.wave_offset_sgpr = slot


def kernel_entry(program, labels: dict) -> int:
    """Index of the instruction a wave starts at: the label of the file's first `.amdhsa_kernel`
    when the file defines one (llc puts called functions before the kernel), else 0."""
    for s in program.statements:
        if getattr(s, "name", None) == ".amdhsa_kernel" and getattr(s, "args", None):
            return labels.get(s.args[0].strip(), 0)
    return 0


def buffer_descriptor(base: int, num_records: int, stride: int = 0) -> list[int]:
    """A gfx9 V# with the fields gcnemu uses: base, stride, num_records (bytes when stride is 0).

    DST_SEL/NUM_FORMAT/DATA_FORMAT bits are set as compilers set them for raw 32-bit
    buffers (0x00027000 in word 3), so the same descriptor works on hardware.
    """
    w0 = base & 0xFFFFFFFF
    w1 = ((base >> 32) & 0xFFFF) | ((stride & 0x3FFF) << 16)
    w2 = num_records & 0xFFFFFFFF
    w3 = 0x00027000
    return [w0, w1, w2, w3]
