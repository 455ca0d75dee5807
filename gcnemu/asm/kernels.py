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
    pointee_align: int | None = None  # `.pointee_align` of a dynamic_shared_pointer (where its LDS starts)

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
    from_block: bool = False  # has an `.amdhsa_kernel` block (not only a metadata entry)

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
        return _as_int(self.meta("group_segment_fixed_size", 0))

    @property
    def has_group_segment(self) -> bool:
        return self.has("group_segment_fixed_size") or self.meta("group_segment_fixed_size") is not None

    @property
    def private_segment_size(self) -> int:
        if self.has("private_segment_fixed_size"):
            return self.value("private_segment_fixed_size")
        return _as_int(self.meta("private_segment_fixed_size", 0))

    @property
    def uses_dynamic_stack(self) -> bool:
        """Whether the stack can grow past the fixed private size (recursion, calls through
        pointers): the runtime then gives each work-item a default stack instead."""
        if self.has("uses_dynamic_stack"):
            return bool(self.value("uses_dynamic_stack"))
        return bool(self.meta("uses_dynamic_stack", False))

    @property
    def max_flat_workgroup_size(self) -> int | None:
        value = self.meta("max_flat_workgroup_size")
        return None if value is None else _as_int(value)

    @property
    def kernarg_size(self) -> int:
        """Bytes of the kernarg segment: the largest of what the descriptor, the metadata and
        the last argument say (the runtime allocates the whole hidden-argument block)."""
        end = max((a.offset + a.size for a in self.args or ()), default=0)
        return max(self.value("kernarg_size"), _as_int(self.meta("kernarg_segment_size", 0)), end)


def _as_int(value) -> int:
    """A verified metadata integer (llvm-mc also takes one written as a string)."""
    if isinstance(value, str):
        return int(value, 0)
    return int(value or 0)


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
    return pick(describe(program), name)


def pick(kernels: list[KernelDescription], name: str | None) -> KernelDescription | None:
    """`find` over kernels already described (a Kernel's `descriptions`)."""
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
            current.from_block = True
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


def padded_entries(program: Program, names) -> dict[str, int]:
    """Kernel name -> the first instruction after the first `.p2align 8` (or `.align`/`.balign`
    of 256 or more) that follows its label, before another kernel's label: where a wave starts
    when the kernel preloads arguments (the compatibility loads above pad to 256 bytes, see
    `gcnemu.launch.entry_index`). A kernel without a label counts from the start of the file.
    One pass over the statements; kernels with no such alignment are left out."""
    from .program import Instruction, Label
    names = set(names)
    labelled = {st.name for st in program.statements if type(st) is Label and st.name in names}
    open_ = names - labelled  # kernels whose region is being scanned
    out: dict[str, int] = {}
    count = 0
    for st in program.statements:
        t = type(st)
        if t is Instruction:
            count += 1
        elif t is Label and st.name in names:
            open_ = {st.name} - out.keys()  # another kernel's label ends every region before it
        elif open_ and t is Directive and st.name in (".p2align", ".align", ".balign") and st.args:
            try:
                power = int(str(st.args[0]).strip(), 0)
            except ValueError:
                continue
            if (st.name == ".p2align" and power >= 8) or (st.name != ".p2align" and power >= 256):
                for n in open_:
                    out[n] = count
                open_ = set()
    return out


def function_names(program: Program) -> frozenset[str]:
    """Names marked `.type NAME,@function` (compilers mark every function, kernels included)."""
    return frozenset(str(st.args[0]).strip() for st in program.statements
                     if type(st) is Directive and st.name == ".type" and len(st.args) >= 2
                     and "function" in str(st.args[1]))


_LOADER = None


