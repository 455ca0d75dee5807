// A whole grid: 16 workgroups of one wave each; workgroup k scales elements 64k..64k+63.
// `gcnemu run programs/grid_scale.s` runs all 16 (header `grid:`), each with the timed engine,
// in worker processes, and checks C over the combined global memory.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   grid: 16
//   buffer A: f32[1024] = arange(1024) -> s[4:5]
//   buffer C: f32[1024] = zeros(1024) -> s[6:7]
//   expect C = arange(1024) * 3
  .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
  .text
grid_scale:
  s_lshl_b32 s9, s2, 6              // first element of this workgroup: id.x * 64
  v_add_u32 v1, s9, v0              // element index
  v_lshlrev_b32 v1, 2, v1           // byte offset
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mul_f32 v2, 0x40400000, v2      // * 3.0
  global_store_dword v1, v2, s[6:7]
  s_endpgm
