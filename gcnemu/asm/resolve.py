"""Program + target -> Kernel: the form the simulator and linter work on.

Binds each instruction to its ISA table row and its semantic function, folds
`.set` symbols, and maps labels to instruction indices. Validation errors are
reported by `validate`; `resolve` refuses a program that has any.

Resolution is finished when `resolve` returns: every operand, call argument and modifier that
names a `.set` symbol or is an expression of them is an `Imm` in the Kernel's instructions, so
the simulator never evaluates an expression while it runs. What is left as a `Symbol` is a
name with a meaning of its own (a branch label, a bare DPP control, `HW_REG_MODE`) or something
no constant stands for (a float `.set`, an undefined name); the simulator refuses the latter.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .diagnostics import GcnemuError, has_errors
from ..isa import dpp as dpp_table, opcodes
from ..isa.targets import Target, get_target
from .evaluate import eval_const  # noqa: F401 (re-exported: the API and callers import it from here)
from .kernels import KernelDescription, describe, descriptor_blocks, function_names, padded_entries, pick
from .features import TARGET_FEATURES, target_features  # noqa: F401 (re-exported; the CLI sets TARGET_FEATURES)
from .program import Call, CallGroup, Expr, FloatImm, Imm, Instruction, Modified, Program, Symbol


@dataclass
class Kernel:
    """A program bound to a target: everything a launch and a run need, worked out once.

    The launch (`gcnemu.simulation`, `gcnemu.launch`) reads the kernels' descriptions and where
    their code starts and ends from here, never from the Program's directives again."""

    program: Program
    target: Target
    instructions: list[Instruction]
    labels: dict[str, int]
    symbols: dict
    infos: list = field(default_factory=list)  # OpInfo | None per instruction
    # every kernel the file describes (`.amdhsa_kernel` block and `.amdgpu_metadata` entry), in
    # file order (gcnemu.asm.kernels.describe)
    descriptions: list = field(default_factory=list)
    # malformed metadata: kept to be raised by `description`, so that a Kernel can still be
    # checked, linted and inspected; only a launch needs the metadata
    description_error: GcnemuError | None = None
    functions: frozenset = frozenset()  # names marked `.type NAME,@function`: where a kernel's code ends
    padded_entries: dict = field(default_factory=dict)  # kernel -> first instruction after its 256-byte padding
    _image: object = field(default=None, repr=False)  # CodeImage, made at first use (see `image`)
    _branch_labels: dict | None = field(default=None, repr=False)  # see `branch_labels`

    def description(self, name: str | None) -> "KernelDescription | None":
        """The kernel `name` describes (None: the only or first one), None when the file
        describes none; GcnemuError for malformed metadata or a name that is no kernel's."""
        if self.description_error is not None:
            raise self.description_error
        return pick(self.descriptions, name)

    @property
    def image(self):
        """Byte addresses of the code (`gcnemu.asm.image.CodeImage`): what s_getpc_b64 returns and
        s_setpc_b64 jumps to. Laid out at first use: checking and linting never need it."""
        if self._image is None:
            from .image import layout
            self._image = layout(self.program, self.target.name)
        return self._image

    @property
    def branch_labels(self) -> dict[str, int | None]:
        """Label -> the instruction a branch to it continues at, for the engines; None for a label
        that no instruction starts at (data: a `.long` table in the code, a `.rodata` label, or the
        end of the code). Why: `labels` counts instructions in statement order, so a data label
        maps to the next instruction written after it (or past the last one) and a branch there
        would run code the hardware never reaches (it would decode the data's bytes)."""
        if self._branch_labels is None:
            image = self.image
            out: dict[str, int | None] = {}
            for name, index in self.labels.items():
                address = image.labels.get(name)
                code = address is not None and index < len(image.addresses) and image.addresses[index] == address
                out[name] = index if code else None
            self._branch_labels = out
        return self._branch_labels

    def same_file(self, span_file: str, file: str | None) -> bool:
        """Is `span_file` the file a user named (None: the file being assembled)? A name may be
        given as written in the .include, as a path, or as the base name."""
        main = self.program.file
        if file is None:
            return span_file == main
        if span_file == file:
            return True
        import os
        return os.path.basename(span_file) == os.path.basename(file) or \
            os.path.abspath(span_file) == os.path.abspath(file)

    def written_at(self, index: int) -> str:
        """Where instruction `index` is written, for messages: "line 12" in the file being
        assembled, "regs.inc:12" in an included one."""
        import os
        sp = self.instructions[index].span
        return f"line {sp.line}" if sp.file == self.program.file else f"{os.path.basename(sp.file)}:{sp.line}"

    def instruction_at_line(self, line: int, file: str | None = None) -> int | None:
        """The instruction a user means by a source line of `file` (None: the file being
        assembled, not an included one): the first one written on it, else the first one a
        macro call or `.rept` on it expanded to, else the first on a later line of that file.
        (Macro bodies come before their uses, so program order is not always line order.)"""
        best = None
        for i, ins in enumerate(self.instructions):
            if not self.same_file(ins.span.file, file):
                continue
            ln = ins.span.line
            if ln == line:
                return i
            if ln > line and (best is None or ln < self.instructions[best].span.line):
                best = i
        expansions = self.program.expansions
        if expansions and (file is None or self.same_file(self.program.file, file)):
            for i in sorted(expansions):
                if line in expansions[i]:
                    return i
        return best

    def instructions_on_line(self, index: int) -> tuple[int, ...]:
        """Every instruction written on the same source line as instruction ``index``.

        Why: a line of a .macro or .rept body is one line of text but one instruction per
        instantiation; a breakpoint there must stop at each of them, as gdb's does in an
        inlined function. Outside expansions this is just ``(index,)``."""
        if not self.program.expansions or index not in self.program.expansions:
            return (index,)
        span = self.instructions[index].span
        return tuple(i for i, ins in enumerate(self.instructions)
                     if ins.span.line == span.line and ins.span.file == span.file and i in self.program.expansions)


