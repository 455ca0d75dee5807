"""The directives llvm-mc 22 knows for amdgcn-amd-amdhsa, as data.

Anything else that starts with a dot is llvm-mc's "unknown directive" error (a misspelt
`.amdhsa_next_free_vgpr` outside its block, `.hsa_code_object_version` from code object v2,
`.word`). The list was taken by asking llvm-mc 22 about each candidate name; the directives
inside an `.amdhsa_kernel` block (`.amdhsa_*`) are checked by the block's own rules.
"""
from __future__ import annotations

KNOWN = frozenset("""
.2byte .4byte .8byte .abort .addrsig .addrsig_sym .align .align32 .altmacro
.amd_amdgpu_pal_metadata .amdgcn_target .amdgpu_lds .amdgpu_metadata .amdgpu_pal_metadata .ascii
.asciz .balign .balignl .balignw .base64 .bss .byte .cfi_adjust_cfa_offset .cfi_def_cfa
.cfi_def_cfa_offset .cfi_def_cfa_register .cfi_endproc .cfi_escape .cfi_label
.cfi_llvm_def_aspace_cfa .cfi_lsda .cfi_offset .cfi_personality .cfi_register .cfi_rel_offset
.cfi_remember_state .cfi_restore .cfi_restore_state .cfi_return_column .cfi_same_value
.cfi_sections .cfi_signal_frame .cfi_startproc .cfi_undefined .cfi_val_offset .cfi_window_save
.cg_profile .code16 .code16gcc .cold .comm .common .cv_def_range .cv_file .cv_filechecksumoffset
.cv_filechecksums .cv_fpo_data .cv_func_id .cv_inline_linetable .cv_inline_site_id .cv_linetable
.cv_loc .cv_string .cv_stringtable .data .dc .dc.a .dc.b .dc.d .dc.l .dc.s .dc.w .dc.x .dcb .double
.ds .else .elseif .end .endif .endm .endmacro .endr .equ .equiv .err .error .exitm .extern .file
.fill .float .global .globl .hidden .ident .if .ifb .ifc .ifdef .ifeq .ifeqs .ifge .ifgt .ifle
.iflt .ifnb .ifnc .ifndef .ifne .ifnes .ifnotdef .incbin .include .int .internal .irp
.irpc .lazy_reference .lcomm .line .loc .loc_label .local .long .lto_discard .lto_set_conditional
.macro .macros_off .macros_on .memtag .no_dead_strip .noaltmacro .octa .org .p2align .p2alignl
.p2alignw .popsection .previous .print .private_extern .protected .pseudoprobe .purgem .pushsection
.quad .reference .reloc .rep .rept .rodata .section .set .short .single .size .skip .sleb128 .space
.stabs .string .subsection .symbol_resolver .symver .tbss .tdata .text .type .uleb128 .value
.version .warning .weak .weak_def_can_be_hidden .weak_definition .weak_reference .zero
.amdhsa_kernel .end_amdhsa_kernel .amdhsa_code_object_version .end_amdgpu_pal_metadata
""".split())

# Directives that only mean something between `.amdhsa_kernel NAME` and `.end_amdhsa_kernel`.
KERNEL_BLOCK_PREFIX = ".amdhsa_"


def known(name: str, in_kernel_block: bool = False) -> bool:
    """True if llvm-mc 22 takes `name` (lower case) as a directive here."""
    if name in KNOWN:
        return True
    return in_kernel_block and name.startswith(KERNEL_BLOCK_PREFIX)
