"""Latency overrides (`--latency vmem=500`, a TOML file, the Python API) and memory latency.

Defaults live in the target records (`gcnemu.isa.targets.Latencies`, with their
sources); this module only changes them and answers "how long does this access
take", which may depend on where it goes and how many bytes it moves.

TOML file format::

    [latency]            # any Latencies field
    vmem = 700
    lds = 32

    [[memory]]           # optional: slower/faster memory for some addresses
    buffer = "A"         # a buffer of the launch setup ...
    vmem = 900           # ... whose loads take 900 clocks (stores: vmem_store, LDS DMA: lds_dma)

    [[memory]]
    base = 0x100000000   # ... or an address range
    size = 4096
    vmem = 120

    [cache.L1]           # a level of the target's global-memory hierarchy (L1, L2 or HBM)
    latency = 100        # clocks from issue to data on a hit (HBM: on a miss of every level)
    size = 65536         # bytes (L1/L2 only)
    line = 128           # bytes, a power of two (L1/L2 only)

Precedence: a [[memory]] region or a hook > a flat `vmem` latency (which turns the
hierarchy off for loads) > the hierarchy (`isa.targets.MemoryHierarchy`, [cache.*] changes it).

Python: ``Simulation(kernel, setup, latencies={"vmem": 700})`` or a ``Latencies`` (every
field, `vmem` included: flat loads) or a ``TimingConfig``; ``engine.memory.hook = fn(kind, addrs, nbytes) -> int | None`` for
any address-dependent model (return None to fall back to the tables).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..asm.diagnostics import Diagnostic, GcnemuError
from ..asm.program import Span
from ..isa.targets import MAX_LATENCY, POSITIVE_LATENCIES, TARGETS, Latencies, MemoryHierarchy
from .caches import CacheHierarchy

MEMORY_KINDS = ("vmem", "vmem_store", "lds_dma")
# [cache.NAME] tables: the level names every target's hierarchy has, and what each may change
CACHE_NAMES = tuple(dict.fromkeys(n for t in TARGETS.values() for n in t.hierarchy.names()))
CACHE_KEYS = {"latency", "size", "line"}


@dataclass
class Region:
    """Accesses whose first lane address falls in [lo, hi) take these latencies instead."""

    latencies: dict[str, int]
    buffer: str | None = None
    lo: int = 0
    hi: int = 0


@dataclass
class TimingConfig:
    """Latency overrides plus memory regions, from the CLI, a TOML file or Python."""

    overrides: dict[str, int] = field(default_factory=dict)
    regions: list[Region] = field(default_factory=list)
    caches: dict[str, dict[str, int]] = field(default_factory=dict)  # [cache.NAME] changes

    @property
    def user_choices(self) -> list[str]:
        """What this configuration changes from the calibrated defaults, for `run`'s note."""
        out = [f"{k}={v}" for k, v in self.overrides.items()]
        out += [f"cache.{name}.{k}={v}" for name, kv in self.caches.items() for k, v in kv.items()]
        out += [f"[[memory]] {r.buffer or hex(r.lo)}" for r in self.regions]
        return out

    def hierarchy(self, base: MemoryHierarchy) -> MemoryHierarchy | None:
        """The hierarchy loads walk, or None when a flat `vmem` latency was chosen (it wins)."""
        if "vmem" in self.overrides:
            return None
        return base.with_overrides(self.caches) if self.caches else base

    def apply(self, base: Latencies) -> Latencies:
        try:
            return base.override(**self.overrides)
        except (KeyError, ValueError) as e:
            raise GcnemuError(str(e).strip("'\"")) from None

    def merged(self, other: "TimingConfig") -> "TimingConfig":
        caches = {k: dict(v) for k, v in self.caches.items()}
        for name, kv in other.caches.items():
            caches.setdefault(name, {}).update(kv)
        return TimingConfig({**self.overrides, **other.overrides}, self.regions + other.regions, caches)