def resolve(program: Program, target: str | Target, validate_first: bool = True) -> Kernel:
    tgt = target if isinstance(target, Target) else get_target(target)
    if validate_first:
        from .validate import validate
        diags = validate(program, tgt.name)
        if has_errors(diags):
            raise GcnemuError("the program has errors", [d for d in diags if d.severity == "error"])
    symbols = program.symbols  # once: the property scans every statement (per instruction, quadratic)
    instructions = [_with_encoding_suffix(_fold_constants(_bind_lit_symbols(i, symbols), symbols))
                    for i in program.instructions]
    instructions = [_inst_offset_as_offset(i) if i.modifiers else i for i in instructions]
    rows: dict[str, object] = {}  # mnemonic -> its opcodes row: a kernel repeats a few dozen mnemonics
    infos = []
    for i in instructions:
        m = i.mnemonic
        if m not in rows:
            rows[m] = opcodes.lookup(m)
        infos.append(rows[m])
    kernel = Kernel(program, tgt, instructions, program.labels, symbols, infos)
    _describe(kernel)
    _link(kernel)
    return kernel


_FLAT_PREFIXES = ("flat_", "global_", "scratch_")


def _inst_offset_as_offset(ins: Instruction) -> Instruction:
    """`inst_offset:N` on FLAT/GLOBAL/SCRATCH is llvm-mc 22's old spelling of `offset:N` (it encodes
    both alike, on every gfx9 target): the simulator reads `offset`."""
    mods = ins.modifiers
    if not ins.mnemonic.startswith(_FLAT_PREFIXES) or all(m.name != "inst_offset" for m in mods):
        return ins
    return replace(ins, modifiers=tuple(replace(m, name="offset") if m.name == "inst_offset" else m for m in mods))


