// 15_valu_sgpr_vmem_read_wrong.s -- WRONG ON PURPOSE: a buffer load takes its soffset from an
// SGPR that a VALU instruction (v_readfirstlane_b32) wrote in the instruction right before.
//
// SGPRs written by the vector ALU are not interlocked against vector memory instructions,
// which read their scalar operands (resource, soffset, saddr, even M0 and EXEC) early: 5 wait
// states are required (../shared/isa/hazards.md "Other hazards": "VALU writes an SGPR (incl.
// VCC) -> VMEM instruction reads that SGPR: 5", LLVM checkVMEMHazards). Hardware may use the
// old s6 (0): out = src[lane] instead of src[64 + lane]. The emulator interlocks VALU results,
// so the value comes out right here; the linter and the run-time monitor report it.
// Fixed twin: 15_valu_sgpr_vmem_read_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer src: u32[128] = 1000 + i -> rsrc s[8:11]
//   buffer out: u32[64] = 0
//   arg: out
//   sgpr s6 = 0                              # s6's old value
//   expect out = src[64:128]                 # right in this model (VALU -> SGPR interlocked)
//   expect hazard valu-sgpr-vmem-read at 32
//   #   measured: 828 cycles; stall cycles per wave: waitcnt vmcnt 500
//   expect cycles: 960..1176
//   expect stall waitcnt vmcnt: 625..847
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
valu_sgpr_vmem_read_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane
	v_mov_b32 v3, 0x100                       // the second half of src: byte 256
	v_readfirstlane_b32 s6, v3                // a uniform VGPR value -> SGPR (a VALU write)
	// BUG: the load reads s6 as soffset 0 wait states after the VALU wrote it
	buffer_load_dword v2, v1, s[8:11], s6 offen
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dword v1, v2, s[4:5]
	s_endpgm
