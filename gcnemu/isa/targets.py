"""One record per architecture: register files, counters, LDS, features, latencies.

Everything the rest of gcnemu needs to know about "which GPU" lives here, so a new
target is a new record plus the rows that differ in the instruction tables.

Sources: AMD Instinct MI100 (CDNA1), MI200 (CDNA2), MI300 (CDNA3) and MI350 (CDNA4)
ISA reference guides; counter widths verified with llvm-mc 22 (shared/isa/counters.md).
Latency defaults are documented beside each field; they are model parameters, not
measurements of a particular board, and can be overridden (`--latency`, TOML, API).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace


MAX_LATENCY = 1 << 20
"""The largest latency (or rate) a run accepts, in clocks: about a thousand times an HBM miss.
Beyond it a value is a typo (`vmem=2**70`), and the stall totals it produces mean nothing."""

POSITIVE_LATENCIES = frozenset({"issue_interval", "vmem_bytes_per_cycle", "lds_bytes_per_cycle",
                                "lds_wave_bytes_per_cycle", "lds_simds_per_port", "mfma_pass"})
"""Rates and intervals: 0 would divide by zero or never advance the clock, so they start at 1."""


@dataclass(frozen=True)
class Latencies:
    """Timing parameters of one target, in clock cycles (overridable: TOML, `--latency`, API).

    They are model parameters with documented origins, not measurements of one board.
    Units: LLVM's AMDGPU scheduling model (SISchedule.td) counts in issue slots and says
    "the latency values are 1 / (operations / cycle) / 4", i.e. one slot is 4 clocks;
    the values here are clocks, so LLVM's numbers appear multiplied by 4.

    Issue
    - issue_interval: clocks between two issue opportunities of one SIMD. The GCN/CDNA
      compute unit "selects a single SIMD to decode and issue each cycle, using
      round-robin arbitration" (AMD GCN architecture whitepaper), so each SIMD, and
      hence each wave, gets a turn every 4 clocks. One wait state is one such turn.
    ALU (result latency; the pipe is busy for the same time unless a *_busy says otherwise)
    - salu: LLVM WriteSALU = 1 slot.
    - valu: a wave64 op over a 16-lane SIMD takes 4 clocks (LLVM Write32Bit = 1 slot);
      VALU->VALU dependencies are interlocked in hardware.
    - valu_trans: transcendental ops are quarter rate (LLVM WriteTrans32 = 4 slots).
    - valu_dp: f64 VALU ops. Full rate on CDNA2/3/4 (MI200/MI300 vector FP64 peak equals
      FP32 peak; LLVM SIDPFullSpeedModel WriteDouble = 1 slot); half rate on CDNA1
      (MI100: 11.5 vs 23.1 TFLOPS), so gfx908 uses 8.
    - mfma_pass: clocks per MFMA pass; passes come from the MFMA catalog (LLVM
      Write{2,4,8,16}PassMAI; AMD's Matrix Cores article: 4x4 = 8 clocks, 32x32 = 64).
    Memory (issue to data returned / counter decremented)
    - smem: scalar L1 hit. mt4g's scalarL1 p-chase measures 48 cycles on MI300X, MI210
      and MI100 (p50; caps-tum/mt4g sample_results); gcnemu's calibration chase of
      s_load_dword gives 48 with smem = 36 (+ smem_dword, + the issue of the next link).
      smem_dword: extra clocks per dword returned, which makes a wide s_load return after
      a narrow one issued later (SMEM is out of order, ISA guide "Data dependency resolution").
    - vmem: global/buffer load that hits L2: several hundred clocks (LLVM WriteVMEM = 80
      slots = 320 clocks; published pointer-chasing measurements on MI200/MI300 put L2
      hits in the hundreds of clocks and HBM higher). vmem_store: until the write is
      acknowledged (vmcnt counts stores on gfx9). lds_dma: global -> LDS load.
      With the target's MemoryHierarchy in effect (the default), a load's latency is the
      latency of the level it hits (L1/L2/HBM, `Target.hierarchy`); `vmem` is the flat
      latency a user may choose instead (`--latency vmem=...`, TOML, header), which wins.
    - vmem_bytes_per_cycle: data returned per clock per CU; a wave's bytes / this is added
      to the latency and occupies the vector memory pipe, so wider loads cost more. 32:
      pyhip measures one wave's buffer_load_dwordx4 stream at about 32 cycles per
      instruction on MI308X (docs/mem_latency.md: 1024 B / 32 clk).
    - lds: issue to data of a conflict-free DS access of up to 8 bytes per lane; lds_b128:
      the same for 12/16-byte accesses (ds_read_b96/b128), which return sooner. Fitted so
      that gcnemu's calibration chases give pyhip's MI308X figures (docs/mem_latency.md:
      ds_read_b32 55, ds_read_b128 50 cycles, one wave per CU, s_memtime window) and lie
      within 4 cycles of mt4g's LDS p-chase (MI300X 51.3; MI210/MI100 about 50).
    - lds_conflict_latency: extra latency of a DS access with any bank conflict. pyhip
      measures 120 cycles for a 4-bank conflict (stride 8 dwords) and 119 for a full one
      (stride 32): the penalty does not grow with the degree, the throughput does.
    - lds_bytes_per_cycle: the bank array, 32 banks x 4 B = 128 B/clk per CU.
      lds_wave_bytes_per_cycle: one SIMD pair's LDS data path, 64 B/clk (ROCm
      rocprofiler-compute "pipeline descriptions", LDS; pyhip: ds_read_b32 every 4 cycles,
      ds_read_b128 every 16 cycles from one wave). lds_simds_per_port: SIMDs sharing that path.
      A DS access holds its SIMD pair's path for max(wave bytes / lds_wave_bytes_per_cycle,
      wave bytes / lds_bytes_per_cycle + conflict cycles x lds_conflict): pyhip's stride-8
      ds_read_b32 issues every 16 cycles, stride-32 every 64. The DS semantics count the
      conflict cycles (`ctx.bank_conflicts`, sim/banks.py: a phase whose busiest bank holds
      k dwords takes k cycles).
    Control
    - branch: taken-branch redirect (LLVM WriteBranch = 8 slots = 32 clocks; the default
      assumes the target is in the instruction buffer).
    - barrier: from the last wave's arrival to every wave's release.
    - sleep: clocks per s_sleep unit (ISA guide: "approximately 64 * SIMM16[6:0] clocks").
    """

    issue_interval: int = 4
    salu: int = 4
    valu: int = 4
    valu_trans: int = 16
    valu_dp: int = 4
    mfma_pass: int = 4
    smem: int = 36  # mt4g scalarL1 latency 48 (MI300X/MI210/MI100 p50), see above
    smem_dword: int = 2
    vmem: int = 500
    vmem_store: int = 300
    lds_dma: int = 600
    vmem_bytes_per_cycle: int = 32  # pyhip: a wave's dwordx4 stream, ~32 clk per load
    lds: int = 47  # pyhip ds_read_b32 55 / mt4g 51.3 (gfx942), see above
    lds_b128: int = 44  # pyhip ds_read_b128 50 (gfx942)
    lds_conflict_latency: int = 67  # pyhip 120 (4-bank) / 119 (32-bank) vs 55 (gfx942)
    lds_bytes_per_cycle: int = 128
    lds_wave_bytes_per_cycle: int = 64
    lds_simds_per_port: int = 2
    lds_conflict: int = 1
    branch: int = 8
    barrier: int = 4
    sleep: int = 64

    def override(self, **kw: int) -> "Latencies":
        unknown = set(kw) - set(self.__dataclass_fields__)
        if unknown:
            raise KeyError(f"unknown latency name(s): {', '.join(sorted(unknown))}; "
                           f"known: {', '.join(self.__dataclass_fields__)}")
        bad = [k for k, v in kw.items() if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > MAX_LATENCY
               or (k in POSITIVE_LATENCIES and v < 1)]
        if bad:
            raise ValueError(f"latency values must be integers from 0 to {MAX_LATENCY} cycles (from 1 for rates "
                             f"and intervals): {', '.join(f'{k}={kw[k]!r}' for k in bad)}")
        return replace(self, **kw)

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class CacheLevel:
    """One level of the global-memory hierarchy a vector load walks (nearest first).

    size/line in bytes; latency: clocks from issue to data when the load hits here (the
    miss of every level costs `MemoryHierarchy.memory_latency`). gcnemu models each level
    as fully associative with LRU replacement: enough for "a repeated load hits, a
    streaming load misses", and no associativity is guessed."""

    name: str
    size: int
    line: int
    latency: int
    scope: str = "cu"  # "cu": one per compute unit (the vector L1); "device": shared (L2)