def _describe(kernel: Kernel) -> None:
    """The kernels' descriptions and code boundaries, on the Kernel (see its fields)."""
    program = kernel.program
    try:
        kernel.descriptions = describe(program)
    except GcnemuError as e:
        kernel.description_error = e
        kernel.descriptions = descriptor_blocks(program)
    blocks = [d.name for d in kernel.descriptions if d.from_block]
    kernel.functions = function_names(program)
    kernel.padded_entries = padded_entries(program, blocks) if blocks else {}


def _link(kernel: Kernel) -> None:
    """Relocated literals (`callee@rel32@lo+4`, a label used as a value) become the values the
    linker writes (gcnemu.asm.image); the layout is only made when an instruction has one."""
    from .image import link, needs_link
    names = kernel.labels.keys()
    if not any(needs_link(ins, kernel.symbols, names) for ins in kernel.instructions):
        return
    image = kernel.image
    kernel.instructions = link(kernel.instructions, image, kernel.symbols, set(names))


def _lit_value(op, symbols: dict):
    """`lit(x)` with `x = 5` / `.set x, 5` / `lit(x+1)`: the forced-literal Imm (or FloatImm for
    `.set x, 2.5`) the parser makes for `lit(5)`, source `lit(...)`, span the value's; the
    operand unchanged when it is no such call or does not evaluate to a constant."""
    if isinstance(op, Modified):
        inner = _lit_value(op.inner, symbols)
        return op if inner is op.inner else replace(op, inner=inner)
    if not (isinstance(op, Call) and op.name == "lit" and len(op.args) == 1):
        return op
    x = op.args[0]
    src = f"lit({x.text()})"
    target, depth = x, 0
    while isinstance(target, Symbol) and target.name in symbols and depth < 64:
        target, depth = symbols[target.name], depth + 1
    if isinstance(target, FloatImm):
        return FloatImm(target.value, x.span, src)
    try:
        return Imm(eval_const(x, symbols), x.span, src)
    except (GcnemuError, TypeError, ValueError, ZeroDivisionError, OverflowError):
        return op


# modifiers that only the SDWA or the DPP encoding of a VOP1/VOP2/VOPC instruction has
_SDWA_MODIFIERS = frozenset({"dst_sel", "dst_unused", "src0_sel", "src1_sel"})
_DPP_MODIFIERS = dpp_table.DPP_CONTROLS | frozenset({"row_mask", "bank_mask", "bound_ctrl"})  # (row_newbcast too)
_DPP_BARE = frozenset({"row_mirror", "row_half_mirror"})  # controls without a value, parsed as operands


def _with_encoding_suffix(ins: Instruction) -> Instruction:
    """The instruction as llvm-mc encodes it: `v_cvt_f32_f16 v3, v1 src0_sel:WORD_1` is
    v_cvt_f32_f16_sdwa and `v_mov_b32 v0, v1 row_shr:1` is v_mov_b32_dpp (the modifiers choose
    the encoding when the mnemonic names none). The simulator takes SDWA selects and DPP lane
    moves from the suffix, so without it such an instruction would silently run as plain VOP1."""
    if not ins.mnemonic.startswith("v_") or not (ins.modifiers or any(isinstance(o, Symbol) for o in ins.operands)):
        return ins  # (no modifier and no bare DPP control: nothing below applies)
    if opcodes.base_mnemonic(ins.mnemonic)[1]:
        return ins
    names = {m.name for m in ins.modifiers}
    if names & _SDWA_MODIFIERS:
        return replace(ins, mnemonic=ins.mnemonic + "_sdwa")
    if names & _DPP_MODIFIERS or any(isinstance(o, Symbol) and o.name in _DPP_BARE for o in ins.operands):
        return replace(ins, mnemonic=ins.mnemonic + "_dpp")
    return ins