def _metadata_loader():
    """A PyYAML SafeLoader whose mappings remember their line (as `__line__`, 0-based in the
    document), so an error in a kernel's entry can point at that entry.

    Plain scalars are typed as LLVM's metadata reader types them, not by YAML 1.1's rules: only
    true/false are booleans (an argument named `on` or `no` stays a name), and integers are
    decimal, 0x hex, 0 octal or 0b binary."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    import re

    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when PyYAML has it: ~10x faster
    bool_tag, int_tag = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int"

    class Loader(base):
        yaml_implicit_resolvers = {
            first: [(tag, rx) for tag, rx in resolvers if tag not in (bool_tag, int_tag)]
            for first, resolvers in base.yaml_implicit_resolvers.items()}

    Loader.add_implicit_resolver(bool_tag, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    Loader.add_implicit_resolver(int_tag, re.compile(r"^[-+]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$"),
                                 list("-+0123456789"))

    def integer(loader, node):
        text = loader.construct_scalar(node)
        sign = -1 if text.startswith("-") else 1
        body = text.lstrip("+-")
        if body[:2].lower() in ("0x", "0b"):
            return sign * int(body, 0)
        return sign * (int(body, 8) if len(body) > 1 and body[0] == "0" else int(body))

    Loader.add_constructor(int_tag, integer)

    def mapping(loader, node):
        value = base.construct_mapping(loader, node, deep=True)
        value["__line__"] = node.start_mark.line
        return value

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    _LOADER = Loader
    return Loader


def _read_metadata(program: Program, out: dict[str, KernelDescription]) -> None:
    for st in program.statements:
        if type(st) is not Directive or st.name != ".amdgpu_metadata":
            continue
        import yaml  # here: most files have no metadata, and PyYAML takes ~25 ms to import
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
            raise error(f"invalid .amdgpu_metadata: malformed YAML: {problem}", mark.line if mark else None,
                        mark.column if mark else 0) from None
        if doc is None:
            continue
        if not isinstance(doc, dict):
            raise error(".amdgpu_metadata: expected a YAML map with 'amdhsa.kernels'", 0)
        invalid = _verify_map(doc, ROOT_KEYS, "the metadata")  # what llvm-mc refuses, the launch refuses
        if invalid is not None:
            raise error(f"invalid .amdgpu_metadata: {invalid[0]}", invalid[1])
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
        off, size = (_as_int(off), _as_int(size)) if _is_int(off) and _is_int(size) else (off, size)
        if not (isinstance(off, int) and isinstance(size, int) and off >= 0 and size >= 0):
            raise error(f".amdgpu_metadata: argument {i} of kernel '{kernel}': '.offset' and '.size' must be "
                        f"non-negative integers", where)
        if not isinstance(kind, str):
            raise error(f".amdgpu_metadata: argument {i} of kernel '{kernel}': '.value_kind' must be a name", where)
        name = a.get(".name")
        align = a.get(".pointee_align")
        args.append(KernelArg(i, str(name) if name is not None else None, off, size, kind,
                              a.get(".address_space"), a.get(".type_name"),
                              _as_int(align) if align is not None else None))
    return args


# ---------------------------------------------------------------- what llvm-mc accepts
# llvm-mc verifies the metadata at `.end_amdgpu_metadata` (LLVM's AMDGPUMetadataVerifier, in its
# non-strict mode: a string that reads as the expected type is taken) and refuses the file with
# "invalid HSA metadata" when it fails. These tables are the keys it checks.

ARG_VALUE_KINDS = frozenset("""by_value global_buffer dynamic_shared_pointer sampler image pipe queue
hidden_block_count_x hidden_block_count_y hidden_block_count_z hidden_group_size_x hidden_group_size_y
hidden_group_size_z hidden_remainder_x hidden_remainder_y hidden_remainder_z hidden_global_offset_x
hidden_global_offset_y hidden_global_offset_z hidden_grid_dims hidden_none hidden_printf_buffer
hidden_hostcall_buffer hidden_heap_v1 hidden_default_queue hidden_completion_action hidden_multigrid_sync_arg
hidden_dynamic_lds_size hidden_private_base hidden_shared_base hidden_queue_ptr""".split())
_ACCESS = ("enum", frozenset({"read_only", "write_only", "read_write"}))
# key -> (required, kind); kind: "int", "str", "bool", ("enum", names), ("ints", count or None), "args", "kernels"
ARG_KEYS: dict[str, tuple] = {
    ".name": (False, "str"), ".type_name": (False, "str"), ".size": (True, "int"), ".offset": (True, "int"),
    ".value_kind": (True, ("enum", ARG_VALUE_KINDS)), ".pointee_align": (False, "int"),
    ".address_space": (False, ("enum", frozenset({"private", "global", "constant", "local", "generic", "region"}))),
    ".access": (False, _ACCESS), ".actual_access": (False, _ACCESS), ".is_const": (False, "bool"),
    ".is_restrict": (False, "bool"), ".is_volatile": (False, "bool"), ".is_pipe": (False, "bool"),
}
KERNEL_KEYS: dict[str, tuple] = {
    ".name": (True, "str"), ".symbol": (True, "str"),
    ".language": (False, ("enum", frozenset({"OpenCL C", "OpenCL C++", "HCC", "HIP", "OpenMP", "Assembler"}))),
    ".language_version": (False, ("ints", 2)), ".args": (False, "args"), ".reqd_workgroup_size": (False, ("ints", 3)),
    ".workgroup_size_hint": (False, ("ints", 3)), ".vec_type_hint": (False, "str"),
    ".device_enqueue_symbol": (False, "str"), ".kernarg_segment_size": (True, "int"),
    ".group_segment_fixed_size": (True, "int"), ".private_segment_fixed_size": (True, "int"),
    ".uses_dynamic_stack": (False, "bool"), ".workgroup_processor_mode": (False, "int"),
    ".kernarg_segment_align": (True, "int"), ".wavefront_size": (True, "int"), ".sgpr_count": (True, "int"),
    ".vgpr_count": (True, "int"), ".max_flat_workgroup_size": (True, "int"), ".sgpr_spill_count": (False, "int"),
    ".vgpr_spill_count": (False, "int"), ".uniform_work_group_size": (False, "int"), ".cluster_dims": (False, ("ints", 3)),
}
ROOT_KEYS: dict[str, tuple] = {
    "amdhsa.version": (True, ("ints", 2)), "amdhsa.printf": (False, ("strs", None)),
    "amdhsa.globals": (False, "globals"), "amdhsa.kernels": (True, "kernels"),
}


def _is_int(v) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    if isinstance(v, str):  # non-strict: a string that reads as an integer
        try:
            int(v, 0)
            return True
        except ValueError:
            return False
    return False


def _check_value(value, kind) -> str | None:
    """Why `value` is not of `kind` (None when it is)."""
    if kind == "int":
        return None if _is_int(value) else "an integer"
    if kind == "str":
        return None if isinstance(value, str) else "a string"
    if kind == "bool":
        return None if isinstance(value, bool) or value in ("true", "false") else "true or false"
    if isinstance(kind, tuple) and kind[0] == "enum":
        if isinstance(value, str) and value in kind[1]:
            return None
        if len(kind[1]) <= 8:
            return f"one of {', '.join(sorted(kind[1]))}"
        import difflib
        close = difflib.get_close_matches(str(value), sorted(kind[1]), n=1)
        return "a name llvm-mc knows" + (f" (did you mean '{close[0]}'?)" if close else "")
    if isinstance(kind, tuple) and kind[0] in ("ints", "strs"):
        n = kind[1]
        one = _is_int if kind[0] == "ints" else (lambda v: isinstance(v, str))
        what = f"a list of {n if n else 'any number of'} {'integers' if kind[0] == 'ints' else 'strings'}"
        ok = isinstance(value, list) and (n is None or len(value) == n) and all(one(v) for v in value)
        return None if ok else what
    return None


def _verify_map(m, keys: dict, where: str):
    """(problem, line0) of the first key of map `m` that llvm-mc's verifier refuses, or None."""
    if not isinstance(m, dict):
        return f"{where} must be a map", None
    line = m.get("__line__")
    for key, (required, kind) in keys.items():
        if key not in m:
            if required:
                return f"{where} has no '{key}'", line
            continue
        value = m[key]
        if kind in ("args", "kernels", "globals"):
            if not isinstance(value, list):
                return f"'{key}' of {where} must be a list", line
            for i, item in enumerate(value):
                if kind == "args":
                    sub = _verify_map(item, ARG_KEYS, f"argument {i} of {where}")
                elif kind == "kernels":
                    name = item.get(".name") if isinstance(item, dict) else None
                    sub = _verify_map(item, KERNEL_KEYS, f"kernel '{name}'" if isinstance(name, str) else f"kernel {i}")
                else:
                    sub = _verify_map(item, {".name": (True, "str"), ".size": (True, "int")}, f"global {i}")
                if sub is not None:
                    return sub[0], sub[1] if sub[1] is not None else line
            continue
        why = _check_value(value, kind)
        if why is not None:
            return f"'{key}' of {where} must be {why}, not {value!r}", line
    return None


