"""``gcnemu layout``: show where every MFMA matrix element lives, and the reverse.

Presentation only: every fact comes from :mod:`gcnemu.isa.mfma` (catalog and
layout functions), so what this prints is what the emulator executes.

    gcnemu layout MNEMONIC [--arch A] [--operand A|B|C|D] [--cbsz N --abid N --blgp N]
                  [--format text|markdown|csv|json]
    gcnemu layout --list [--arch A]

Text output fits an 80-column terminal: matrices wider than a page are shown
in column chunks, register tables in register chunks.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import Callable, Sequence

import numpy as np

from gcnemu.isa import mfma as M
from gcnemu.isa.mfma import MfmaInfo
from .mfma_grid import _axis_label, _cell, _grid_axes

HELP = "show where each MFMA matrix element lives (register, lane) and the reverse"
WIDTH = 80
FORMATS = ("text", "markdown", "csv", "json")


# --------------------------------------------------------------------------
# argparse wiring


def _add(parser: argparse.ArgumentParser, *names: str, **kw) -> None:
    """add_argument that tolerates options the CLI owner already defined globally."""
    try:
        parser.add_argument(*names, **kw)
    except argparse.ArgumentError:
        pass


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``layout`` subcommand's arguments on ``parser``."""
    parser.add_argument("mnemonic", nargs="?", help="MFMA/SMFMAC mnemonic, e.g. v_mfma_f32_16x16x16_f16")
    _add(parser, "--arch", "--target", dest="arch", default=None,
         help="gfx908, gfx90a, gfx942 or gfx950 (default: first target that has the mnemonic)")
    _add(parser, "--operand", type=str.upper, choices=M.OPERANDS, default=None,
         help="only this operand (default: all four)")
    _add(parser, "--cbsz", type=int, default=0, help="A-block broadcast size (f8f6f4: A format)")
    _add(parser, "--abid", type=int, default=0, help="A-block broadcast id (SMFMAC: index set)")
    _add(parser, "--blgp", type=int, default=0, help="B lane-group pattern 0..7 (f8f6f4: B format)")
    _add(parser, "--format", choices=FORMATS, default="text", help="output format")
    _add(parser, "--svg", default=None, metavar="OUT.svg",
         help="also draw each operand as a coloured grid (colour = VGPR, number = lane); needs gcnemu[plot]")
    _add(parser, "--png", default=None, metavar="OUT.png", help="the same picture as PNG")
    _add(parser, "--list", action="store_true", help="list the MFMA instructions of --arch (or all targets)")


# --------------------------------------------------------------------------
# small formatting helpers


def _fmt_num(x: float) -> str:
    return f"{int(x)}" if float(x).is_integer() else f"{x:g}"


def facts(info: MfmaInfo) -> dict:
    """The instruction facts shown in every format (JSON-ready)."""
    d = {
        "name": info.name, "target": info.target, "aliases": list(info.aliases),
        "m": info.m, "n": info.n, "k": info.k, "blocks": info.blocks,
        "a_type": info.a_type, "b_type": info.b_type, "cd_type": info.cd_type,
        "kind": info.kind, "sparse": info.sparse, "scaled": info.scaled,
        "passes": info.passes, "cycles": info.cycles,
        "a_regs": info.a_regs, "b_regs": info.b_regs, "cd_regs": info.cd_regs,
        "flops": info.flops, "flops_per_cycle_cu": info.flops_per_cycle_cu,
        "modifiers": list(info.modifiers),
    }
    if info.sparse:
        d["idx_bits"], d["idx_sets"] = info.idx_bits, info.idx_sets
    if info.format_select:
        d["a_format"], d["b_format"] = info.a_format, info.b_format
    return d