def _bind_lit_symbols(ins: Instruction, symbols: dict) -> Instruction:
    """The instruction with its `lit(symbol)` operands evaluated (see _lit_value); itself when
    it has none, so the simulator never meets a `lit` Call."""
    if not any(isinstance(o, (Call, Modified)) for o in ins.operands):
        return ins
    ops = tuple(_lit_value(o, symbols) for o in ins.operands)
    if all(a is b for a, b in zip(ops, ins.operands)):
        return ins
    return replace(ins, operands=ops)


# Names that calls give a meaning to (`hwreg(HW_REG_MODE)`, `gpr_idx(SRC0,DST)`,
# `swizzle(QUAD_PERM, ...)`, `sendmsg(MSG_GS, GS_OP_EMIT)`): the assembler reads such a name
# before any `.set` symbol of the same spelling, so it is never folded.
_CALL_NAME_PREFIXES = ("HW_REG_", "MSG_", "GS_OP_", "SYSMSG_")
_CALL_NAMES = frozenset({"SRC0", "SRC1", "SRC2", "DST", "QUAD_PERM", "BITMASK_PERM", "SWAP", "REVERSE",
                         "BROADCAST", "FFT", "ROTATE"})
# modifiers whose value is a name, not a number (`dst_sel:WORD_1`)
_NAMED_MODIFIERS = frozenset({"dst_sel", "dst_unused", "src0_sel", "src1_sel"})


def _constant(op, symbols: dict):
    """`op` as the Imm it stands for when it is a `.set` symbol or an expression that evaluates
    to an integer (printing as written); `op` itself otherwise (a label, a relocation such as
    `callee@rel32@lo` that `_link` fills in, a float symbol, an undefined name)."""
    t = type(op)
    if t is Symbol:
        if op.name not in symbols:
            return op
    elif t is Expr:
        pass
    elif t is Modified:
        inner = _constant(op.inner, symbols)
        return op if inner is op.inner else replace(op, inner=inner)
    elif t is Call:
        args = tuple(a if type(a) is Symbol and (a.name.upper() in _CALL_NAMES or
                                                 a.name.upper().startswith(_CALL_NAME_PREFIXES))
                     else _constant(a, symbols) for a in op.args)
        return op if all(a is b for a, b in zip(args, op.args)) else replace(op, args=args)
    elif t is CallGroup:
        calls = tuple(_constant(c, symbols) for c in op.calls)
        return op if all(a is b for a, b in zip(calls, op.calls)) else replace(op, calls=calls)
    else:
        return op
    try:
        value = eval_const(op, symbols)
    except (GcnemuError, TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError):
        return op
    return Imm(value, op.span, op.text())


_MAY_NAME_SYMBOLS = frozenset({Symbol, Expr, Modified, Call, CallGroup})


def _fold_constants(ins: Instruction, symbols: dict) -> Instruction:
    """The instruction with its symbol operands folded (see `_constant`), and a modifier written
    with a `.set` symbol (`offset:OFF`) given its integer; itself when nothing changes, which
    is nearly always: the parser already folds a symbol defined before its use, so what is left
    are forward references (`s_mov_b32 s0, N` above `.set N, 3`)."""
    ops = folded = ins.operands
    for o in ops:
        if type(o) in _MAY_NAME_SYMBOLS:  # (most instructions have registers and numbers only)
            folded = tuple(_constant(o, symbols) for o in ops)
            break
    mods = ins.modifiers
    if mods and any(type(m.value) is str and m.value in symbols for m in mods):
        new = []
        for m in mods:
            if type(m.value) is str and m.value in symbols and m.name not in _NAMED_MODIFIERS:
                c = _constant(Symbol(m.value, m.span), symbols)
                if type(c) is Imm:
                    m = replace(m, value=c.value)
            new.append(m)
        mods = tuple(new)
    if mods is ins.modifiers and (folded is ops or all(a is b for a, b in zip(folded, ops))):
        return ins
    return replace(ins, operands=folded, modifiers=mods)
