// 14_mfma_srcc_valu_overwrite_wrong.s -- WRONG ON PURPOSE: a VALU instruction overwrites a
// register that an MFMA in flight still reads as SrcC (write after read).
//
// An MFMA does not read its accumulator input at issue: SrcC is read pass by pass, so the
// registers must stay unchanged for a while. On gfx90a a VALU may overwrite the SrcC of an
// 8-pass MFMA only 7 wait states later (../shared/isa/hazards.md gfx90a "SMFMA reads VGPR as
// SrcC -> VALU writes it (WAR) 1/7/15", LLVM checkMAIVALUHazards). Here v4 (C = 1.0) is
// reused at once for 100.0; hardware may accumulate the new value: out = 108 instead of 9.
// The emulator reads all of SrcC at issue, so the value comes out right here; the linter and
// the run-time monitor report the missing wait states.
// Fixed twin: 14_mfma_srcc_valu_overwrite_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8 + 1                       # right in this model (SrcC is read at issue)
//   expect hazard xdl-srcc-valu-write-war at 38
//   #   measured: 396 cycles; MFMA utilisation 0.081; stall cycles per wave: nop 40
//   expect cycles: 356..436
//   expect mfma-utilisation: 0.068..0.093
//   expect stall nop: 34..46
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_srcc_valu_overwrite_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_mov_b32 v4, 1.0                         // C = 1 everywhere
	v_mov_b32 v5, 1.0
	v_mov_b32 v6, 1.0
	v_mov_b32 v7, 1.0
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states (not the bug here)
	v_mfma_f32_16x16x4f32 v[10:13], v1, v2, v[4:7] // D = A B + C = 8 + 1
	// BUG: v4 is the in-flight MFMA's SrcC; overwritten 0 wait states after it
	v_mov_b32 v4, 0x42c80000                  // v4 = 100.0, for later use
	s_nop 9                                   // 8-pass MFMA -> memory read: 11 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v10, s[4:5]
	s_endpgm