def _fact_lines(info: MfmaInfo) -> list[str]:
    out = [f"{info.name} on {info.target}"]
    if info.aliases:
        out.append(f"  also spelled: {', '.join(info.aliases)}")
    blk = f", {info.blocks} blocks" if info.blocks > 1 else ", 1 block"
    kind = "DGEMM (fp64 pipe)" if info.is_dgemm else "XDL"
    if info.sparse:
        kind += ", 4:2 structured-sparse A"
    if info.scaled:
        kind += f", E8M0 block scales per {info.scale_block} K"
    out.append(f"  shape {info.m}x{info.n}x{info.k}{blk}; {kind}")
    out.append(f"  types: A {info.a_type}, B {info.b_type}, C/D {info.cd_type}")
    out.append(f"  {info.passes} passes = {info.cycles} cycles; {info.flops} FLOPs, "
               f"{_fmt_num(info.flops_per_cycle_cu)} FLOPs/cycle/CU")
    if info.format_select and info.passes_no_f8:
        out.append(f"  cbsz/blgp pick A/B formats: {2 * info.passes_no_f8 * 4} cycles with an "
                   f"fp8/bf8 operand, else {info.passes_no_f8 * 4}")
    out.append(f"  VGPRs per lane: A {info.a_regs}, B {info.b_regs}, C/D {info.cd_regs}")
    out.append(f"  modifiers: {' '.join(info.modifiers) or 'none'}")
    if info.sparse:
        out.append(f"  A is stored compressed ({info.m}x{info.a_k}, 2 of every 4 K); the index VGPR")
        out.append(f"  has 2 bits per stored value, in its lane: {info.idx_sets} set(s) of "
                   f"{info.idx_bits} bits (abid)")
    return out


def _slot_label(bit: int, width: int) -> str:
    if width >= 32:
        return ""
    if 32 % width:
        return f"+{bit}"
    return f".{bit // width}"


def _reg_label(reg: int, bit: int, width: int) -> str:
    if width == 64:
        return f"{reg}:{reg + 1}"
    return f"{reg}{_slot_label(bit, width)}"


