// 26_grid_race_same_output_fixed.s -- the fixed twin of 26_grid_race_same_output_wrong.s: each
// workgroup stores to its own 64 elements, so no byte is written by two workgroups.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   grid: 8
//   buffer A: f32[512] = arange(512) -> s[4:5]
//   buffer C: f32[512] = zeros(512) -> s[6:7]
//   expect C = arange(512) * 3
//   expect hazards: none
//   #   measured: 1068 cycles per workgroup; stall cycles per wave: waitcnt vmcnt 732
//   expect cycles: 960..1176
//   expect stall waitcnt vmcnt: 621..843

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
grid_race_same_output_fixed:
	s_lshl_b32 s9, s2, 6                      // first element of this workgroup: id.x * 64
	v_add_u32 v1, s9, v0                      // element index
	v_lshlrev_b32 v1, 2, v1                   // byte offset
	global_load_dword v2, v1, s[4:5]
	v_mov_b32 v3, v1                          // the store goes to the same element
	s_waitcnt vmcnt(0)
	v_mul_f32 v2, 0x40400000, v2              // * 3.0
	global_store_dword v3, v2, s[6:7]
	s_endpgm