@dataclass(frozen=True)
class MemoryHierarchy:
    """The vector L1 (per CU) and L2 (shared) of a target, and main memory behind them.

    A global/buffer/flat load takes the latency of the farthest level any of its lines comes
    from, then fills every level. A flat latency chosen by the user (`vmem` from
    `--latency`, a TOML file or the snippet header) wins over the hierarchy."""

    levels: tuple[CacheLevel, ...]
    memory: str = "HBM"
    memory_latency: int = 500

    def names(self) -> tuple[str, ...]:
        return tuple(level.name for level in self.levels) + (self.memory,)

    def with_overrides(self, changes: dict[str, dict[str, int]]) -> "MemoryHierarchy":
        """Levels changed by name ({"L1": {"latency": 100}, "HBM": {"latency": 700}}); the
        caller has checked the names (latency.load_toml reports a bad one at its line)."""
        levels = tuple(replace(lv, **changes.get(lv.name, {})) for lv in self.levels)
        mem = changes.get(self.memory, {})
        return replace(self, levels=levels, memory_latency=mem.get("latency", self.memory_latency))


# Level latencies are "issue to data"; gcnemu's calibration chase (benchmarks/calibration,
# one lane, global_load_dword + s_waitcnt vmcnt(0) per link) adds about 9 clocks of issue and
# wait per link, so each value below is the published p-chase figure minus 9. Sources per target:
# mt4g sample_results (github caps-tum/mt4g, p-chase means) for sizes, line sizes and latencies;
# the CDNA whitepapers agree on the sizes (CDNA1/2: 16 KB L1 per CU, 8 MB L2; CDNA3: 32 KB L1
# per CU, 4 MB L2 per XCD; CDNA4: 32 KB L1, 4 MB L2 per XCD).
_HIERARCHY = {
    # MI100 (mt4g "AMD Instinct MI100"): L1 136, L2 343.7, main memory 703.2 cycles; lines 64 B
    "gfx908": MemoryHierarchy((CacheLevel("L1", 16 * 1024, 64, 127),
                               CacheLevel("L2", 8 * 1024 * 1024, 64, 335, "device")), "HBM", 694),
    # MI210 (mt4g "AMD Instinct MI210"): L1 124 (64 B lines), L2 302.1 (128 B lines), main 740.9
    "gfx90a": MemoryHierarchy((CacheLevel("L1", 16 * 1024, 64, 115),
                               CacheLevel("L2", 8 * 1024 * 1024, 128, 293, "device")), "HBM", 732),
    # MI300X (mt4g "AMD Instinct MI300X VF"): L1 116, L2 287.5, main 899.7 (behind the 256 MB
    # Infinity Cache, which gcnemu does not model as a level); lines 128 B
    "gfx942": MemoryHierarchy((CacheLevel("L1", 32 * 1024, 128, 107),
                               CacheLevel("L2", 4 * 1024 * 1024, 128, 279, "device")), "HBM", 891),
    # MI350P (mt4g AMD_Instinct_MI350P.json): L1 112, L2 256.0, main 767.5; lines 128 B
    "gfx950": MemoryHierarchy((CacheLevel("L1", 32 * 1024, 128, 103),
                               CacheLevel("L2", 4 * 1024 * 1024, 128, 247, "device")), "HBM", 759),
}