def _pages(n_cols: int, cell_w: int, label_w: int) -> list[range]:
    fit = max(1, (WIDTH - label_w) // (cell_w + 1))
    if n_cols > fit and n_cols % 16 == 0 and fit >= 16:
        per = 16 * (fit // 16)  # chunks aligned to 16 columns: 32 -> 2 x 16, not 25 + 7
    else:
        per = -(-n_cols // -(-n_cols // fit))  # equal chunks
    return [range(s, min(n_cols, s + per)) for s in range(0, n_cols, per)]


def _text_grid(info: MfmaInfo, op: str, em: np.ndarray, what: str,
               cell: Callable[[np.void], str]) -> list[str]:
    rows, cols, rn, cn = _grid_axes(info, op)
    multi = info.blocks > 1
    col_multi = multi and op == "A"
    row_multi = multi and op != "A"
    cells = [[cell(_cell(em, info, op, r, c)) for c in cols] for r in rows]
    rlabels = [_axis_label(info, r, row_multi) for r in rows]
    clabels = [_axis_label(info, c, col_multi) for c in cols]
    cw = max(max(len(x) for row in cells for x in row), max(len(x) for x in clabels))
    rhead = f"{'b/' if row_multi else ''}{rn}"
    chead = f"{'b/' if col_multi else ''}{cn}"
    lw = max(max(len(x) for x in rlabels), len(rhead) + 1 + len(chead))
    out = []
    pages = _pages(len(cols), cw, lw + 1)
    for p, pg in enumerate(pages):
        sub = f" [{chead} {clabels[pg.start]}..{clabels[pg.stop - 1]}]" if len(pages) > 1 else ""
        out.append(f"{op}: {what} of {op}[{rn}][{cn}]{sub}")
        corner = f"{rhead}\\{chead}"
        out.append(f"{corner:<{lw}} " + " ".join(f"{clabels[c]:>{cw}}" for c in pg))
        for rl, row in zip(rlabels, cells):
            out.append(f"{rl:>{lw}} " + " ".join(f"{row[c]:>{cw}}" for c in pg))
        out.append("")
    return out


def _coords_text(info: MfmaInfo, op: str, items: list[tuple[int, int, int, int]]) -> str:
    """Compact text for the elements in one (reg, lane): '5,0-3' or 'b2:0-3,7'."""
    if not items:
        return "."
    blocks = {b for _, b, _, _ in items}
    rows = [r for _, _, r, _ in items]
    cols = [c for _, _, _, c in items]
    pre = f"{items[0][1]}:" if info.blocks > 1 and len(blocks) == 1 else ""
    if len(blocks) == 1 and len(set(rows)) == 1 and cols == list(range(cols[0], cols[0] + len(cols))):
        cs = f"{cols[0]}" if len(cols) == 1 else f"{cols[0]}-{cols[-1]}"
        return f"{pre}{rows[0]},{cs}"
    if len(blocks) == 1 and len(set(cols)) == 1 and rows == list(range(rows[0], rows[0] + len(rows))):
        return f"{pre}{rows[0]}-{rows[-1]},{cols[0]}"
    return " ".join(f"{b}:{r},{c}" if info.blocks > 1 else f"{r},{c}" for _, b, r, c in items)


def _text_lanes(info: MfmaInfo, op: str) -> list[str]:
    """Inverse view: rows are lanes, columns registers, cells the elements held."""
    contents = M.register_contents(info, op)
    width = info.element_type(op).bits
    step = 2 if width == 64 else 1
    regs = list(range(0, info.operand_regs(op), step))
    cells = {(r, l): _coords_text(info, op, contents.get((r, l), [])) for r in regs for l in range(M.WAVE)}
    rl = {"A": "i,k", "B": "k,j"}.get(op, "i,j")
    rlabel = [("v" + (f"{r}:{r + 1}" if step == 2 else f"{r}")) for r in regs]
    cw = max(max(len(v) for v in cells.values()), max(len(x) for x in rlabel))
    out = []
    pages = _pages(len(regs), cw, 5)
    blk = "block:" if info.blocks > 1 else ""
    for pg in pages:
        out.append(f"{op}: what each lane holds ({blk}{rl}); v<n> = n-th VGPR of the operand")
        out.append("lane " + " ".join(f"{rlabel[i]:>{cw}}" for i in pg))
        for lane in range(M.WAVE):
            out.append(f"{lane:>4} " + " ".join(f"{cells[(regs[i], lane)]:>{cw}}" for i in pg))
        out.append("")
    return out


# --------------------------------------------------------------------------
# renderers


def _modifier_note(info: MfmaInfo, op: str, cbsz: int, abid: int, blgp: int) -> str | None:
    if info.format_select:
        return None
    if op == "A" and (cbsz or abid) and not info.sparse:
        src = M.cbsz_source_blocks(info.blocks, cbsz, abid)
        return f"cbsz={cbsz} abid={abid}: block b reads stored block {list(map(int, src))}[b]"
    if op == "B" and blgp:
        return f"blgp={blgp}: lane L reads B data from lane src[L] (shown as the lane)"
    return None


def render_text(info: MfmaInfo, ops: Sequence[str], cbsz: int, abid: int, blgp: int) -> str:
    out = _fact_lines(info) + [""]
    for op in ops:
        em = M.element_map(info, op, cbsz=cbsz, abid=abid, blgp=blgp)
        width = info.element_type(op).bits
        nb, r, c = info.shape(op)
        out.append(f"== {op}: {nb} x {r}x{c} {info.operand_type(op)}, {info.operand_regs(op)} VGPR(s) per lane ==")
        note = _modifier_note(info, op, cbsz, abid, blgp)
        if note:
            out.append(note)
        out += _text_grid(info, op, em, "lane", lambda e: str(int(e["lane"])))
        out += _text_grid(info, op, em, "register[.slot]",
                          lambda e: _reg_label(int(e["reg"]), int(e["bit"]), width))
        out += _text_lanes(info, op)
    out.append("register[.slot]: VGPR offset within the operand; .n = n-th sub-dword")
    out.append("  element, bits [w*n+w-1 : w*n]; +b = starts at bit b; x:y = 64-bit pair")
    return "\n".join(out).rstrip() + "\n"


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def render_markdown(info: MfmaInfo, ops: Sequence[str], cbsz: int, abid: int, blgp: int) -> str:
    f = facts(info)
    out = [f"### {info.name} ({info.target})", ""]
    out += _md_table(["fact", "value"], [[k, ", ".join(map(str, v)) if isinstance(v, list) else _fmt_num(v)
                                           if isinstance(v, float) else str(v)] for k, v in f.items()])
    for op in ops:
        em = M.element_map(info, op, cbsz=cbsz, abid=abid, blgp=blgp)
        width = info.element_type(op).bits
        rows, cols, rn, cn = _grid_axes(info, op)
        multi = info.blocks > 1
        out += ["", f"#### {op}[{rn}][{cn}] -> register.slot @ lane", ""]
        note = _modifier_note(info, op, cbsz, abid, blgp)
        if note:
            out += [note, ""]
        header = [f"{rn}\\{cn}"] + [_axis_label(info, c, multi and op == "A") for c in cols]
        body = []
        for r in rows:
            cells = []
            for c in cols:
                e = _cell(em, info, op, r, c)
                cells.append(f"{_reg_label(int(e['reg']), int(e['bit']), width)}@{int(e['lane'])}")
            body.append([_axis_label(info, r, multi and op != "A")] + cells)
        out += _md_table(header, body)
        contents = M.register_contents(info, op)
        step = 2 if width == 64 else 1
        regs = list(range(0, info.operand_regs(op), step))
        out += ["", f"#### {op}: what each lane holds", ""]
        out += _md_table(["lane"] + [f"v{r}" for r in regs],
                         [[str(l)] + [_coords_text(info, op, contents.get((r, l), [])) for r in regs]
                          for l in range(M.WAVE)])
    return "\n".join(out) + "\n"


def render_csv(info: MfmaInfo, ops: Sequence[str], cbsz: int, abid: int, blgp: int) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["instruction", "target", "operand", "block", "row", "col", "reg", "lane", "bit", "width"])
    for op in ops:
        for e in M.element_map(info, op, cbsz=cbsz, abid=abid, blgp=blgp):
            w.writerow([info.name, info.target, op, *(int(e[f]) for f in
                        ("block", "row", "col", "reg", "lane", "bit", "width"))])
    return buf.getvalue()


def render_json(info: MfmaInfo, ops: Sequence[str], cbsz: int, abid: int, blgp: int) -> str:
    doc = {"instruction": facts(info), "modifiers": {"cbsz": cbsz, "abid": abid, "blgp": blgp},
           "fields": ["block", "row", "col", "reg", "lane", "bit", "width"], "operands": {}}
    for op in ops:
        em = M.element_map(info, op, cbsz=cbsz, abid=abid, blgp=blgp)
        doc["operands"][op] = {
            "shape": list(info.shape(op)), "type": info.operand_type(op),
            "regs": info.operand_regs(op),
            "elements": [[int(e[f]) for f in doc["fields"]] for e in em],
        }
    return json.dumps(doc) + "\n"


def render_list(targets: Sequence[str], fmt: str) -> str:
    header = ["target", "instruction", "MxNxK", "blocks", "A", "B", "C/D", "passes", "cycles",
              "vgpr A/B/CD", "FLOPs/cyc/CU"]
    rows = []
    for t in targets:
        for i in M.catalog(t):
            rows.append([t, i.name, f"{i.m}x{i.n}x{i.k}", str(i.blocks), i.a_type, i.b_type, i.cd_type,
                         str(i.passes), str(i.cycles), f"{i.a_regs}/{i.b_regs}/{i.cd_regs}",
                         _fmt_num(i.flops_per_cycle_cu)])
    if fmt == "json":
        return json.dumps([facts(i) for t in targets for i in M.catalog(t)]) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
        return buf.getvalue()
    if fmt == "markdown":
        return "\n".join(_md_table(header, rows)) + "\n"
    out = []
    for t in targets:
        sub = [r for r in rows if r[0] == t]
        fp8 = "OCP" if any("fn" in r[4] and "fnuz" not in r[4] or r[4] == "bf8_e5m2" for r in sub) else "FNUZ"
        out.append(f"{t}: {len(sub)} MFMA/SMFMAC instructions"
                   + (f" (fp8/bf8 are the {fp8} formats)" if any("8_e" in r[4] for r in sub) else ""))
        nw = max(len(r[1]) for r in sub)
        out.append(f"  {'instruction':<{nw}} {'MxNxK':>9} {'blk':>3} {'A/B->CD':<11} {'pas':>3} {'regs':>7} "
                   f"{'FLOP/c':>6}")
        for r in sub:
            a, b, cd = (_SHORT_TYPE.get(x, x) for x in (r[4], r[5], r[6]))
            types = f"{a}/{b}>{cd}" if a != b else f"{a}->{cd}"
            out.append(f"  {r[1]:<{nw}} {r[2]:>9} {r[3]:>3} {types:<11} {r[7]:>3} {r[9]:>7} {r[10]:>6}")
        out.append("")
    return "\n".join(out)


# short element type names for the 80-column list (the other formats keep the full names)
_SHORT_TYPE = {"fp32": "f32", "fp16": "f16", "fp64": "f64", "int8": "i8", "int32": "i32",
               "fp8_e4m3fnuz": "fp8", "bf8_e5m2fnuz": "bf8", "fp8_e4m3fn": "fp8", "bf8_e5m2": "bf8"}


RENDERERS = {"text": render_text, "markdown": render_markdown, "csv": render_csv, "json": render_json}


# --------------------------------------------------------------------------
# entry point


def _error(msg: str) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return 1


def _resolve_instruction(mnemonic: str, arch: str | None) -> MfmaInfo | str:
    """The MfmaInfo to show, or an error message."""
    if arch is not None:
        target = M.normalize_target(arch)
        info = M.lookup(mnemonic, target)
        if info is not None:
            return info
        elsewhere = M.targets_of(mnemonic)
        if elsewhere:
            return f"{mnemonic} is not available on {target} (it exists on {', '.join(elsewhere)})"
        hint = M.suggest(mnemonic, target) or M.suggest(mnemonic)
    else:
        # the project's default target first (gfx90a), then where the spelling exists
        for t in ("gfx90a", "gfx942", "gfx950", "gfx908"):
            info = M.lookup(mnemonic, t)
            if info is not None:
                return info
        hint = M.suggest(mnemonic)
    dym = f"; did you mean {' or '.join(hint)}?" if hint else ""
    return f"unknown MFMA instruction '{mnemonic}'{dym}"


def run(args: argparse.Namespace) -> int:
    """Run ``gcnemu layout``; returns the process exit code (0 ok, 1 error)."""
    fmt = getattr(args, "format", "text") or "text"
    if fmt not in FORMATS:
        fmt = "text"
    arch = getattr(args, "arch", None)
    try:
        if getattr(args, "list", False):
            targets = [M.normalize_target(arch)] if arch else list(M.TARGETS)
            sys.stdout.write(render_list(targets, fmt))
            return 0
        mnemonic = getattr(args, "mnemonic", None)
        if not mnemonic:
            return _error("layout needs a MNEMONIC (or --list)")
        found = _resolve_instruction(mnemonic, arch)
        if isinstance(found, str):
            return _error(found)
        cbsz, abid, blgp = (int(getattr(args, n, 0) or 0) for n in ("cbsz", "abid", "blgp"))
        M.check_modifiers(found, cbsz=cbsz, abid=abid, blgp=blgp)
        info = M.resolve(found, cbsz=cbsz, blgp=blgp)
        op = getattr(args, "operand", None)
        ops = [op.upper()] if op else list(M.OPERANDS)
        pictures = [(p, f) for p, f in ((getattr(args, "svg", None), "svg"), (getattr(args, "png", None), "png")) if p]
        if pictures:
            from ..asm.diagnostics import GcnemuError
            from .plot import layout_figure, save
            try:
                fig = layout_figure(info, ops, cbsz, abid, blgp)
                for path, kind in pictures:
                    save(fig, path, kind)
            except GcnemuError as exc:
                return _error(str(exc))
        sys.stdout.write(RENDERERS[fmt](info, ops, cbsz, abid, blgp))
        for path, _ in pictures:
            sys.stdout.write(f"picture written to {path}\n")
        return 0
    except ValueError as exc:
        return _error(str(exc))
    except BrokenPipeError:  # e.g. piped into `head`
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry (``python -m gcnemu.views.layout``) until the CLI wires it in."""
    parser = argparse.ArgumentParser(prog="gcnemu layout", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
