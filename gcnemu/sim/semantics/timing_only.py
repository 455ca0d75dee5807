"""Instructions that take time but change nothing gcnemu models: messages and cache maintenance.

- s_sendmsg / s_sendmsghalt send a message to the SPI or the trap handler (graphics stages,
  interrupts, wave save/halt). Compute kernels change no register or memory through them; the
  engine times them from the opcode table (the `msg` pipe, counted in lgkmcnt). The halt of
  s_sendmsghalt is not modelled: the wave goes on, and the run says so once.
- s_incperflevel / s_decperflevel (a performance-level hint to the power manager), s_ttracedata
  (a word for the thread trace), s_atc_probe / s_atc_probe_buffer (a translation-cache probe): no
  register or memory effect a kernel can observe; LLVM has intrinsics for the first three.
- s_icache_inv, buffer_wbl2, buffer_inv, buffer_invl2, buffer_wbinvl1[_vol] write back or
  invalidate caches. gcnemu's memory is coherent (one global memory, no cache contents), so
  their only effect is their time; the vector ones count in vmcnt like other MUBUF ops.
(The scalar cache's s_dcache_* live with the scalar memory semantics.)
"""
from __future__ import annotations

from ..context import Ctx
from . import semantic


@semantic("s_sendmsg", "s_incperflevel", "s_decperflevel", "s_ttracedata", "s_atc_probe", "s_atc_probe_buffer",
          "s_icache_inv", "buffer_wbl2", "buffer_inv", "buffer_invl2", "buffer_wbinvl1",
          "buffer_wbinvl1_vol")
def timing_only(ctx: Ctx, ins) -> None:
    """Nothing changes (timing aside)."""


@semantic("s_sendmsghalt")
def s_sendmsghalt(ctx: Ctx, ins) -> None:
    ctx.note("s_sendmsghalt: the message has no effect here and the wave does not halt (not modelled)")
