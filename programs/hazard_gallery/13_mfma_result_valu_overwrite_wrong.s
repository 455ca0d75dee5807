// 13_mfma_result_valu_overwrite_wrong.s -- WRONG ON PURPOSE: a VALU instruction writes a
// register that an MFMA still in flight will write (write after write).
//
// The kernel only needs D[0] (v4) and reuses v5, part of the MFMA's destination v[4:7], as a
// scratch register right after the MFMA issued. The MFMA writes v[4:7] when it finishes,
// after the v_mov: the scratch value is lost. On gfx90a a VALU may overwrite an 8-pass MFMA's
// destination only 11 wait states later (../shared/isa/hazards.md gfx90a "SMFMA writes VGPR
// -> VALU writes the same VGPR (WAW) 5/11/19", LLVM checkMAIVALUHazards). Here v5 ends up
// 8.0 (the MFMA's) instead of 3.0, so out = 8 + 8 instead of 8 + 3.
// Fixed twin: 13_mfma_result_valu_overwrite_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8 + 8                       # v5 = the MFMA's late 8.0: the bug made visible
//   expect hazard xdl-result-valu-write-waw at 33
//   #   measured: 384 cycles; MFMA utilisation 0.083; stall cycles per wave: nop 40
//   expect cycles: 345..423
//   expect mfma-utilisation: 0.070..0.096
//   expect stall nop: 34..46
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_result_valu_overwrite_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states (not the bug here)
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B: every element 4 x 1 x 2 = 8
	// BUG: v5 is part of the in-flight MFMA's destination; overwritten 0 wait states after it
	v_mov_b32 v5, 3.0                         // scratch
	s_nop 9                                   // 8-pass MFMA -> VALU read of v4: 11 wait states
	v_add_f32 v8, v4, v5                      // D[0] + scratch
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v8, s[4:5]
	s_endpgm
