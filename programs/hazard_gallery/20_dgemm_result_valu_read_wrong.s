// 20_dgemm_result_valu_read_wrong.s -- WRONG ON PURPOSE: a VALU instruction reads the result
// of an f64 MFMA (DGEMM) right after it.
//
// DGEMMs run on the fp64 pipe with their own wait-state rows: a VALU may read the result of
// v_mfma_f64_16x16x4f64 only 11 wait states later on gfx90a/gfx942 (19 on gfx950), a memory
// instruction 18 later (../shared/isa/hazards.md gfx90a "DGEMM 16x16x4 writes VGPR -> VALU
// reads / memory or export reads 11 / 18", LLVM checkMAIVALUHazards). The hazard monitor
// reports the missing 11 wait states at the v_add_f64.
// The run reads the landed value (out = 16): an f64 MFMA cannot co-execute with VALU (AMD
// Matrix Instruction Calculator, CDNA2/CDNA3), so gcnemu holds the v_add_f64 for the DGEMM's
// 32 busy cycles ("co-issue conflict"), and gcnemu lands MFMA results at the end of that busy
// time. Hardware needs 11 wait states (44 cycles) before the result is readable: the stale read
// it may give is earlier than gcnemu's result timing can show, so the rule table is the check here.
// Fixed twin: 20_dgemm_result_valu_read_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f64[64] = nan
//   arg: out
//   expect out = 16                          # the VALU waited for the DGEMM (no co-execution)
//   expect hazard dgemm16x16-result-valu-read at 42
//   #   measured: 380 cycles; MFMA utilisation 0.084; stall cycles per wave: waitcnt lgkmcnt 20, nop 4
//   expect cycles: 342..418
//   expect mfma-utilisation: 0.071..0.097
//   expect stall waitcnt lgkmcnt: 0..0
//   expect stall nop: 0..8
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
dgemm_result_valu_read_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v2, 0                           // A = 1.0 (f64) everywhere
	v_mov_b32 v3, 0x3ff00000
	v_mov_b32 v14, 0                          // B = 2.0 (f64) everywhere
	v_mov_b32 v15, 0x40000000
	v_mov_b32 v4, 0                           // D[0]'s old value: 0.0
	v_mov_b32 v5, 0
	v_lshlrev_b32 v20, 3, v0                  // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states (not the bug here)
	v_mfma_f64_16x16x4f64 v[4:11], v[2:3], v[14:15], 0 // D = A B: every element 4 x 1 x 2 = 8
	// BUG: the next instruction reads v[4:5] 0 wait states after the DGEMM
	v_add_f64 v[16:17], v[4:5], v[4:5]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v20, v[16:17], s[4:5]
	s_endpgm
