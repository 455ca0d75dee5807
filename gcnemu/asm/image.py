"""The code object as a loader places it: a byte address for every instruction and code label,
relocated literals, and a global offset table.

Why: compiled code computes code addresses. llc calls a function with

    s_getpc_b64 s[16:17]                          ; address of the next instruction
    s_add_u32   s16, s16, callee@rel32@lo+4       ; + (callee + 4 - address of this literal)
    s_addc_u32  s17, s17, callee@rel32@hi+12
    s_swappc_b64 s[30:31], s[16:17]

which only lands on `callee` if every instruction has its real encoded size
(`gcnemu.asm.sizes`) and every literal is what the linker writes into it.

Layout, as llvm-mc lays out an object: each section that holds instructions is laid out in
the order of the file; instructions take their encoded size; `.p2align`/`.balign`/`.align`
(bytes on AMDGPU), `.fill`, `.space`/`.skip`/`.zero`, `.byte`/`.short`/`.long`/`.quad`,
string directives and `.incbin` (the file's bytes, read by the preprocessor) add their bytes. The first code section starts at CODE_BASE, later ones
follow, aligned to their largest alignment. The GOT (one 8-byte entry per symbol named by
`@gotpcrel32`, holding the symbol's address) follows the code.

Relocated literals (a label or a `sym@variant` in a source operand), with S the symbol's
address, A the addend written after it and P the address of the literal dword (instruction
address + 4), as LLVM's AMDGPU assembler and ELF linker compute them:

    sym@rel32@lo / @rel32@hi          (S + A - P) low / high 32 bits
    sym@gotpcrel32@lo / @hi           (G + A - P), G the address of sym's GOT entry
    sym@abs32@lo / @abs32@hi          (S + A) low / high 32 bits
    label (+ A)                       S + A - P (llvm-mc's FK_PCRel_4 for a plain symbol)
    label1 - label2 (+ A)             the difference, as a constant

A symbol the file does not define (an external device-library function with no body here)
gets a placeholder address outside the code; jumping there stops the run with a message
naming it (`unresolved`). Data sections with labels (.rodata constant tables, .data, .bss)
are placed after the GOT with the bytes their directives emit, so `table@rel32@lo+4` followed by
a load reads the table; metadata sections (.note, .AMDGPU.*) are not loaded.
"""
from __future__ import annotations

import bisect
import codecs
from dataclasses import dataclass, field, replace

from .program import Assignment, Directive, Expr, Imm, Instruction, Label, Modified, Program, Symbol

CODE_BASE = 0x0000_7000_0000_0000  # where the loader puts the first code byte
UNRESOLVED_BASE = 0x0000_7FF0_0000_0000  # placeholder addresses of symbols with no definition
_ENTRY = 16  # bytes between two placeholder addresses

RELOC_VARIANTS = ("rel32@lo", "rel32@hi", "gotpcrel32@lo", "gotpcrel32@hi", "abs32@lo", "abs32@hi")
# branch instructions take a label operand as a branch target, not as a literal
_BRANCHES = ("s_branch", "s_cbranch_", "s_call_b64")
_DATA_SIZES = {".byte": 1, ".short": 2, ".hword": 2, ".2byte": 2, ".value": 2, ".long": 4, ".int": 4, ".4byte": 4,
               ".quad": 8, ".8byte": 8}
_ALIGN_POW2 = (".p2align", ".p2alignw", ".p2alignl")
_ALIGN_BYTES = (".align", ".balign", ".balignw", ".balignl")


class LinkError(Exception):
    """An operand the linker cannot relocate (e.g. `sym@rel32@lo * 2`)."""