def verify_metadata(program: Program) -> list[Diagnostic]:
    """llvm-mc's verdict on each `.amdgpu_metadata` block: an "invalid HSA metadata" error at the
    end of its `.end_amdgpu_metadata`, as llvm-mc reports it, with a note at the line that made it
    invalid and why (malformed YAML, a missing key, a value of the wrong kind)."""
    out = []
    for st in program.statements:
        if type(st) is not Directive or st.name != ".amdgpu_metadata":
            continue
        import yaml
        first = st.span.line + 1
        end_line = first + len(st.body)
        text = program.source_line(end_line, st.span.file)
        col = len(text.rstrip()) + 1
        problem, line0 = None, None
        try:
            doc = yaml.load("\n".join(st.body), Loader=_metadata_loader())
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
            problem = f"malformed YAML: {getattr(e, 'problem', None) or str(e).splitlines()[0]}"
            line0 = mark.line if mark else None
            doc = None
        if problem is None:
            found = _verify_map(doc if doc is not None else {}, ROOT_KEYS, "the metadata")
            if found is not None:
                problem, line0 = found
        if problem is None:
            continue
        note_line = first + line0 if line0 is not None else st.span.line
        note_text = program.source_line(note_line, st.span.file)
        indent = len(note_text) - len(note_text.lstrip())
        note = Diagnostic("note", problem, Span(st.span.file, note_line, indent + 1, note_line,
                                                max(indent + 2, len(note_text.rstrip()) + 1)))
        out.append(Diagnostic("error", "invalid HSA metadata", Span(st.span.file, end_line, col, end_line, col + 1),
                              rule="metadata", notes=[note]))
    return out
