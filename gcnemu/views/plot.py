"""Pictures: the timeline as a Gantt chart and an MFMA operand layout as a coloured grid.

Why pictures: a thousand-row timeline or a 32x32 lane map is read faster as colour than as
letters. matplotlib draws them (SVG or PNG); it is an optional extra, `gcnemu[plot]`, imported
only when a picture is asked for, so the emulator itself never pays for it. Without it the
command says which extra to install rather than failing on an import.

Every drawn element a reader (or a test) may look for carries an SVG id (`set_gid`): each
instruction's issue-to-complete bar is `issue-<k>`, the stall before it `stall-<k>`, each
matrix element's cell `cell-<operand>-<row>-<col>`; texts are real SVG <text> (fonttype none).

A picture is written to a temporary file next to its destination and renamed over it when
complete, so a failed write (full disk, a missing directory) leaves no half-written file.
"""
from __future__ import annotations

from ..asm.diagnostics import GcnemuError

EXTRA_HINT = "pip install 'gcnemu[plot]' (from a checkout: pip install '.[plot]')"
FORMATS = ("svg", "png")


def _figure_class():
    """matplotlib's Figure (no pyplot: no GUI backend, no global figure state)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise GcnemuError(f"pictures need matplotlib, the optional extra gcnemu[plot]: {EXTRA_HINT}") from None
    return Figure


def save(fig, path: str, fmt: str) -> None:
    """Write `fig` as `fmt` to `path` whole: through a temporary file and a rename."""
    from matplotlib import rc_context

    from ..sim.trace import write_whole
    if fmt not in FORMATS:
        raise GcnemuError(f"pictures are written as {' or '.join(FORMATS)}, not '{fmt}'")

    def draw(fh) -> None:
        # reproducible files (no date, fixed ids), texts kept as text in SVG
        with rc_context({"svg.fonttype": "none", "svg.hashsalt": "gcnemu"}):
            fig.savefig(fh, format=fmt, metadata={"Date": None} if fmt == "svg" else {}, bbox_inches="tight")
    try:
        write_whole(path, draw)
    except OSError as e:
        raise GcnemuError(f"cannot write the picture {path}: {e.strerror or e}") from None


# ------------------------------------------------------------------ timeline as a Gantt chart

# one colour per instruction class (sim.pipes.CATEGORY's pipes), the same in every picture
CLASS_COLOURS = {
    "valu": "#4e79a7", "trans": "#a0cbe8", "dp": "#86bcb6", "mfma": "#59a14f",
    "salu": "#b07aa1", "smem": "#d4a6c8", "vmem": "#e15759", "lds": "#f28e2b",
    "branch": "#9c755f", "msg": "#9c755f", "waitcnt": "#76b7b2", "barrier": "#edc948",
    "nop": "#bab0ac", "sleep": "#bab0ac", "setprio": "#bab0ac", "endpgm": "#79706e",
}


def timeline_figure(engine, rows, wave: int, hazards=None, cycles: tuple[int, int] | None = None):
    """One horizontal bar per executed instruction of `wave` (rows from views.timeline.rows_for):
    from issue to completion, coloured by instruction class (its pipe); the cycles it waited to
    issue as a grey hatched bar before it; a red `!` and the rule where a hazard or race hit."""
    from .timeline import _marks
    Figure = _figure_class()
    decoded = engine.decoded
    pipes = sorted({decoded[r.index].pipe for r in rows}, key=lambda p: (p not in CLASS_COLOURS, p))
    colour = {p: CLASS_COLOURS.get(p, "#bab0ac") for p in pipes}
    interval = engine.interval
    fig = Figure(figsize=(12, 1.6 + 0.24 * max(len(rows), 1)))
    ax = fig.add_subplot()
    marks = _marks(rows, hazards, wave)
    for k, r in enumerate(rows):
        if r.issue > r.ready:
            ax.barh(k, r.issue - r.ready, left=r.ready, height=0.6, color="#dddddd", edgecolor="#999999",
                    hatch="///", linewidth=0.4, gid=f"stall-{k}")
        ax.barh(k, max(r.complete, r.issue + interval) - r.issue, left=r.issue, height=0.7,
                color=colour[decoded[r.index].pipe], gid=f"issue-{k}")
        mark = marks.get(id(r))
        if mark:
            ax.text(max(r.complete, r.issue + interval) + 2, k, f"! {mark}", color="#c00000", va="center",
                    fontsize=7, gid=f"hazard-{k}")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"[{r.line}] {r.text if len(r.text) <= 44 else r.text[:41] + '...'}" for r in rows],
                       fontsize=7, family="monospace")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    if cycles is not None and rows:  # the window asked for (bars running past it are cut at its edges)
        ax.set_xlim(max(cycles[0], min(r.ready for r in rows)),
                    min(cycles[1], max(max(r.complete, r.issue + interval) for r in rows)) + 1)
    ax.set_xlabel("cycle")
    ax.grid(axis="x", color="#eeeeee")
    ax.set_axisbelow(True)
    ax.set_title(f"gcnemu timeline: wave {wave} of {len(engine.waves)} on {engine.target.name}, "
                 f"kernel cycles {engine.cycle}", fontsize=10)
    from matplotlib.patches import Patch
    handles = [Patch(color=colour[p], label=p) for p in pipes]
    handles.append(Patch(facecolor="#dddddd", edgecolor="#999999", hatch="///", label="stall (waiting to issue)"))
    ax.legend(handles=handles, loc="upper right", fontsize=7, framealpha=0.9)
    return fig


# ------------------------------------------------------------------ MFMA layout as a coloured grid

def layout_figure(info, ops, cbsz: int = 0, abid: int = 0, blgp: int = 0):
    """One panel per operand: the matrix drawn element by element, each cell coloured by the
    VGPR (of the operand) that holds it and labelled with the lane, as `gcnemu layout` prints."""
    from ..isa import mfma as M
    from .mfma_grid import _axis_label, _cell, _grid_axes
    Figure = _figure_class()
    from matplotlib import colormaps
    fig = Figure(figsize=(6.5 * len(ops), 7.5))
    for n, op in enumerate(ops):
        ax = fig.add_subplot(1, len(ops), n + 1)
        em = M.element_map(info, op, cbsz=cbsz, abid=abid, blgp=blgp)
        rows, cols, rn, cn = _grid_axes(info, op)
        regs = info.operand_regs(op)
        cmap = colormaps["tab20" if regs > 10 else "tab10"]
        small = len(rows) * len(cols) <= 1024
        for i, r in enumerate(rows):
            for j, c in enumerate(cols):
                e = _cell(em, info, op, r, c)
                reg = int(e["reg"])
                ax.add_patch(_rect(j, i, cmap(reg % cmap.N), f"cell-{op}-{i}-{j}"))
                if small:
                    ax.text(j + 0.5, i + 0.5, str(int(e["lane"])), ha="center", va="center",
                            fontsize=max(3, min(8, 260 / max(len(cols), len(rows)))))
        ax.set_xlim(0, len(cols))
        ax.set_ylim(len(rows), 0)
        ax.set_aspect("equal")
        step = max(1, len(cols) // 16)
        ax.set_xticks([j + 0.5 for j in range(0, len(cols), step)])
        ax.set_xticklabels([_axis_label(info, cols[j], info.blocks > 1 and op == "A")
                            for j in range(0, len(cols), step)], fontsize=6, rotation=90)
        step = max(1, len(rows) // 16)
        ax.set_yticks([i + 0.5 for i in range(0, len(rows), step)])
        ax.set_yticklabels([_axis_label(info, rows[i], info.blocks > 1 and op != "A")
                            for i in range(0, len(rows), step)], fontsize=6)
        ax.set_xlabel(cn)
        ax.set_ylabel(rn)
        ax.set_title(f"{op}: {info.operand_type(op)}, {regs} VGPR(s) per lane\n"
                     "colour = VGPR of the operand, number = lane", fontsize=9)
        from matplotlib.patches import Patch
        ax.legend(handles=[Patch(color=cmap(k % cmap.N), label=f"v{k}") for k in range(regs)],
                  loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=6, title="register", title_fontsize=7)
    fig.suptitle(f"{info.name} on {info.target}: where each matrix element lives", fontsize=11)
    return fig


def _rect(x: float, y: float, colour, gid: str):
    from matplotlib.patches import Rectangle
    return Rectangle((x, y), 1, 1, facecolor=colour, edgecolor="white", linewidth=0.3, gid=gid)
