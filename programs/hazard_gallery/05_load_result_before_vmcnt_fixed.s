// 05_load_result_before_vmcnt_fixed.s -- the fixed twin of 05_load_result_before_vmcnt_wrong.s:
// s_waitcnt vmcnt(0) between the load and the first use of its result.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer in: f32[64] = randn(seed=5)
//   buffer out: f32[64] = nan
//   arg: in, out
//   expect out = f32(in + 1)
//   expect hazards: none
//   #   measured: 892 cycles; stall cycles per wave: waitcnt vmcnt 500, waitcnt lgkmcnt 60
//   expect cycles: 992..1216
//   expect stall waitcnt vmcnt: 625..847
//   expect stall waitcnt lgkmcnt: 27..37
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
load_result_before_vmcnt_fixed:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // in, out
	v_lshlrev_b32 v1, 2, v0                   // byte offset of element lane
	v_mov_b32 v2, 0                           // v2's old value
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)                        // FIX: the load has returned
	v_add_f32 v3, 1.0, v2
	global_store_dword v1, v3, s[6:7]
	s_endpgm
