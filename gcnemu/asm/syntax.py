"""The words of gfx9 assembly that every parsing path must read alike: register names, bare
modifier words, and what a mnemonic's prefix says about its operands.

Used by the grammar bridge (`grammar`), the regex fast path (`fastpath`) and the piece path
(`pieces`). It exists so that those paths share one definition of these words: they must build
the very same objects from the same text.
"""
from __future__ import annotations

import re
from functools import lru_cache

# Register-like names llvm-mc knows on gfx9. Anything else is a symbol.
SPECIAL_REGISTERS = frozenset("""
vcc vcc_lo vcc_hi exec exec_lo exec_hi m0 scc off flat_scratch flat_scratch_lo flat_scratch_hi
xnack_mask xnack_mask_lo xnack_mask_hi tba tba_lo tba_hi tma tma_lo tma_hi vccz execz
src_vccz src_execz src_scc src_shared_base src_shared_limit src_private_base src_private_limit
shared_base shared_limit private_base private_limit src_pops_exiting_wave_id pops_exiting_wave_id
src_lds_direct lds_direct null
""".split())

# Bare words that are instruction modifiers, not operands, wherever they stand. `no` + a
# cache-policy name is that bit written as cleared (llvm-mc's AMDGPUAsmParser::parseCPol takes
# `noglc`, `nosc0`...); which names a target knows is validate's business.
FLAG_MODIFIERS = frozenset("""
offen idxen addr64 glc slc dlc scc lds nt sc0 sc1 gds tfe lwe d16 a16 r128 da unorm clamp done vm compr
row_en bound_ctrl high fi noglc noslc nodlc noscc nosc0 nosc1 nont
""".split())

# llvm-mc reads a bare word as a modifier only where the instruction takes that modifier: scalar
# ALU and branch instructions take none, so there `done`, `lds`, `glc`, `off`... are symbols (labels:
# `s_branch done`). Memory instructions (s_load...) keep their cache-policy flags.
_NO_FLAGS = frozenset()

_MEMORY_PREFIXES = ("buffer_", "global_", "flat_", "scratch_", "tbuffer_", "s_load", "s_store", "s_buffer_",
                    "s_atomic", "s_scratch_", "s_dcache", "s_atc_")

# Words whose meaning depends on where they stand in an instruction, which only the grammar
# bridge works out (the fast paths leave such lines to it): MIMG's `a16` (16-bit addresses) is
# also the name of AGPR 16, and MTBUF's legacy `dfmt:N nfmt:M` stand before the soffset operand.
def needs_grammar(mnemonic: str, code: str) -> bool:
    """Does this line hold a word only the grammar bridge reads in context?"""
    return mnemonic.startswith("image_") and "a16" in code


def a16_modifier(mnemonic: str, item, operands: list, modifiers: list) -> bool:
    """Is `item` MIMG's `a16` modifier rather than the register a16? llvm-mc reads the bare word
    `a16` after an image instruction's resource operands (after its third operand, or after
    another modifier) as the modifier; before that it is AGPR 16."""
    sp = item.span
    return (mnemonic.startswith("image_") and item.file == "a" and item.index == 16 and item.count == 1
            and sp.end_column - sp.column == 3 and (len(operands) >= 3 or bool(modifiers)))


# MTBUF (tbuffer_*) legacy format modifiers, which llvm-mc also reads between srsrc and soffset:
# `tbuffer_load_format_x v1, off, s[4:7], dfmt:15, nfmt:2, s1` (AMDGPUAsmParser::parseFORMAT).
LEGACY_FORMAT = frozenset(("dfmt", "nfmt"))


_RANGE_RE = re.compile(r"^(v|s|a|acc|ttmp)\[\s*(\d+)\s*(?::\s*(\d+)\s*)?\]$")
_REG_RE = re.compile(r"^(v|s|a|ttmp|acc)(\d+)$")  # llvm-mc: register names are lower case only


@lru_cache(maxsize=4096)
def _mnemonic_facts(mn: str):
    """(mnemonic, memory instruction?, scalar non-memory?, its bare-word modifiers) of a mnemonic as written."""
    mnemonic = mn.lower()
    memory = mnemonic.startswith(_MEMORY_PREFIXES)
    scalar = not memory and mnemonic.startswith("s_")
    return mnemonic, memory, scalar, (_NO_FLAGS if scalar else FLAG_MODIFIERS)


# a symbol's name, as llvm-mc spells one
_WORD = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$@]*")