@dataclass
class CodeImage:
    """Byte addresses of the code. `addresses[i]` is instruction i's address."""

    addresses: list[int]
    sizes: list[int]
    labels: dict[str, int]  # code label -> address
    end: int  # first byte after the code
    got: dict[str, int] = field(default_factory=dict)  # symbol -> address of its GOT entry
    got_base: int = 0
    unresolved: dict[int, str] = field(default_factory=dict)  # placeholder address -> symbol name
    data_labels: dict[str, str] = field(default_factory=dict)  # label of a section not placed -> section
    data: list[tuple[str, int, bytes]] = field(default_factory=list)  # placed data sections: name, base, bytes

    def address_of(self, index: int) -> int:
        """Address of instruction `index`; the end of the code for the index after the last."""
        return self.addresses[index] if index < len(self.addresses) else self.end

    def index_at(self, address: int) -> int | None:
        """The instruction that starts at `address`, None when none does."""
        i = bisect.bisect_left(self.addresses, address)
        return i if i < len(self.addresses) and self.addresses[i] == address else None

    def got_bytes(self) -> bytes:
        """The GOT's contents: each entry the 64-bit address of its symbol."""
        out = bytearray(8 * len(self.got))
        for name, entry in self.got.items():
            out[entry - self.got_base: entry - self.got_base + 8] = self.symbol_address(name).to_bytes(8, "little")
        return bytes(out)

    def symbol_address(self, name: str) -> int:
        if name in self.labels:
            return self.labels[name]
        for address, sym in self.unresolved.items():
            if sym == name:
                return address
        raise KeyError(name)

    def describe_jump(self, address: int, instructions: list[Instruction]) -> str:
        """Why `address` is no place to jump to, for an error message after the mnemonic."""
        if address in self.unresolved:
            name = self.unresolved[address]
            if name in self.data_labels:
                return f"jumps to '{name}', a label of the data section {self.data_labels[name]}, not code"
            return (f"calls '{name}', which this file does not define (an external function, e.g. a "
                    f"device-library routine, has no body here: put its definition in the file)")
        if not (CODE_BASE <= address < self.end):
            return (f"jumps to 0x{address:x}, which is not an instruction address: it is outside the code "
                    f"(0x{CODE_BASE:x}..0x{self.end:x})")
        i = bisect.bisect_right(self.addresses, address) - 1
        if i < 0:
            return f"jumps to 0x{address:x}, which is not an instruction address: it is before the first instruction"
        ins = instructions[i] if i < len(instructions) else None
        what = f"'{ins.text()}' (line {ins.span.line}, at 0x{self.addresses[i]:x})" if ins is not None else \
            f"the instruction at 0x{self.addresses[i]:x}"
        return (f"jumps to 0x{address:x}, which is not an instruction address: it is "
                f"{address - self.addresses[i]} bytes into {what}")


def _int(text: str, symbols: dict) -> int:
    from .expr import evaluate
    env = {k: v.value for k, v in symbols.items() if isinstance(v, Imm)}
    return evaluate(text.strip(), env)


def _string_bytes(arg: str) -> int:
    s = arg.strip()
    if len(s) >= 2 and s[0] == s[-1] == '"':
        try:
            return len(codecs.escape_decode(s[1:-1].encode())[0])
        except ValueError:
            return len(s) - 2
    return 0


def _incbin_data(d: Directive, incbins: dict) -> bytes:
    """The bytes an `.incbin` emits, as the preprocessor read them (none when it refused it)."""
    return incbins.get((d.span.file, d.span.line), b"") if d.span is not None else b""


def _directive_bytes(d: Directive, offset: int, symbols: dict, incbins: dict | None = None) -> tuple[int, int]:
    """(bytes the directive adds at `offset`, the alignment it asks for)."""
    name, args = d.name.lower(), d.args
    if name == ".incbin":
        return len(_incbin_data(d, incbins or {})), 1
    try:
        if name in _ALIGN_POW2 or name in _ALIGN_BYTES:
            if not args:
                return 0, 1
            n = _int(args[0], symbols)
            align = 1 << n if name in _ALIGN_POW2 else max(n, 1)
            pad = -offset % align
            if len(args) >= 3 and args[2].strip() and pad > _int(args[2], symbols):
                return 0, align
            return pad, align
        if name in _DATA_SIZES:
            return _DATA_SIZES[name] * len([a for a in args if a.strip()]), 1
        if name == ".fill":
            count = _int(args[0], symbols)
            size = _int(args[1], symbols) if len(args) > 1 and args[1].strip() else 1
            return max(count, 0) * max(size, 0), 1
        if name in (".space", ".skip", ".zero"):
            return max(_int(args[0], symbols), 0), 1
        if name in (".ascii", ".asciz", ".string"):
            extra = 0 if name == ".ascii" else 1
            return sum(_string_bytes(a) + extra for a in args), 1
    except Exception:  # an argument gcnemu cannot evaluate: validation reports it, the layout skips it
        return 0, 1
    return 0, 1


