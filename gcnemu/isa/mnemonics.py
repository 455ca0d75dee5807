"""Every mnemonic llvm-mc 22 accepts on each target, with its encoding family.

The tables (``data/mnemonics/<target>.txt``) are generated from LLVM by
``tools/gen_mnemonics.py``; see that script for how and for the row format::

    name  family  suffixes  canonical  hint

``suffixes`` lists the suffix spellings llvm-mc accepts (``e32``, ``e64``,
``sdwa``, ``dpp``, ``e64_dpp``).  Note that, like llvm-mc, ``_e32`` is accepted
on every mnemonic of the default assembler variant (``s_mov_b32_e32`` is
``s_mov_b32``), not only on VOP1/VOP2/VOPC.  ``hint`` says which spellings
llvm-mc's own did-you-mean may offer (``b`` the bare name, ``e`` the literal
``<name>_e32`` entry of VOPC ops).

API (names are case-insensitive, targets are "gfx908" "gfx90a" "gfx942" "gfx950")::

    mnemonics(target) -> frozenset[str]     every accepted spelling, suffixed forms included
    exists(mnemonic, target) -> bool
    targets_having(mnemonic) -> list[str]
    encoding(mnemonic, target) -> str | None
    info(mnemonic, target) -> Mnemonic | None
    suggest(mnemonic, target) -> str | None  closest spelling, for "did you mean"
    suggestions(mnemonic, target) -> list[str]  llvm-mc's own did-you-mean list
    other_generation(mnemonic) -> bool       exists only on other AMDGPU generations (gfx10+ ...)

Tables are read on first use and cached; ``data/mnemonics_other.txt`` (the
mnemonics of other AMDGPU generations, also from ``tools/gen_mnemonics.py``)
only when a mnemonic is unknown on the target.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

TARGETS: tuple[str, ...] = ("gfx908", "gfx90a", "gfx942", "gfx950")
SUFFIXES: tuple[str, ...] = ("e64_dpp", "e32", "e64", "sdwa", "dpp")  # longest match first

# family -> encoding used by each suffix form when it differs from the family
_VOP_ASM = {"VOP1", "VOP2", "VOPC"}


@dataclass(frozen=True)
class Mnemonic:
    name: str            # base spelling, lower case, no suffix
    family: str          # SOP1 SOP2 SOPK SOPC SOPP SMEM VOP1 VOP2 VOPC VOP3 VOP3P VOP3P-MAI
                         # VOP3PX2-MAI DS FLAT GLOBAL SCRATCH MUBUF MTBUF MIMG EXP VINTRP
    suffixes: tuple[str, ...]  # accepted suffix spellings, e.g. ("e32", "e64", "sdwa", "dpp")
    canonical: str       # what llvm-mc prints for it (differs for assembler aliases)
    hint: str            # "", "b", "e" or "be": spellings llvm-mc's did-you-mean offers

    def spellings(self) -> list[str]:
        return [self.name] + [f"{self.name}_{s}" for s in self.suffixes]


class _Table:
    def __init__(self, target: str):
        text = resources.files("gcnemu.isa").joinpath(f"data/mnemonics/{target}.txt").read_text(
            encoding="utf-8")
        self.rows: dict[str, Mnemonic] = {}
        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            name, family, sfx, canon, hint = line.split("\t")
            self.rows[name] = Mnemonic(
                name=name, family=family,
                suffixes=() if sfx == "-" else tuple(sfx.split(",")),
                canonical=name if canon == "-" else canon,
                hint="" if hint == "-" else hint)
        self.spellings: dict[str, tuple[Mnemonic, str]] = {}
        for row in self.rows.values():
            self.spellings[row.name] = (row, "")
            for s in row.suffixes:
                self.spellings[f"{row.name}_{s}"] = (row, s)
        # llvm-mc's spell-check table, sorted as the matcher table is
        hints = [r.name for r in self.rows.values() if "b" in r.hint]
        hints += [r.name + "_e32" for r in self.rows.values() if "e" in r.hint]
        self.hints: tuple[str, ...] = tuple(sorted(hints))
        self.all_spellings: frozenset[str] = frozenset(self.spellings)


def _check_target(target: str) -> str:
    t = target.lower()
    if t not in TARGETS:
        raise ValueError(f"unknown target {target!r}; known: {', '.join(TARGETS)}")
    return t


@lru_cache(maxsize=None)
def _table(target: str) -> _Table:
    return _Table(target)


def _lookup(mnemonic: str, target: str) -> tuple[Mnemonic, str] | None:
    return _table(_check_target(target)).spellings.get(mnemonic.strip().lower())


@lru_cache(maxsize=None)
def _other_names() -> frozenset[str]:
    text = resources.files("gcnemu.isa").joinpath("data/mnemonics_other.txt").read_text(encoding="utf-8")
    return frozenset(l for l in text.splitlines() if l and not l.startswith("#"))


def other_generation(mnemonic: str) -> bool:
    """True if llvm-mc knows ``mnemonic`` only from AMDGPU targets other than the four
    modelled ones (s_waitcnt_vscnt, v_add_nc_u32, buffer_load_b32 ...).  Like llvm-mc, a
    trailing _e64_dpp/_e64/_e32/_dpp/_sdwa is stripped first (v_add_nc_u32_sdwa counts)."""
    base, _ = _split_suffix(mnemonic.strip().lower())
    return base in _other_names()


def mnemonics(target: str) -> frozenset[str]:
    """All spellings llvm-mc accepts on ``target``: bare names and suffixed forms."""
    return _table(_check_target(target)).all_spellings


def exists(mnemonic: str, target: str) -> bool:
    """True if llvm-mc accepts ``mnemonic`` (suffix included) on ``target``."""
    return _lookup(mnemonic, target) is not None


def targets_having(mnemonic: str) -> list[str]:
    """The targets on which ``mnemonic`` (suffix included) exists, in TARGETS order."""
    return [t for t in TARGETS if exists(mnemonic, t)]


def info(mnemonic: str, target: str) -> Mnemonic | None:
    """The table row of a spelling (suffixed spellings give their base row)."""
    hit = _lookup(mnemonic, target)
    return hit[0] if hit else None


def encoding(mnemonic: str, target: str) -> str | None:
    """Encoding family of this spelling on ``target``, None if it does not exist.

    A bare or ``_e32`` spelling gives the mnemonic's family.  The ``_e64`` form
    of a VOP1/VOP2/VOPC op is "VOP3"; ``_sdwa`` and ``_dpp`` forms give "SDWA"
    and "DPP" (the 32-bit encodings with src0=0xF9/0xFA); a suffix on any other
    family (accepted by llvm-mc and ignored) gives the family."""
    hit = _lookup(mnemonic, target)
    if hit is None:
        return None
    row, sfx = hit
    if row.family in _VOP_ASM or row.family == "VINTRP":
        if sfx == "e64":
            return "VOP3"
        if sfx == "sdwa":
            return "SDWA"
        if sfx == "dpp":
            return "DPP"
    return row.family


def _split_suffix(m: str) -> tuple[str, str]:
    for s in SUFFIXES:
        if m.endswith("_" + s) and len(m) > len(s) + 1:
            return m[: -len(s) - 1], s
    return m, ""


def _strip_common(a: str, b: str) -> tuple[str, str]:
    """a and b without their common prefix and suffix, which change no edit distance
    (and mnemonics share long ones: v_cmp_..._u32)."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    j = 0
    while j < n - i and a[-1 - j] == b[-1 - j]:
        j += 1
    return a[i:len(a) - j], b[i:len(b) - j]


