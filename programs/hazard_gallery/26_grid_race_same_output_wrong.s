// 26_grid_race_same_output_wrong.s -- WRONG ON PURPOSE: every workgroup of the grid scales its
// own 64 elements of A but stores them to C[0..63], because the store forgot the workgroup's
// offset. Workgroups run in no defined order, so which one's values stay depends on the
// hardware's schedule (a race between workgroups; no barrier can order them).
// Fixed twin: 26_grid_race_same_output_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   grid: 8
//   buffer A: f32[512] = arange(512) -> s[4:5]
//   buffer C: f32[512] = zeros(512) -> s[6:7]
//   expect C[64:] = zeros(448)                 # nobody wrote the rest of C
//   expect hazard grid-global-race
//   #   measured: 1068 cycles per workgroup; stall cycles per wave: waitcnt vmcnt 732
//   expect cycles: 960..1176
//   expect stall waitcnt vmcnt: 621..843

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
grid_race_same_output_wrong:
	s_lshl_b32 s9, s2, 6                      // first element of this workgroup: id.x * 64
	v_add_u32 v1, s9, v0                      // element index
	v_lshlrev_b32 v1, 2, v1                   // byte offset
	global_load_dword v2, v1, s[4:5]
	v_lshlrev_b32 v3, 2, v0                   // BUG: the store offset leaves out the workgroup's id.x * 64
	s_waitcnt vmcnt(0)
	v_mul_f32 v2, 0x40400000, v2              // * 3.0
	global_store_dword v3, v2, s[6:7]
	s_endpgm