@dataclass(frozen=True)
class Target:
    name: str
    family: str  # CDNA1, CDNA2, CDNA3, CDNA4
    product: str
    wave_size: int = 64
    sgprs: int = 102  # s0..s101 addressable by a wave
    vgprs: int = 256
    agprs: int = 256
    unified_vgpr_file: bool = True  # gfx90a+: AGPRs and VGPRs share one 512-entry file per wave
    lds_bytes: int = 64 * 1024
    lds_banks: int = 32
    vmcnt_max: int = 63
    expcnt_max: int = 7
    lgkmcnt_max: int = 15
    simds_per_cu: int = 4
    max_waves_per_workgroup: int = 16
    features: frozenset = field(default_factory=frozenset)
    latencies: Latencies = field(default_factory=Latencies)
    hierarchy: MemoryHierarchy = field(default_factory=lambda: _HIERARCHY["gfx942"])

    def has(self, feature: str) -> bool:
        return feature in self.features


TARGETS: dict[str, Target] = {
    "gfx908": Target(
        "gfx908", "CDNA1", "MI100", unified_vgpr_file=False,
        features=frozenset({"mai", "agpr-separate"}),
        latencies=Latencies(valu_dp=8),  # CDNA1 vector FP64 is half rate
        hierarchy=_HIERARCHY["gfx908"],
    ),
    "gfx90a": Target(
        "gfx90a", "CDNA2", "MI200",
        features=frozenset({"mai", "dgemm", "mfma-vgpr-cd", "lds-dma-buffer", "packed-fp32", "bf16-1k"}),
        hierarchy=_HIERARCHY["gfx90a"],
    ),
    "gfx942": Target(
        "gfx942", "CDNA3", "MI300",
        features=frozenset({"mai", "dgemm", "mfma-vgpr-cd", "lds-dma-buffer", "lds-dma-global", "packed-fp32",
                            "bf16-1k", "gfx940-insts", "fp8-fnuz", "xf32", "smfmac", "v-mov-b64"}),
    ),
    "gfx950": Target(
        "gfx950", "CDNA4", "MI350", lds_bytes=160 * 1024,
        lds_banks=64,  # MI350 ISA guide (LDS chapter): 64 banks; CDNA4 doubled LDS bandwidth
        features=frozenset({"mai", "dgemm", "mfma-vgpr-cd", "lds-dma-buffer", "lds-dma-global", "packed-fp32",
                            "bf16-1k", "gfx940-insts", "fp8-ocp", "smfmac", "v-mov-b64", "f8f6f4",
                            "lds-dma-wide", "ds-read-tr"}),
        # LDS: mt4g's MI350P p-chase gives 47.5 cycles (AMD_Instinct_MI350P.json, shared latency),
        # 4 less than gfx942's fit; ds_read_b128 is assumed 3 cycles faster again, as on gfx942
        latencies=Latencies(lds=43, lds_b128=40),
        hierarchy=_HIERARCHY["gfx950"],
    ),
}

