"""Random straight-line-and-loop kernels for the timed-vs-functional differential.

`program(seed)` writes one small kernel with its `; gcnemu:` header: a target, one or more
waves, initialised registers and a buffer, then a random mix of blocks that stress what the
two engines compute differently (the timed engine lands results when their latency ends, the
functional engine at once):

- a transcendental (v_sqrt/rcp/rsq/exp/log/cos, f16/f32/f64) whose destination a later VALU
  instruction overwrites, after 0 to 2 other instructions (issue 25 item 1);
- a returning global atomic (glc / sc0) whose old value is read after s_waitcnt (item 2's kind);
- a counted loop that may run zero times (its guard branches past it), holding some of these;
- a scalar load from a `.rodata` table built with `.incbin` (item 4), reached through
  s_getpc_b64 and `@rel32` relocations: the file is TABLE_FILE beside the program;
- plain VALU and SALU arithmetic, v_cndmask on a compare, an MFMA with its wait states.

Every program is meant to be hazard free (results are read after their wait states and
counters), so both engines must agree bit for bit; a run the timed engine finds a hazard in
is left out of the comparison by the test, not here (see tests/test_reliability2.py).
"""
from __future__ import annotations

import random

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
TRANS_F32 = ["v_sqrt_f32", "v_rcp_f32", "v_rsq_f32", "v_exp_f32", "v_log_f32", "v_cos_f32", "v_sin_f32"]
TRANS_F16 = ["v_sqrt_f16", "v_rcp_f16", "v_rsq_f16", "v_exp_f16", "v_log_f16", "v_cos_f16"]
TRANS_F64 = ["v_sqrt_f64", "v_rcp_f64", "v_rsq_f64"]
VALU = ["v_add_u32 {d}, {a}, {b}", "v_xor_b32 {d}, {a}, {b}", "v_mul_lo_u32 {d}, {a}, {b}",
        "v_add_f32 {d}, {a}, {b}", "v_mul_f32 {d}, {a}, {b}", "v_fma_f32 {d}, {a}, {b}, {c}",
        "v_max_u32 {d}, {a}, {b}", "v_lshlrev_b32 {d}, 3, {a}", "v_mov_b32 {d}, {a}",
        "v_cvt_f32_u32 {d}, {a}", "v_sub_u32 {d}, {a}, {b}"]
SALU = ["s_add_u32 {d}, {a}, {b}", "s_xor_b32 {d}, {a}, {b}", "s_mul_i32 {d}, {a}, {b}", "s_mov_b32 {d}, {a}"]
# v10..v29 hold data (v20..v29 floats), v30..v33 addresses and atomic data; s10..s17 scalar data
DATA = [f"v{i}" for i in range(10, 30)]
SDATA = [f"s{i}" for i in range(10, 18)]


class _Writer:
    """One program's choices: the random source, the target and a label counter."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.target = self.rng.choice(TARGETS)
        self.labels = 0

    def v(self, avoid: tuple = ()) -> str:
        return self.rng.choice([r for r in DATA if r not in avoid])

    def fv(self, avoid: tuple = ()) -> str:
        return self.rng.choice([r for r in DATA[10:] if r not in avoid])

    def valu(self, dst: str | None = None, avoid: tuple = ()) -> str:
        """A VALU op whose sources are none of `avoid`."""
        return self.rng.choice(VALU).format(d=dst or self.v(avoid), a=self.v(avoid), b=self.v(avoid), c=self.v(avoid))

    def salu(self) -> str:
        rng = self.rng
        return rng.choice(SALU).format(d=rng.choice(SDATA), a=rng.choice(SDATA + ["7", "0x55"]), b=rng.choice(SDATA))

    def trans_overwrite(self) -> list[str]:
        """A transcendental, 0-2 other instructions, then a VALU write of (part of) its destination.
        Nothing reads the transcendental's result: on gfx942+ that read needs a wait state."""
        rng = self.rng
        kind = rng.choice(["f32", "f32", "f16", "f64"])
        if kind == "f64":
            d = rng.choice(range(10, 28, 2))
            src = rng.choice(range(20, 28, 2))
            out = [f"{rng.choice(TRANS_F64)} v[{d}:{d + 1}], v[{src}:{src + 1}]"]
            result = (f"v{d}", f"v{d + 1}")
        else:
            result = (self.v(),)
            out = [f"{rng.choice(TRANS_F32 if kind == 'f32' else TRANS_F16)} {result[0]}, {self.fv()}"]
        for _ in range(rng.randint(0, 2)):
            out.append(rng.choice([self.valu(avoid=result), self.salu(), "s_nop 0"]))
        dst = rng.choice(result)
        out.append(rng.choice([f"v_mov_b32 {dst}, {self.v(result)}", self.valu(dst, avoid=result),
                               f"{rng.choice(TRANS_F32)} {dst}, {self.fv(result)}"]))
        return out

    def atomic(self) -> list[str]:
        """A returning atomic on this lane's word of buffer A (v[30:31] its address), read after vmcnt."""
        ret = "sc0" if self.target in ("gfx942", "gfx950") else "glc"
        op = self.rng.choice(["add", "swap", "umax", "xor", "sub"])
        d = self.v()
        return [f"global_atomic_{op} {d}, v[30:31], v32, off {ret}", "s_waitcnt vmcnt(0)", self.valu()]

    def mfma(self) -> list[str]:
        """An MFMA into a[0:3] read back after its wait states (8 passes: 4x4x1f32)."""
        return (["s_nop 4", "v_mfma_f32_4x4x1f32 a[0:3], v20, v21, a[0:3]"] + ["s_nop 7"] * 5 +
                [f"v_accvgpr_read_b32 {self.v()}, a{self.rng.randint(0, 3)}"])

    def block(self, depth: int) -> list[str]:
        r = self.rng.random()
        if r < 0.35:
            return self.trans_overwrite()
        if r < 0.5:
            return self.atomic()
        if r < 0.6 and depth == 0:
            return self.loop()
        if r < 0.65:
            return self.mfma()
        if r < 0.72:
            return [f"v_cmp_gt_u32 vcc, {self.v()}, {self.v()}", "s_nop 4",
                    f"v_cndmask_b32 {self.v()}, {self.v()}, {self.v()}, vcc"]
        return [self.rng.choice([self.valu(), self.valu(), self.salu()])]

    def loop(self) -> list[str]:
        """`for (s40 = n; s40 != 0; s40--)` with n in 0..3: the guard skips the body when n is 0."""
        self.labels += 1
        k = self.labels
        body = [line for _ in range(self.rng.randint(1, 3)) for line in self.block(1)]
        return ([f"s_mov_b32 s40, {self.rng.randint(0, 3)}", "s_cmp_eq_u32 s40, 0", f"s_cbranch_scc1 .Lskip{k}",
                 f".Lloop{k}:"] + body +
                ["s_sub_u32 s40, s40, 1", "s_cmp_lg_u32 s40, 0", f"s_cbranch_scc1 .Lloop{k}", f".Lskip{k}:"])