def parse_assignment(text: str) -> tuple[str, int]:
    """'vmem=500' -> ('vmem', 500); a GcnemuError that says what is wrong otherwise."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise GcnemuError(f"--latency expects NAME=CYCLES (e.g. vmem=500), got '{text}'")
    known = Latencies.__dataclass_fields__
    if name not in known:
        raise GcnemuError(f"unknown latency '{name}'; known: {', '.join(known)}")
    try:
        cycles = int(value.strip(), 0)
    except ValueError:
        raise GcnemuError(f"--latency {name}: '{value.strip()}' is not an integer number of cycles") from None
    if cycles < 0:
        raise GcnemuError(f"--latency {name}: cycles must be >= 0")
    return name, cycles


def parse_overrides(items: list[str] | None) -> TimingConfig:
    cfg = TimingConfig()
    for item in items or []:
        for part in item.split(","):
            if part.strip():
                k, v = parse_assignment(part)
                cfg.overrides[k] = v
    return cfg


def load_toml(path: str) -> TimingConfig:
    """Read a latency TOML file (format in the module docstring); errors name the file and the
    entry, never a traceback: a latency is a non-negative integer, a [[memory]] entry a table."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise GcnemuError(f"{path}: no such latency file") from None
    except UnicodeDecodeError as e:
        raise GcnemuError(f"{path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start}); "
                          "a latency file is TOML") from None
    except tomllib.TOMLDecodeError as e:
        raise GcnemuError(f"{path}: invalid TOML: {e}") from None
    except OSError as e:
        raise GcnemuError(f"{path}: cannot read the latency file: {(e.strerror or str(e)).lower()}") from None
    with open(path, "rb") as fh:
        lines = fh.read().decode("utf-8", "replace").split("\n")
    cfg = TimingConfig()
    text = _text_lines(path)
    unknown = set(data) - {"latency", "memory", "cache"}
    if unknown:
        name = sorted(unknown)[0]
        raise _at(path, text, _find_table(text, name), f"unknown table '{name}'; expected [latency], "
                  "[[memory]] and [cache.NAME]")
    table = data.get("latency") or {}
    if not isinstance(table, dict):
        raise GcnemuError(f"{path}: 'latency' must be a table ([latency] with NAME = CYCLES lines), got {table!r}")
    for k, v in table.items():
        if k not in Latencies.__dataclass_fields__:
            raise _at(path, text, _find_key(text, "latency", k),
                      f"unknown latency '{k}'; known: {', '.join(Latencies.__dataclass_fields__)}")
        cfg.overrides[k] = _cycles(path, f"latency '{k}'", v, at=_where(path, lines, "latency", 0, k),
                                   least=1 if k in POSITIVE_LATENCIES else 0)
    caches = data.get("cache") or {}
    if not isinstance(caches, dict) or not all(isinstance(v, dict) for v in caches.values()):
        raise _at(path, text, _find_table(text, "cache"), "'cache' holds one table per level: [cache.L1], "
                  f"[cache.L2], [cache.HBM] with latency/size/line = N lines")
    for name, kv in caches.items():
        if name not in CACHE_NAMES:
            raise _at(path, text, _find_table(text, f"cache.{name}"),
                      f"unknown cache level '{name}'; known: {', '.join(CACHE_NAMES)}")
        for k, v in kv.items():
            if k not in CACHE_KEYS or (k != "latency" and name not in ("L1", "L2")):
                allowed = "latency" if name not in ("L1", "L2") else ", ".join(sorted(CACHE_KEYS))
                raise _at(path, text, _find_key(text, f"cache.{name}", k),
                          f"unknown setting '{k}' for cache level {name}; known: {allowed}")
            n = _cycles(path, f"cache.{name}.{k}", v, "a number of cycles" if k == "latency" else "a size in bytes",
                        at=_where(path, lines, f"cache.{name}", 0, k), most=MAX_LATENCY if k == "latency" else None)
            if k == "line" and (n < 4 or n & (n - 1)):
                raise _at(path, text, _find_key(text, f"cache.{name}", k),
                          f"cache.{name}.line must be a power of two of at least 4 bytes, got {n}")
            if k == "size" and n < 4:
                raise _at(path, text, _find_key(text, f"cache.{name}", k),
                          f"cache.{name}.size must be at least one line, got {n}")
            cfg.caches.setdefault(name, {})[k] = n
    entries = data.get("memory") or []
    if not isinstance(entries, list) or not all(isinstance(m, dict) for m in entries):
        raise GcnemuError(f"{path}: 'memory' must be an array of tables ([[memory]] entries), got {entries!r}")
    for i, m in enumerate(entries):
        where = f"[[memory]] entry {i + 1}"
        lat = {k: _cycles(path, f"{where}: {k}", v, at=_where(path, lines, "memory", i, k))
               for k, v in m.items() if k in MEMORY_KINDS}
        bad = set(m) - set(MEMORY_KINDS) - {"buffer", "base", "size"}
        if bad or not lat:
            raise GcnemuError(f"{path}: {where} needs 'buffer' or 'base'+'size' and at least one "
                              f"of {', '.join(MEMORY_KINDS)}" + (f" (unknown: {', '.join(sorted(bad))})" if bad else ""))
        if "buffer" in m:
            if not isinstance(m["buffer"], str):
                raise GcnemuError(f"{path}: {where}: 'buffer' must be a buffer name in quotes, got {m['buffer']!r}")
            cfg.regions.append(Region(lat, buffer=m["buffer"]))
        elif "base" in m and "size" in m:
            base = _cycles(path, f"{where}: base", m["base"], "an address", most=None)
            size = _cycles(path, f"{where}: size", m["size"], "a size in bytes", most=None)
            cfg.regions.append(Region(lat, lo=base, hi=base + size))
        else:
            raise GcnemuError(f"{path}: {where} needs 'buffer' or both 'base' and 'size'")
    return cfg


