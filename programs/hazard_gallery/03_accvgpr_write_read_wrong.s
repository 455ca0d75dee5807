// 03_accvgpr_write_read_wrong.s -- WRONG ON PURPOSE (gfx908): v_accvgpr_read reads an AGPR
// right after v_accvgpr_write wrote it.
//
// On gfx908 (MI100) AGPRs are a separate file reached through v_accvgpr_write/read; a read
// of an AGPR needs 3 wait states after the write (LLVM checkMAIHazards908,
// AccVGPRWriteAccVgprReadWaitStates). The same file has the sibling rules for an MFMA
// reading a just-written AGPR as SrcC (1) or SrcA/B (3). The emulator interlocks the
// VALU write, so the value is right here; the linter and the run-time monitor catch it.
// Fixed twin: 03_accvgpr_write_read_fixed.s.
//
// gcnemu:
//   arch: gfx908
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out
//   expect out = 3 * arange(64)
//   expect hazard accvgpr-write-accvgpr-read at 30
//   #   measured: 376 cycles; stall cycles per wave: waitcnt lgkmcnt 40, nop 4
//   expect cycles: 338..414
//   expect stall waitcnt lgkmcnt: 10..14
//   expect stall nop: 0..8
	.amdgcn_target "amdgcn-amd-amdhsa--gfx908"
	.text
accvgpr_write_read_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mul_u32_u24 v1, 3, v0                   // 3 * lane (gfx908: v0 = work-item id x)
	s_nop 1                                   // VALU -> v_accvgpr_write: 2 wait states (gfx908)
	v_accvgpr_write_b32 a0, v1
	// BUG: reads a0 0 wait states after the write
	v_accvgpr_read_b32 v2, a0
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]; with the s_waitcnt
	                                          // the 2 wait states v_accvgpr_read -> store needs
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v2, s[4:5]
	s_endpgm