TABLE_FILE = "gen_table.bin"


def table_bytes() -> bytes:
    """The `.incbin` table every generated program may read: 16 little-endian dwords."""
    return b"".join((7 * i + 3).to_bytes(4, "little") for i in range(16))


def program(seed: int) -> str:
    """One kernel, its header included; the same seed gives the same text."""
    g = _Writer(seed)
    rng = g.rng
    waves = rng.choice([1, 1, 2])
    lines = ["; gcnemu:", f";   arch: {g.target}", f";   workgroup: {64 * waves}",
             ";   buffer A: u32[128] = i * 3 + 1 -> s[4:5]",
             ";   vgpr v30 = tid * 4", ";   vgpr v31 = 0", ";   vgpr v32 = lane + 5"]
    for i in range(10, 20):
        lines.append(f";   vgpr v{i} = lane * {rng.randint(1, 9)} + {rng.randint(0, 99)}")
    for i in range(20, 30):
        lines.append(f";   vgpr v{i} = lane * {rng.choice(['0.25', '1.5', '3'])} + {rng.choice(['0.5', '2', '7'])} : f32")
    for i, s in enumerate(SDATA):
        lines.append(f";   sgpr {s} = {rng.randint(0, 1000) + i}")
    body = ["v_add_co_u32 v30, vcc, s4, v30", "v_mov_b32 v31, s5", "s_nop 4", "v_addc_co_u32 v31, vcc, v31, 0, vcc",
            "v_accvgpr_write_b32 a0, 0", "v_accvgpr_write_b32 a1, 0", "v_accvgpr_write_b32 a2, 0",
            "v_accvgpr_write_b32 a3, 0", "s_nop 1"]
    for _ in range(rng.randint(3, 10)):
        body += g.block(0)
    table = rng.random() < 0.3  # (drawn after the blocks, so the other programs stay as they were)
    if table:
        dst, src = g.v(), g.v()
        body += ["s_getpc_b64 s[42:43]", "s_add_u32 s42, s42, gtable@rel32@lo+4",
                 "s_addc_u32 s43, s43, gtable@rel32@hi+12", f"s_load_dword s44, s[42:43], {4 * rng.randint(0, 15):#x}",
                 "s_waitcnt lgkmcnt(0)", f"v_add_u32 {dst}, s44, {src}"]
    body += ["s_waitcnt vmcnt(0) lgkmcnt(0)", "s_nop 7", "s_nop 7", "s_endpgm"]
    text = "\n".join(lines + [f"  {b}" if not b.endswith(":") else b for b in body]) + "\n"
    return text + (f".rodata\ngtable:\n  .incbin \"{TABLE_FILE}\"\n" if table else "")


if __name__ == "__main__":
    import sys
    print(program(int(sys.argv[1]) if len(sys.argv) > 1 else 1))