def _text_lines(path: str) -> list[str]:
    with open(path, "rb") as fh:
        return fh.read().decode("utf-8").split("\n")


def _find_table(text: list[str], name: str) -> tuple[int, int]:
    """(line, column) of the header `[name]` / `[[name]]` / `[name.sub]` (1-based; (1, 1) if absent)."""
    for i, line in enumerate(text):
        stripped = line.strip().lstrip("[").rstrip("]").strip()
        if line.strip().startswith("[") and (stripped == name or stripped.startswith(name + ".")
                                             or stripped.replace(" ", "") == name):
            last = name.rsplit(".", 1)[-1]
            at = line.find(last, line.index("[")) if "." in name else -1
            return i + 1, (at + 1) if at >= 0 else len(line) - len(line.lstrip()) + 1
    return 1, 1


def _find_key(text: list[str], table: str, key: str) -> tuple[int, int]:
    """(line, column) of `key = ...` inside the table `[table]` (dotted `table.key =` lines too)."""
    current = ""
    for i, line in enumerate(text):
        s = line.strip()
        if s.startswith("["):
            current = s.strip("[]").strip().replace(" ", "")
            continue
        name = s.split("=", 1)[0].strip().strip('"')
        if "=" in s and ((current == table and name == key) or name.replace(" ", "") == f"{table}.{key}"):
            return i + 1, len(line) - len(line.lstrip()) + 1
    return _find_table(text, table)


def _at(path: str, text: list[str], where: tuple[int, int], message: str) -> GcnemuError:
    """An llvm-mc style error at a line of the TOML file: file:line:col, the line, a caret."""
    line, col = where
    src = text[line - 1] if 0 < line <= len(text) else ""
    width = max(1, len(src.rstrip()) - (col - 1))
    span = Span(path, line, col, line, col + width)
    return GcnemuError(f"{path}:{line}:{col}: error: {message}\n{src}\n{' ' * (col - 1)}^",
                       [Diagnostic("error", message, span)])