def _section_name(d: Directive) -> str | None:
    name = d.name.lower()
    if name in (".text", ".data", ".bss", ".rodata"):
        return name
    if name in (".section", ".pushsection") and d.args:
        return d.args[0].strip().strip('"')
    return None


def layout(program: Program, target: str) -> CodeImage:
    """Place every instruction and label of `program` (see the module docstring)."""
    from .evaluate import eval_const
    from .sizes import instruction_size
    known: dict = {}  # symbols assigned so far (llvm-mc knows a symbol's value from its definition on)

    def value_of(op):
        try:
            return eval_const(op, known), False
        except Exception:
            return None

    section = ".text"
    stack: list[str] = []
    previous = section
    offsets: dict[str, int] = {}
    aligns: dict[str, int] = {}
    placed: list[tuple[str, int, int]] = []  # per instruction: (section, offset, size)
    pending: dict[str, list] = {}  # section -> [(directive, offset, bytes)] (data: filled in once placed)
    label_at: dict[str, tuple[str, int]] = {}
    for s in program.statements:
        t = type(s)
        if t is Instruction:
            size = instruction_size(s, target, value_of)
            off = offsets.get(section, 0)
            placed.append((section, off, size))
            offsets[section] = off + size
        elif t is Label:
            label_at[s.name] = (section, offsets.get(section, 0))
        elif t is Assignment:
            known[s.name] = s.value
        elif t is Directive:
            name = s.name.lower()
            new = _section_name(s)
            if new is not None:
                if name == ".pushsection":
                    stack.append(section)
                previous, section = section, new
            elif name == ".popsection" and stack:
                previous, section = section, stack.pop()
            elif name == ".previous":
                previous, section = section, previous
            else:
                add, align = _directive_bytes(s, offsets.get(section, 0), known, program.incbins)
                if add or align > 1:
                    pending.setdefault(section, []).append((s, offsets.get(section, 0), add))
                    offsets[section] = offsets.get(section, 0) + add
                    aligns[section] = max(aligns.get(section, 1), align)
    code_sections: list[str] = []
    for sec, _off, _size in placed:
        if sec not in code_sections:
            code_sections.append(sec)
    if not code_sections:
        code_sections = [".text"]
    starts: dict[str, int] = {}
    cursor = CODE_BASE
    for sec in code_sections:
        align = aligns.get(sec, 4)
        cursor += -cursor % align
        starts[sec] = cursor
        cursor += offsets.get(sec, 0)
    end = cursor
    addresses = [starts[sec] + off for sec, off, _ in placed]
    # data sections that hold a label and bytes (.rodata tables, .data, .bss) follow the code and a
    # GOT-sized gap, each at its alignment; metadata sections (.note, .AMDGPU.*) are not loaded
    data_sections = []
    for sec in dict.fromkeys(sec for sec, _off in label_at.values()):
        if sec not in starts and offsets.get(sec, 0) and not sec.startswith((".note", ".AMDGPU", ".debug")):
            data_sections.append(sec)
    cursor = end + (-end % 8) + DATA_GAP
    for sec in data_sections:
        align = max(aligns.get(sec, 1), 8)
        cursor += -cursor % align
        starts[sec] = cursor
        cursor += offsets[sec]
    labels, data_labels = {}, {}
    for name, (sec, off) in label_at.items():
        if sec in starts:
            labels[name] = starts[sec] + off
        else:
            data_labels[name] = sec
    image = CodeImage(addresses, [size for _, _, size in placed], labels, end, data_labels=data_labels)
    image.got_base = end + (-end % 8)
    env = {k: v.value for k, v in program.symbols.items() if isinstance(v, Imm)}
    env.update(labels)
    for sec in data_sections:
        image.data.append((sec, starts[sec], _section_bytes(pending.get(sec, []), offsets[sec], env, program.incbins)))
    return image


