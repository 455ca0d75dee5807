// 05_load_result_before_vmcnt_wrong.s -- WRONG ON PURPOSE: a VALU instruction uses the
// result of a global load without waiting for it.
//
// Vector memory loads are not interlocked: the destination VGPR is written when the data
// returns (hundreds of cycles later), and only s_waitcnt vmcnt(N) makes a wave wait.
// Here v_add_f32 reads v2 while the load is in flight and gets its old value (0), so
// out = 1 instead of in + 1. Fixed twin: 05_load_result_before_vmcnt_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer in: f32[64] = randn(seed=5)
//   buffer out: f32[64] = nan
//   arg: in, out
//   expect out = 1                           # the old v2 (0) + 1: the bug made visible
//   expect hazard vmem-result-before-vmcnt at 29
//   #   measured: 580 cycles; stall cycles per wave: waitcnt lgkmcnt 60
//   expect cycles: 709..867
//   expect stall waitcnt lgkmcnt: 27..37
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
load_result_before_vmcnt_wrong:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // in, out
	v_lshlrev_b32 v1, 2, v0                   // byte offset of element lane
	v_mov_b32 v2, 0                           // v2's old value
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	// BUG: no s_waitcnt vmcnt(0) before reading v2
	v_add_f32 v3, 1.0, v2
	global_store_dword v1, v3, s[6:7]
	s_endpgm