# llvm-mc spells some targets differently; all gfx94x share the gfx942 model.
ALIASES = {"gfx940": "gfx942", "gfx941": "gfx942"}

DEFAULT_TARGET = "gfx90a"

# ISA version (major, minor, stepping) of each target: llvm-mc predefines them as the symbols
# .amdgcn.gfx_generation_number / _minor / _stepping, which real kernels test with .if.
ISA_VERSION: dict[str, tuple[int, int, int]] = {
    "gfx908": (9, 0, 8), "gfx90a": (9, 0, 10), "gfx942": (9, 4, 2), "gfx950": (9, 5, 0),
}


def predefined_symbols(target: str) -> dict[str, int]:
    """The symbols llvm-mc defines before reading a file for `target` (amdgcn-amd-amdhsa)."""
    major, minor, stepping = ISA_VERSION[ALIASES.get(target, target)]
    return {".amdgcn.gfx_generation_number": major, ".amdgcn.gfx_generation_minor": minor,
            ".amdgcn.gfx_generation_stepping": stepping,
            # llvm-mc raises these as registers are used; gcnemu keeps the value a file assigns
            ".amdgcn.next_free_vgpr": 0, ".amdgcn.next_free_sgpr": 0}


def get_target(name: str) -> Target:
    key = ALIASES.get(name.lower(), name.lower())
    if key not in TARGETS:
        raise KeyError(f"unknown target '{name}'; known: {', '.join(TARGETS)}")
    return TARGETS[key]


def target_from_directive(arg: str) -> str | None:
    """`.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:xnack-"` -> 'gfx90a'."""
    text = arg.strip().strip('"')
    for part in text.replace(":", "-").split("-"):
        key = ALIASES.get(part, part)
        if key in TARGETS:
            return key
    return None
