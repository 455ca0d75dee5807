"""Writes the global-memory calibration loops (mt4g p-chase rows, pyhip's dwordx4 stream,
gpu-benches' MI210 L1 latency) into this directory.

The .s files are the checked-in data; this script is how they were made:
`python benchmarks/calibration/make_mem_rows.py`. The LDS and scalar-cache rows were written
by hand (see README.md).

The chase copies mt4g's p-chase: one lane follows a chain of pointers (each dword of the
buffer holds its own offset + STRIDE), one global_load_dword + s_waitcnt vmcnt(0) per link,
16 links in one s_memtime window. Which level the links hit is set up before the window:
- L1: one wave-wide load touches the 16 lines first (they are in L1 and L2);
- L2: eight wave-wide loads touch 512 lines (twice the L1 of every target), so the first 16
  have left the LRU L1 but are still in L2;
- memory: the chain strides 4 KiB through lines nothing touched (cold).
"""
import sys
from pathlib import Path

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent)
MT4G = "https://github.com/caps-tum/mt4g/blob/{commit}/sample_results/{path} (mt4g sample_results/{label})"
# target -> (part, mt4g path, commit, label, line bytes, {level: (figure, note)})
PARTS = {
    "gfx942": ("MI300X", "AMD%20Instinct%20MI300X%20VF/README.md", "231c5bc", "AMD Instinct MI300X VF", 128,
               {"L1": 116, "L2": 287.5, "memory": 899.7}),
    "gfx90a": ("MI210", "AMD%20Instinct%20MI210/README.md", "231c5bc", "AMD Instinct MI210", 64,
               {"L1": 124, "L2": 302.1, "memory": 740.9}),
    "gfx908": ("MI100", "AMD%20Instinct%20MI100/README.md", "231c5bc", "AMD Instinct MI100", 64,
               {"L1": 136, "L2": 343.7, "memory": 703.2}),
    "gfx950": ("MI350P", "AMD_Instinct_MI350P.json", "52701e7", "AMD_Instinct_MI350P.json", 128,
               {"L1": 112, "L2": 256.0, "memory": 767.5}),
}
WHAT = {"L1": "vector L1 hit latency", "L2": "L2 hit latency", "memory": "main memory (HBM) latency"}
KEY = {"L1": "l1 latency", "L2": "l2 latency", "memory": "main latency"}


def chase(target: str, level: str, figure: float, source: str, part: str, line: int,
          name: str | None = None, method: str | None = None) -> str:
    stride = 4096 if level == "memory" else line
    warm = {"L1": 1, "L2": 8, "memory": 0}[level]
    elements = max(16 * stride, warm * 64 * stride) // 4 + 64
    shift = stride.bit_length() - 1
    lines = [f"// calibration: {name or 'global_load_dword ' + WHAT[level] + ' (mt4g p-chase)'}",
             f"//   hardware: {figure:g}",
             "//   unit: cycles latency",
             "//   tolerance: 4 cycles",
             f"//   part: {part}",
             f"//   target: {target}",
             "//   count: 16",
             f"//   method: {method or 'mt4g p-chase (one thread, mean over the chain); here one lane chases 16 links (global_load_dword + s_waitcnt vmcnt(0)) in one s_memtime window'}; "
             + {"L1": "one wave-wide load touched the 16 lines first",
                "L2": "eight wave-wide loads touched 512 lines (twice the L1) first: the chain's lines left the LRU L1 and stay in L2",
                "memory": "a 4 KiB stride through lines nothing touched"}[level],
             f"//   source: {source}",
             "",
             "// gcnemu:",
             "//   workgroup: 64",
             f"//   buffer A: u32[{elements}] = i * 4 + {stride} -> s[4:5]",
             "",
             f'\t.amdgcn_target "amdgcn-amd-amdhsa--{target}"',
             "\t.text",
             "\t.p2align 8",
             "calib:",
             f"\tv_lshlrev_b32 v3, {shift}, v0                // lane i: line i"]
    for k in range(warm):
        lines.append(f"\tglobal_load_dword v{10 + k}, v3, s[4:5] offset:0" if k == 0 else
                     f"\tv_add_u32 v3, {64 * stride}, v3\n\tglobal_load_dword v{10 + k}, v3, s[4:5]")
    if warm:
        lines.append("\ts_waitcnt vmcnt(0)")
    lines += ["\tv_mov_b32 v1, 0                        // the chain starts at offset 0",
              "\ts_mov_b64 exec, 1                      // one lane, as mt4g's one thread",
              "\ts_memtime s[20:21]",
              "\ts_waitcnt lgkmcnt(0)",
              "\t.rept 16",
              "\tglobal_load_dword v1, v1, s[4:5]",
              "\ts_waitcnt vmcnt(0)",
              "\t.endr",
              "\ts_memtime s[22:23]",
              "\ts_waitcnt lgkmcnt(0)",
              "\ts_endpgm", ""]
    return "\n".join(lines)


