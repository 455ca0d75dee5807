"""Kernel descriptions: what an assembly file says about each kernel it defines.

A compiled file describes its kernels twice, and a launch needs both:

- the `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel` block (the kernel descriptor the assembler
  encodes): which user and system SGPRs the hardware fills, the workitem-id VGPRs, register
  budgets (`.amdhsa_next_free_vgpr/sgpr`, `.amdhsa_accum_offset`), the LDS and scratch sizes;
- the kernel's entry in the `.amdgpu_metadata` YAML (`amdhsa.kernels`): its arguments with their
  names, kernarg offsets, sizes and value kinds (the hidden ones the runtime fills included),
  and sizes the runtime reads (`.kernarg_segment_size`, `.group_segment_fixed_size`, ...).

`describe(program)` reads both into one `KernelDescription` per kernel, in file order. The YAML
is read with PyYAML; a malformed document is a diagnostic at its line of the file. Nothing here
depends on a target: which SGPR holds what is worked out at launch (`gcnemu.launch`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Diagnostic, GcnemuError
from .program import Directive, Program, Span

# `.value_kind`s of arguments the runtime fills (AMDGPUUsage, code object V4/V5 metadata)
HIDDEN_PREFIX = "hidden_"


@dataclass(frozen=True)
class KernelArg:
    """One entry of a kernel's `.args` metadata list."""

    index: int  # position in `.args`
    name: str | None  # `.name`; compilers may leave it out (hipcc does unless -fhip-kernel-arg-name)
    offset: int  # byte offset in the kernarg segment
    size: int  # bytes
    value_kind: str  # by_value, global_buffer, hidden_block_count_x, ...
    address_space: str | None = None
    type_name: str | None = None

    @property
    def hidden(self) -> bool:
        return self.value_kind.startswith(HIDDEN_PREFIX)

    @property
    def key(self) -> str | None:
        """The name a user gives this argument by: `.name` for explicit arguments, the value kind
        for hidden ones (they have no source name; `hidden_block_count_x` says what they are)."""
        return self.value_kind if self.hidden else self.name


@dataclass
class KernelDescription:
    """Everything the file says about one kernel."""

    name: str
    span: Span | None  # the `.amdhsa_kernel` directive (or the metadata entry)
    values: dict[str, int] = field(default_factory=dict)  # `.amdhsa_*` -> value, as evaluated
    spans: dict[str, Span] = field(default_factory=dict)  # `.amdhsa_*` -> where it is written
    metadata: dict | None = None  # the kernel's `amdhsa.kernels` entry
    args: tuple[KernelArg, ...] | None = None  # None: no metadata (arguments stay positional)
    metadata_line: int | None = None  # line of the entry in the file

    def __deepcopy__(self, memo) -> "KernelDescription":
        # read-only once described: a Setup copied per workgroup of a grid shares it
        return self

    def value(self, key: str, default: int = 0) -> int:
        """A descriptor value (`.amdhsa_` prefix optional)."""
        if not key.startswith("."):
            key = ".amdhsa_" + key
        return self.values.get(key, default)

    def has(self, key: str) -> bool:
        return (key if key.startswith(".") else ".amdhsa_" + key) in self.values

    def meta(self, key: str, default=None):
        """A metadata value (`.` prefix optional)."""
        if self.metadata is None:
            return default
        return self.metadata.get(key if key.startswith(".") else "." + key, default)

    @property
    def explicit_args(self) -> tuple[KernelArg, ...]:
        return tuple(a for a in self.args or () if not a.hidden)

    @property
    def group_segment_size(self) -> int:
        """Static LDS bytes of a workgroup (descriptor first, metadata otherwise)."""
        if self.has("group_segment_fixed_size"):
            return self.value("group_segment_fixed_size")
        return int(self.meta("group_segment_fixed_size", 0) or 0)

    @property
    def has_group_segment(self) -> bool:
        return self.has("group_segment_fixed_size") or self.meta("group_segment_fixed_size") is not None

    @property
    def private_segment_size(self) -> int:
        if self.has("private_segment_fixed_size"):
            return self.value("private_segment_fixed_size")
        return int(self.meta("private_segment_fixed_size", 0) or 0)

    @property
    def kernarg_size(self) -> int:
        """Bytes of the kernarg segment: the largest of what the descriptor, the metadata and
        the last argument say (the runtime allocates the whole hidden-argument block)."""
        end = max((a.offset + a.size for a in self.args or ()), default=0)
        return max(self.value("kernarg_size"), int(self.meta("kernarg_segment_size", 0) or 0), end)


# ---------------------------------------------------------------- reading the file


def describe(program: Program) -> list[KernelDescription]:
    """Every kernel the program describes, in file order (cached on the program).

    A kernel is named by an `.amdhsa_kernel` block or by an `amdhsa.kernels` metadata entry
    (`.name`); the two are joined by name. GcnemuError for malformed metadata, at its line."""
    cached = getattr(program, "_kernel_descriptions", None)
    if cached is not None:
        return cached
    out: dict[str, KernelDescription] = {}
    _read_blocks(program, out)
    _read_metadata(program, out)
    result = list(out.values())
    try:
        program._kernel_descriptions = result
    except AttributeError:  # a program type without a __dict__: no cache
        pass
    return result


def descriptor_blocks(program: Program) -> list[KernelDescription]:
    """The `.amdhsa_kernel` blocks alone, without reading the metadata YAML (what `check`
    needs: it must stay fast on 100k-line files and silent about metadata llvm-mc accepts)."""
    out: dict[str, KernelDescription] = {}
    _read_blocks(program, out)
    return list(out.values())