DATA_GAP = 0x10000  # room for the GOT (8192 entries) between the code and the first data section


def _section_bytes(directives: list, size: int, env: dict, incbins: dict | None = None) -> bytes:
    """The contents of a data section: each directive's bytes at its offset."""
    out = bytearray(size)
    for d, offset, length in directives:
        data = _incbin_data(d, incbins or {}) if d.name.lower() == ".incbin" else _directive_data(d, offset, length, env)
        out[offset:offset + len(data)] = data
    return bytes(out)


def _directive_data(d: Directive, offset: int, length: int, env: dict) -> bytes:
    """The bytes a data directive emits (`length` of them, known from the layout). A value that
    does not evaluate (a symbol gcnemu cannot resolve) leaves zeros, as a relocation would."""
    from .expr import evaluate
    name, args = d.name.lower(), [a for a in d.args if a.strip()]

    def value(text: str, default: int = 0) -> int:
        try:
            return evaluate(text.strip(), env)
        except Exception:
            return default

    if name in _DATA_SIZES:
        width = _DATA_SIZES[name]
        return b"".join((value(a) & ((1 << (8 * width)) - 1)).to_bytes(width, "little") for a in args)
    if name == ".fill" and args:
        size = value(args[1], 1) if len(args) > 1 else 1
        fill = value(args[2]) if len(args) > 2 else 0
        one = (fill & 0xFFFFFFFF).to_bytes(4, "little")[:size] + bytes(max(size - 4, 0))
        return one * (length // max(size, 1))
    if name in (".space", ".skip", ".zero"):
        fill = value(args[1]) if len(args) > 1 else 0
        return bytes([fill & 0xFF]) * length
    if name in (".ascii", ".asciz", ".string"):
        out = b""
        for a in args:
            a = a.strip()
            text = codecs.escape_decode(a[1:-1].encode())[0] if len(a) >= 2 and a[0] == a[-1] == '"' else b""
            out += text + (b"" if name == ".ascii" else b"\0")
        return out
    if name in _ALIGN_POW2 or name in _ALIGN_BYTES:
        width = {".p2alignw": 2, ".balignw": 2, ".p2alignl": 4, ".balignl": 4}.get(name, 1)
        fill = value(args[1]) if len(args) > 1 else 0
        unit = (fill & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
        return (unit * (length // width + 1))[:length]
    return bytes(length)


# ---------------------------------------------------------------- relocation


@dataclass
class _Term:
    """sign * (address of `name` under `variant`) inside an operand's expression."""

    name: str
    variant: str  # "" (plain label) or one of RELOC_VARIANTS
    sign: int


def _split(name: str) -> tuple[str, str]:
    base, _, variant = name.partition("@")
    return base, variant.lower()


def _terms(op, symbols: dict, labels: dict, depth: int = 0) -> tuple[list[_Term], int] | None:
    """The operand as a sum of symbol terms plus a constant; None when it names no label or
    relocation (an ordinary constant: the simulator evaluates it as before)."""
    if depth > 64:
        raise LinkError("symbol definitions are circular")
    if isinstance(op, Imm):
        return [], op.value
    if isinstance(op, Symbol):
        if op.name in symbols:
            return _terms(symbols[op.name], symbols, labels, depth + 1)
        base, variant = _split(op.name)
        if variant:
            if variant not in RELOC_VARIANTS:
                raise LinkError(f"'{op.name}': gcnemu does not relocate @{variant} in an instruction")
            return [_Term(base, variant, 1)], 0
        if op.name in labels:
            return [_Term(op.name, "", 1)], 0
        return None
    if isinstance(op, Modified) and op.neg and not op.abs and not op.sext:
        inner = _terms(op.inner, symbols, labels, depth + 1)
        return None if inner is None else ([replace(t, sign=-t.sign) for t in inner[0]], -inner[1])
    if isinstance(op, Expr):
        parts = [_terms(a, symbols, labels, depth + 1) for a in op.args]
        if all(p is None or not p[0] for p in parts):
            return None
        if any(p is None for p in parts):
            raise LinkError(f"'{op.text()}' mixes a relocated symbol with a value gcnemu cannot evaluate")
        if op.op == "neg" and len(parts) == 1:
            return [replace(t, sign=-t.sign) for t in parts[0][0]], -parts[0][1]
        if op.op in ("+", "-") and len(parts) == 2:
            (ta, ca), (tb, cb) = parts
            if op.op == "-":
                tb, cb = [replace(t, sign=-t.sign) for t in tb], -cb
            return ta + tb, ca + cb
        raise LinkError(f"'{op.text()}' is not a relocatable expression (only sums and differences are)")
    return None


def relocated_value(op, ins_address: int, image: CodeImage, symbols: dict, labels: dict) -> int | None:
    """The 32-bit value the linker writes for a literal operand at `ins_address`; None when the
    operand names no label or relocation."""
    found = _terms(op, symbols, labels)
    if found is None or not found[0]:
        return None
    terms, addend = found
    P = ins_address + 4  # the literal dword follows the first instruction dword
    plain = [t for t in terms if not t.variant]
    if len(terms) == len(plain) and sum(t.sign for t in terms) == 0:  # label differences
        return (sum(t.sign * image.labels[t.name] for t in terms) + addend) & 0xFFFFFFFF
    if len(terms) != 1 or terms[0].sign != 1:
        raise LinkError("a relocated literal names one symbol (plus a constant)")
    t = terms[0]
    if t.variant.startswith("gotpcrel32"):
        S = image.got[t.name]
    else:
        S = image.symbol_address(t.name)
    if t.variant.startswith("abs32"):
        value = S + addend
    else:
        value = S + addend - P
    if t.variant.endswith("@hi"):
        value >>= 32
    return value & 0xFFFFFFFF


def _referenced(op, symbols: dict, labels: dict) -> list[_Term]:
    try:
        found = _terms(op, symbols, labels)
    except LinkError:
        return []
    return found[0] if found else []


def needs_link(ins: Instruction, symbols: dict, labels) -> bool:
    """Does `ins` have a source operand that names a label or a relocation? (cheap: most
    instructions have no symbol operand at all)"""
    if ins.mnemonic.startswith(_BRANCHES):
        return False
    for op in ins.operands:
        if isinstance(op, (Symbol, Expr, Modified)):
            try:
                found = _terms(op, symbols, labels)
                if found is not None and found[0]:
                    return True
            except LinkError:
                return True
    return False


def link(instructions: list[Instruction], image: CodeImage, symbols: dict, labels: dict) -> list[Instruction]:
    """The instructions with every relocated literal replaced by its value (an Imm that prints as
    written), the GOT and placeholder addresses of `image` filled in. Instructions that
    relocate nothing are returned as they are."""
    need: list[int] = []
    for i, ins in enumerate(instructions):
        if ins.mnemonic.startswith(_BRANCHES):
            continue
        for op in ins.operands:
            for t in _referenced(op, symbols, labels):
                need.append(i)
                if t.name not in image.labels and t.name not in image.unresolved.values():
                    image.unresolved[UNRESOLVED_BASE + _ENTRY * len(image.unresolved)] = t.name
                if t.variant.startswith("gotpcrel32") and t.name not in image.got:
                    image.got[t.name] = image.got_base + 8 * len(image.got)
    if not need:
        return instructions
    out = list(instructions)
    for i in sorted(set(need)):
        ins = instructions[i]
        ops = []
        for op in ins.operands:
            try:
                value = relocated_value(op, image.addresses[i], image, symbols, labels)
            except (LinkError, KeyError):
                value = None  # left as written: evaluating it stops the run with the symbol named
            ops.append(op if value is None else Imm(value, op.span, op.text()))
        out[i] = replace(ins, operands=tuple(ops))
    return out