def _indel_distance(a: str, b: str, limit: int) -> int:
    """Edit distance counting a replacement as delete+insert (as llvm's
    StringRef::edit_distance with AllowReplacements=false); ``limit + 1`` once
    it is known to exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    a, b = _strip_common(a, b)
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        best = i
        for j, cb in enumerate(b, 1):
            if ca == cb:
                cur[j] = prev[j - 1]
            else:
                cur[j] = min(prev[j], cur[j - 1]) + 1
            best = min(best, cur[j])
        if best > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def _indel_within_2(a: str, b: str) -> bool:
    """``_indel_distance(a, b, 2) <= 2`` without the table: once the common prefix and suffix are
    gone the first and the last characters differ, so the (at most two) edits sit at the ends."""
    if abs(len(a) - len(b)) > 2:
        return False
    a, b = _strip_common(a, b)
    la, lb = len(a), len(b)
    if la == lb:  # distance 0, or one deletion and one insertion: one at each end
        return la == 0 or a[1:] == b[:-1] or a[:-1] == b[1:]
    if la < lb:
        a, b, la, lb = b, a, lb, la
    if la == lb + 1:  # distance 1: one deletion that fixes both ends
        return la == 1
    return a[1:-1] == b  # distance 2: both ends of the longer one deleted


def _levenshtein(a: str, b: str, limit: int) -> int:
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    a, b = _strip_common(a, b)
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def suggestions(mnemonic: str, target: str) -> list[str]:
    """llvm-mc's "did you mean" list for an unknown mnemonic, in its order.

    llvm-mc strips a trailing _e32/_e64/_sdwa/_dpp/_e64_dpp, then offers every
    name of its default-variant table available on the target within edit
    distance 2 (a replacement counts 2).  Empty when it offers nothing."""
    base, _ = _split_suffix(mnemonic.strip().lower())
    return [h for h in _table(_check_target(target)).hints if _indel_within_2(base, h)]


def suggest(mnemonic: str, target: str) -> str | None:
    """The closest existing spelling on ``target``, or None if nothing is close.

    Prefers llvm-mc's own candidates (closest first); otherwise searches every
    spelling of the target (so VOP3-only names like v_mad_f32, which llvm-mc
    never offers, are found too), keeping the suffix the user wrote when the
    suggested mnemonic accepts it."""
    m = mnemonic.strip().lower()
    tab = _table(_check_target(target))
    base, sfx = _split_suffix(m)
    best: tuple | None = None
    for cand in suggestions(m, target):
        key = (_indel_distance(base, cand, 2), _levenshtein(base, cand, 4), cand)
        best = key if best is None or key < best else best
    if best is None:
        limit = max(2, len(base) // 6)
        for name in tab.spellings:
            d = _levenshtein(m if name not in tab.rows else base, name, limit)
            if d <= limit and (best is None or (d, name) < best):
                best = (d, name)
    if best is None:
        return None
    cand = best[-1]
    if sfx and cand in tab.rows and sfx in tab.rows[cand].suffixes:
        return f"{cand}_{sfx}"
    return cand
