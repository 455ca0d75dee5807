// loop_sum.s -- per-lane sum over n rows with an s_cbranch loop.
//
// Setup: s[0:1] = kernarg pointer to {in: uint32*, out: uint32*, n: uint32}; v0 = workitem
//        id x; one wave. `in` holds n rows of 64 uint32.
// Expect: out[lane] == sum over k < n of in[64 * k + lane] (mod 2^32); n == 0 gives 0.
// Shows: a counted loop (s_add / s_cmp_lt_u32 / s_cbranch_scc1), a zero-trip guard,
//        advancing a 64-bit SGPR base with s_add_u32 / s_addc_u32, vmcnt inside the loop.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer in: u32[5,64] = randint(0, 2**32, seed=3)
//   buffer out: u32[64] = 0
//   arg: in, out, n=5
//   expect out = sum(in, axis=0)
//   expect s9 = 5
//   expect hazards: none
//   expect cycles: 3743..4577
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
loop_sum:
	s_load_dwordx4 s[4:7], s[0:1], 0x0     // in, out
	s_load_dword s8, s[0:1], 0x10          // n
	v_and_b32 v1, 0x3ff, v0
	v_lshlrev_b32 v1, 2, v1                // lane byte offset
	v_mov_b32 v2, 0                        // accumulator
	s_mov_b32 s9, 0                        // k
	s_waitcnt lgkmcnt(0)
	s_cmp_eq_u32 s8, 0
	s_cbranch_scc1 .Ldone
.Lloop:
	global_load_dword v3, v1, s[4:5]
	s_add_u32 s4, s4, 0x100                // next row (64 * 4 bytes)
	s_addc_u32 s5, s5, 0
	s_add_u32 s9, s9, 1
	s_waitcnt vmcnt(0)
	v_add_u32 v2, v2, v3
	s_cmp_lt_u32 s9, s8
	s_cbranch_scc1 .Lloop
.Ldone:
	global_store_dword v1, v2, s[6:7]
	s_endpgm