def stream(target: str = "gfx942") -> str:
    """pyhip's buffer_load_dwordx4 throughput: (11 loads + wait) - (1 load + wait), / 10; lane i
    at 16*i, load k at soffset k*1024; every load to lines nothing touched."""
    src = "https://github.com/tingqli/pyhip/blob/3b45d9d/docs/mem_latency.md (pyhip docs/mem_latency.md)"
    out = ["// calibration: buffer_load_dwordx4 stream throughput, one wave",
           "//   hardware: 32",
           "//   unit: cycles/iteration",
           "//   tolerance: 10%",
           "//   part: MI308X",
           f"//   target: {target}",
           "//   count: 10",
           "//   method: one wave per CU; pyhip's throughput = (window of 11 independent buffer_load_dwordx4 + s_waitcnt vmcnt(0) - window of one load + wait) / 10, voffset lane*16, soffset k*1024, HBM (lines nothing touched)",
           "//   baseline: one buffer_load_dwordx4 + s_waitcnt vmcnt(0) on other cold lines (s[24:27]); each window waits for its start s_memtime first",
           f"//   source: {src}",
           "",
           "// gcnemu:",
           "//   workgroup: 64",
           "//   buffer A: u32[8192] = i -> s[4:5]",
           "",
           f'\t.amdgcn_target "amdgcn-amd-amdhsa--{target}"',
           "\t.text",
           "\t.p2align 8",
           "calib:",
           "\ts_mov_b32 s8, s4                       // buffer resource: base, stride 0, 32 KiB, DFMT 32",
           "\ts_and_b32 s9, s5, 0xffff",
           "\ts_mov_b32 s10, 0x8000",
           "\ts_mov_b32 s11, 0x00020000",
           "\tv_lshlrev_b32 v3, 4, v0                // lane i: 16 bytes at 16*i"]
    out += [f"\ts_mov_b32 s{30 + k}, {k * 1024}" for k in range(12)]
    out += ["\ts_memtime s[24:25]",
            "\ts_waitcnt lgkmcnt(0)",
            "\tbuffer_load_dwordx4 v[10:13], v3, s[8:11], s41 offen   // 11 KiB on: its own cold lines",
            "\ts_waitcnt vmcnt(0)",
            "\ts_memtime s[26:27]",
            "\ts_waitcnt lgkmcnt(0)",
            "\ts_memtime s[20:21]",
            "\ts_waitcnt lgkmcnt(0)"]
    out += [f"\tbuffer_load_dwordx4 v[{14 + 4 * k}:{17 + 4 * k}], v3, s[8:11], s{30 + k} offen" for k in range(11)]
    out += ["\ts_waitcnt vmcnt(0)",
            "\ts_memtime s[22:23]",
            "\ts_waitcnt lgkmcnt(0)",
            "\ts_endpgm", ""]
    return "\n".join(out)


def main() -> None:
    for target, (part, path, commit, label, line, figures) in PARTS.items():
        for level, figure in figures.items():
            src = MT4G.format(commit=commit, path=path, label=f"{label}, {KEY[level]}")
            (OUT / f"{target}_mt4g_{level.lower()}_latency.s").write_text(chase(target, level, figure, src, part, line))
    (OUT / "gfx942_buffer_load_dwordx4_tput.s").write_text(stream())
    # te42kyfo/gpu-benches gpu-latency (MI210): 125.1 cycles for working sets up to 15 kB (L1)
    src = ("https://github.com/te42kyfo/gpu-benches/blob/a7dc559/gpu-latency/mi210.txt "
           "(gpu-benches gpu-latency/mi210.txt, 1-15 kB rows)")
    (OUT / "gfx90a_gpubench_l1_latency.s").write_text(chase(
        "gfx90a", "L1", 125.1, src, "MI210", 64, name="global load vector L1 hit latency (gpu-benches pointer chase)",
        method="gpu-benches gpu-latency: one thread chases pointers through a working set of 1-15 kB (fits the 16 KiB L1), cycles per load; here one lane chases 16 links (global_load_dword + s_waitcnt vmcnt(0)) in one s_memtime window"))


if __name__ == "__main__":
    main()