def find(program: Program, name: str | None) -> KernelDescription | None:
    """The kernel `name` (None: the only or first one), None when the file describes none.
    GcnemuError naming the known kernels when `name` is not one of them."""
    kernels = describe(program)
    if name is None:
        return kernels[0] if kernels else None
    for k in kernels:
        if k.name == name:
            return k
    if not kernels:
        raise GcnemuError(f"no kernel named '{name}': the file describes no kernels (no .amdhsa_kernel block "
                          f"or .amdgpu_metadata)")
    raise GcnemuError(f"no kernel named '{name}' in the file; its kernels: {', '.join(k.name for k in kernels)}")


def _read_blocks(program: Program, out: dict[str, KernelDescription]) -> None:
    from .expr import ExprError, evaluate
    constants: dict | None = None
    current: KernelDescription | None = None
    for st in program.statements:
        if type(st) is not Directive:
            continue
        name = st.name
        if name == ".amdhsa_kernel":
            kname = str(st.args[0]).strip() if st.args else ""
            current = out.setdefault(kname, KernelDescription(kname, st.span))
            current.span = st.span
            continue
        if current is None:
            continue
        if name == ".end_amdhsa_kernel":
            current = None
            continue
        if not name.startswith(".amdhsa_") or not st.args:
            continue
        if constants is None:
            constants = program.constants()
        try:
            current.values[name] = evaluate(str(st.args[0]), constants)
        except (ExprError, Exception):  # a value that is no constant: `check` reports it; the launch ignores it
            continue
        current.spans[name] = st.span


def _metadata_loader():
    """A PyYAML SafeLoader whose mappings remember their line (as `__line__`, 0-based in the
    document), so an error in a kernel's entry can point at that entry."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when PyYAML has it: ~10x faster

    class Loader(base):
        pass

    def mapping(loader, node):
        value = base.construct_mapping(loader, node, deep=True)
        value["__line__"] = node.start_mark.line
        return value

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return Loader


def _read_metadata(program: Program, out: dict[str, KernelDescription]) -> None:
    import yaml
    for st in program.statements:
        if type(st) is not Directive or st.name != ".amdgpu_metadata":
            continue
        first = st.span.line + 1  # the body starts on the line after the directive
        body = "\n".join(st.body)

        def error(message: str, line0: int | None, col0: int = 0) -> GcnemuError:
            line = first + line0 if line0 is not None else st.span.line
            text = program.source_line(line, st.span.file)
            col = col0 + 1 if line0 is not None else st.span.column
            span = Span(st.span.file, line, col, line, max(col + 1, len(text) + 1))
            return GcnemuError(message, [Diagnostic("error", message, span, rule="metadata")])

        try:
            doc = yaml.load(body, Loader=_metadata_loader())
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
            problem = getattr(e, "problem", None) or str(e).splitlines()[0]
            raise error(f"malformed .amdgpu_metadata YAML: {problem}", mark.line if mark else None,
                        mark.column if mark else 0) from None
        if doc is None:
            continue
        if not isinstance(doc, dict):
            raise error(".amdgpu_metadata: expected a YAML map with 'amdhsa.kernels'", 0)
        kernels = doc.get("amdhsa.kernels", [])
        if not isinstance(kernels, list):
            raise error(".amdgpu_metadata: 'amdhsa.kernels' must be a list of kernels", doc.get("__line__"))
        for entry in kernels:
            if not isinstance(entry, dict):
                raise error(".amdgpu_metadata: each entry of 'amdhsa.kernels' must be a map", None)
            line0 = entry.get("__line__")
            kname = entry.get(".name")
            if not isinstance(kname, str) or not kname:
                raise error(".amdgpu_metadata: a kernel entry has no '.name'", line0)
            desc = out.setdefault(kname, KernelDescription(kname, None))
            desc.metadata = {k: v for k, v in entry.items() if k != "__line__"}
            desc.metadata_line = first + line0 if line0 is not None else st.span.line
            if desc.span is None:
                desc.span = Span(st.span.file, desc.metadata_line, 1, desc.metadata_line, 2)
            desc.args = tuple(_read_args(entry.get(".args", []) or [], kname, error, line0))


def _read_args(items, kernel: str, error, line0) -> list[KernelArg]:
    if not isinstance(items, list):
        raise error(f".amdgpu_metadata: '.args' of kernel '{kernel}' must be a list", line0)
    args = []
    for i, a in enumerate(items):
        if not isinstance(a, dict):
            raise error(f".amdgpu_metadata: argument {i} of kernel '{kernel}' must be a map", line0)
        where = a.get("__line__", line0)
        for key in (".offset", ".size", ".value_kind"):
            if key not in a:
                raise error(f".amdgpu_metadata: argument {i} of kernel '{kernel}' has no '{key}'", where)
        off, size, kind = a[".offset"], a[".size"], a[".value_kind"]
        if not (isinstance(off, int) and isinstance(size, int) and off >= 0 and size >= 0):
            raise error(f".amdgpu_metadata: argument {i} of kernel '{kernel}': '.offset' and '.size' must be "
                        f"non-negative integers", where)
        if not isinstance(kind, str):
            raise error(f".amdgpu_metadata: argument {i} of kernel '{kernel}': '.value_kind' must be a name", where)
        name = a.get(".name")
        args.append(KernelArg(i, str(name) if name is not None else None, off, size, kind,
                              a.get(".address_space"), a.get(".type_name")))
    return args