def _cycles(path: str, what: str, value, kind: str = "a number of cycles", at: Span | None = None,
            least: int = 0, most: int | None = MAX_LATENCY) -> int:
    """A non-negative integer from the TOML file (a bool, float or string is refused: TOML's
    `true` is not 1, and a negative latency would complete an access before it issues). A
    latency is at most MAX_LATENCY, the bound `Latencies.override` enforces, and a rate or an
    interval at least 1: checked here so that every command (run, step, timeline) reports it at
    the file's line instead of the engine raising it later."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        _fail(path, at, f"{what} must be a non-negative integer ({kind}), got {value!r}")
    if most is not None and not least <= value <= most:
        _fail(path, at, f"{what} must be from {least} to {most} cycles, got {value}")
    return value


def _fail(path: str, at: Span | None, message: str):
    if at is None:
        raise GcnemuError(f"{path}: {message}")
    raise GcnemuError(f"{at}: {message}", [Diagnostic("error", message, at)])


def _where(path: str, lines: list[str], table: str, entry: int, key: str) -> Span | None:
    """Where `key = value` is written in `[table]` (or the `entry`-th `[[table]]`): the value's
    columns, for a `file:line:col: error:` (tomllib gives values, not their places)."""
    current, count = None, -1
    for n, text in enumerate(lines, start=1):
        t = text.split("#", 1)[0].strip()
        if t.startswith("["):
            name = t.strip("[]").strip()
            if t.startswith("[["):
                count = count + 1 if name == table else count
                current = (name, count)
            else:
                current = (name, 0)
            continue
        if current == (table, entry) and "=" in t and t.split("=", 1)[0].strip().strip('"') == key:
            col = text.index("=") + 1
            while col < len(text) and text[col] == " ":
                col += 1
            end = col + len(t.split("=", 1)[1].strip())
            return Span(path, n, col + 1, n, end + 1)
    return None


def as_config(latencies) -> TimingConfig:
    """Accept None, a dict of overrides, a Latencies or a TimingConfig (Python API)."""
    if latencies is None:
        return TimingConfig()
    if isinstance(latencies, TimingConfig):
        return latencies
    if isinstance(latencies, dict):
        return TimingConfig(dict(latencies))
    if isinstance(latencies, Latencies):
        return TimingConfig(latencies.as_dict())
    raise TypeError(f"latencies must be a dict, Latencies or TimingConfig, not {type(latencies).__name__}")


class MemoryTiming:
    """How long a memory access takes: table latency + bytes / bandwidth, per region.

    `hook(kind, addrs, nbytes)` may return a latency for any access (None: use the
    tables); it is the place for a cache model. Kinds: vmem, vmem_store, lds_dma.
    """

    def __init__(self, lat: Latencies, regions: list[Region] | None = None, memory=None,
                 hierarchy: MemoryHierarchy | None = None):
        self.lat = lat
        self.hook: Callable | None = None
        # the caches loads walk (None: every load takes the flat `vmem` latency)
        self.caches: CacheHierarchy | None = CacheHierarchy(hierarchy) if hierarchy is not None else None
        # the cache level ("L1", "L2", "HBM", ...) the latest `vector` access hit, for the engine's
        # where-time-went report; None while the latency is flat (no level known)
        self.last_level: str | None = None
        self.regions: list[Region] = []
        for r in regions or []:
            if r.buffer is not None:
                if memory is None:
                    continue
                try:
                    b = memory.buffer(r.buffer)
                except KeyError:
                    raise GcnemuError(f"latency region names unknown buffer '{r.buffer}'") from None
                self.regions.append(Region(r.latencies, r.buffer, b.base, b.end))
            else:
                self.regions.append(r)

    def vector(self, kind: str, memops: list, nbytes: int) -> int:
        base = getattr(self.lat, kind)
        self.last_level = None
        chosen = False  # a hook or a region decided the latency: the user's choice wins
        if self.regions or self.hook is not None:
            addrs = _first_addrs(memops)
            if self.hook is not None:
                got = self.hook(kind, addrs, nbytes)
                if got is not None:
                    return int(got)
            if addrs is not None and len(addrs):
                a = int(addrs[0])
                for r in self.regions:
                    if r.lo <= a < r.hi and kind in r.latencies:
                        base = r.latencies[kind]
                        chosen = True
                        break
        if self.caches is not None:
            for op in memops or ():
                addrs = getattr(op, "addrs", None)
                if addrs is None or not len(addrs):
                    continue
                size = int(getattr(op, "size", 4))
                if kind == "vmem_store":
                    self.caches.store(addrs, size)
                    continue
                level, latency = self.caches.load(addrs, size)
                if kind == "vmem" and not chosen:  # LDS DMA fills the caches, its latency stays flat
                    base = max(base, latency) if self.last_level is not None else latency
                    self.last_level = level
        return base + nbytes // self.lat.vmem_bytes_per_cycle


def _first_addrs(memops: list) -> np.ndarray | None:
    for op in memops:
        addrs = getattr(op, "addrs", None)
        if addrs is not None:
            return addrs
        a = getattr(op, "address", None)
        if a is not None:
            return np.array([a], dtype=np.uint64)
    return None
