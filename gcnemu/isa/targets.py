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


@dataclass(frozen=True)
class Latencies:
    """Default pipeline latencies in cycles (overridable).

    - salu/valu: a wave64 VALU op occupies the SIMD for 4 cycles (16 lanes per cycle);
      results are usable by the next dependent instruction without software waits
      (the hardware interlocks VALU->VALU), so 4 cycles issue-to-result.
    - smem: scalar cache hit, order of 100 cycles (LLVM's scheduling model uses ~ this scale).
    - vmem: a global/buffer load hitting L2, several hundred cycles; 500 is the model default.
    - lds: a conflict-free ds_read of a wave64, ~64 cycles plus 4 per extra bank conflict way.
    - branch: taken branch redirect.
    """

    salu: int = 4
    valu: int = 4
    valu_trans: int = 8
    valu_dp: int = 16
    smem: int = 100
    vmem: int = 500
    vmem_store: int = 200
    lds: int = 64
    lds_conflict: int = 4
    lds_dma: int = 600
    branch: int = 8
    barrier: int = 4

    def override(self, **kw: int) -> "Latencies":
        unknown = set(kw) - set(self.__dataclass_fields__)
        if unknown:
            raise KeyError(f"unknown latency name(s): {', '.join(sorted(unknown))}; "
                           f"known: {', '.join(self.__dataclass_fields__)}")
        return replace(self, **kw)


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

    def has(self, feature: str) -> bool:
        return feature in self.features


TARGETS: dict[str, Target] = {
    "gfx908": Target(
        "gfx908", "CDNA1", "MI100", unified_vgpr_file=False,
        features=frozenset({"mai", "agpr-separate"}),
    ),
    "gfx90a": Target(
        "gfx90a", "CDNA2", "MI200",
        features=frozenset({"mai", "dgemm", "mfma-vgpr-cd", "lds-dma-buffer", "packed-fp32", "bf16-1k"}),
    ),
    "gfx942": Target(
        "gfx942", "CDNA3", "MI300",
        features=frozenset({"mai", "dgemm", "mfma-vgpr-cd", "lds-dma-buffer", "lds-dma-global", "packed-fp32",
                            "bf16-1k", "gfx940-insts", "fp8-fnuz", "xf32", "smfmac", "v-mov-b64"}),
    ),
    "gfx950": Target(
        "gfx950", "CDNA4", "MI350", lds_bytes=160 * 1024,
        features=frozenset({"mai", "dgemm", "mfma-vgpr-cd", "lds-dma-buffer", "lds-dma-global", "packed-fp32",
                            "bf16-1k", "gfx940-insts", "fp8-ocp", "smfmac", "v-mov-b64", "f8f6f4",
                            "lds-dma-wide", "ds-read-tr"}),
    ),
}

# llvm-mc spells some targets differently; all gfx94x share the gfx942 model.
ALIASES = {"gfx940": "gfx942", "gfx941": "gfx942"}

DEFAULT_TARGET = "gfx90a"


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
