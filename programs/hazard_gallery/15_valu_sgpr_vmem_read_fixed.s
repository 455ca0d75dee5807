// 15_valu_sgpr_vmem_read_fixed.s -- the fixed twin of 15_valu_sgpr_vmem_read_wrong.s: 5 wait
// states (s_nop 4) between the VALU write of s6 and the buffer load that reads it as soffset.
// (An SALU-computed soffset, s_movk_i32 s6, 0x100, needs none.)
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer src: u32[128] = 1000 + i -> rsrc s[8:11]
//   buffer out: u32[64] = 0
//   arg: out
//   sgpr s6 = 0                              # s6's old value
//   expect out = src[64:128]
//   expect hazards: none
//   #   measured: 848 cycles; stall cycles per wave: waitcnt vmcnt 500, nop 16
//   expect cycles: 978..1198
//   expect stall waitcnt vmcnt: 625..847
//   expect stall nop: 12..20
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
valu_sgpr_vmem_read_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane
	v_mov_b32 v3, 0x100                       // the second half of src: byte 256
	v_readfirstlane_b32 s6, v3                // a uniform VGPR value -> SGPR (a VALU write)
	s_nop 4                                   // FIX: VALU SGPR write -> VMEM read: 5 wait states
	buffer_load_dword v2, v1, s[8:11], s6 offen
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dword v1, v2, s[4:5]
	s_endpgm
