"""Launch setup: workgroup shape, buffers, kernel arguments, initial registers, LDS.

The same `Setup` comes from Python, from CLI flags (`gcnemu run --buffer ... --arg ...`)
or from the header comment of an asm file (see `gcnemu.snippets`).

When the file describes its kernels (an `.amdhsa_kernel` block, `.amdgpu_metadata`), the launch
follows that description (see `gcnemu.launch`): `kernel` picks one (default: the only or
first), its user and system SGPRs, workitem-id VGPRs, LDS and scratch sizes come from its
descriptor, and `args` are matched to its metadata by name, hidden arguments filled as the
runtime fills them. Otherwise gcnemu assumes the common layout: kernarg pointer in s[0:1],
workgroup id x in s2, and `args` laid out in the order given. Workitem ids are in v0 (x), v1
(y), v2 (z) on gfx908 and packed into v0 (x | y << 10 | z << 20) on gfx90a and later.
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
# Scratch per work-item the HIP runtime gives a kernel whose descriptor says its stack is dynamic
# (`.amdhsa_uses_dynamic_stack`: recursion or indirect calls), its default for hipLimitStackSize.
# A header's `scratch:` (Setup.private_segment_size) asks for more.
DYNAMIC_STACK_BYTES = 1024


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
    # kernel arguments: (name, buffer name | int | float) pairs or a dict; by name when the file has
    # metadata for the kernel, else in kernarg order
    args: list[tuple[str, object]] | dict = field(default_factory=list)
    sgprs: dict[str, int] = field(default_factory=dict)  # "s5" / "s[4:5]" -> value
    vgprs: dict[str, object] = field(default_factory=dict)  # "v3" -> int | array[64]
    lds_init: np.ndarray | None = None
    # dynamic LDS bytes of the launch (HIP's sharedMemBytes): the group segment is the kernel's static
    # size plus this; hidden_dynamic_lds_size carries it, an unset __local pointer argument points at it
    lds_dynamic: int = 0
    kernarg_sgpr: int | None = 0  # first SGPR of the kernarg pointer, None when not enabled
    workgroup_id_sgprs: dict[str, int] = field(default_factory=lambda: {"x": 2})
    kernel: str | None = None  # which kernel of the file to launch (None: the only or first one)
    descriptor: object = None  # its KernelDescription (set by abi_from_program), None: no description

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


def abi_from_program(program, setup: Setup, target: str | None = None) -> None:
    """Take the launch layout from the description of the kernel `setup.kernel` names (the
    only or first one by default) when the file has one; otherwise leave the common layout.
    GcnemuError when `setup.kernel` names no kernel of the file."""
    from .asm.kernels import find
    apply_description(find(program, setup.kernel), setup, target)


def apply_description(desc, setup: Setup, target: str | None = None) -> None:
    """`abi_from_program` for a kernel already described (`Kernel.description`): None leaves
    the common layout."""
    from .launch import abi_layout
    if desc is None:
        return
    setup.kernel = desc.name
    setup.descriptor = desc
    if not desc.values:  # metadata only: the arguments by name, the registers as usual
        return
    need = desc.private_segment_size + (DYNAMIC_STACK_BYTES if desc.uses_dynamic_stack else 0)
    if need:
        setup.private_segment_size = max(setup.private_segment_size, need)
    layout = abi_layout(desc, target)
    setup.kernarg_sgpr = layout.user.get("kernarg_segment_ptr")
    setup.workgroup_id_sgprs = dict(layout.workgroup_id)


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


def private_segment_descriptor(base: int) -> list[int]:
    """The V# the runtime builds for scratch through MUBUF (gfx908/gfx90a): swizzled
    (SWIZZLE_ENABLE, word 1 bit 31) with ADD_TID_ENABLE (word 3 bit 23), 4-byte elements
    (ELEMENT_SIZE, bit 19) and an index stride of 64 lanes (INDEX_STRIDE 3, bits 21-22),
    num_records all ones; the same format bits as `buffer_descriptor`. One V# serves the
    workgroup; each wave adds its own offset (the wave-offset SGPR)."""
    return [base & 0xFFFFFFFF, (base >> 32) & 0xFFFF | (1 << 31), 0xFFFFFFFF,
            (1 << 19) | (3 << 21) | (1 << 23) | 0x00027000]
