// 19_load_dst_overwrite_before_vmcnt_wrong.s -- WRONG ON PURPOSE: a VALU instruction writes
// the destination VGPR of a global load that is still in flight (write after write).
//
// A vector memory load writes its destination when the data returns, hundreds of cycles
// after it issued, and nothing stops the wave meanwhile: a VALU result written to the same
// register is overwritten when the load lands. Only s_waitcnt vmcnt makes the register safe
// to reuse (ISA guide S_WAITCNT; ../shared/isa/hazards.md "Counter hazards": "read, or
// overwritten, before an s_waitcnt brings the counter low enough"). Here the kernel loads
// in[lane] speculatively (a path not taken here would use it) and recycles v2 for 3 lane
// while the load is in flight: the load lands later, so out = in instead of 3 lane.
// Fixed twin: 19_load_dst_overwrite_before_vmcnt_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer in: u32[64] = randint(0, 1000, seed=19)
//   buffer out: u32[64] = 0xffffffff
//   arg: in, out
//   expect out = in                          # the load overwrote 3 lane: the bug made visible
//   expect hazard vmem-dst-overwrite-before-vmcnt at 33
//   #   measured: 888 cycles; stall cycles per wave: waitcnt vmcnt 496, waitcnt lgkmcnt 64
//   expect cycles: 989..1211
//   expect stall waitcnt vmcnt: 621..843
//   expect stall waitcnt lgkmcnt: 30..42
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
load_dst_overwrite_before_vmcnt_wrong:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // in, out
	v_lshlrev_b32 v1, 2, v0                   // byte offset of element lane
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]          // in[lane], speculatively
	// BUG: v2 is recycled while the load into it is in flight
	v_mul_u32_u24 v2, 3, v0                   // 3 lane
	s_waitcnt vmcnt(0)
	global_store_dword v1, v2, s[6:7]
	s_endpgm
