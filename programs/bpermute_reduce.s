// bpermute_reduce.s -- sum of 64 integers across a wave with ds_bpermute_b32.
//
// Setup: s[0:1] = kernarg pointer to {in: uint32*, out: uint32*}; v0 = workitem id x;
//        one wave (64 work-items).
// Expect: out[lane] == sum(in[0..63]) (mod 2^32) in every lane.
// Shows: each step reads the partial sum of lane (lane + d) % 64 for d = 32, 16, ..., 1
//        (ds_bpermute takes a byte address: 4 * source lane) and adds it; lgkmcnt(0)
//        before each use of the permuted value.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer in: u32[64] = randint(0, 2**32, seed=4)
//   buffer out: u32[64] = 0
//   arg: in, out
//   expect out = sum(in)
//   expect v1 = lane
//   expect hazards: none
//   expect cycles: 1274..1558
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
bpermute_reduce:
	s_load_dwordx4 s[4:7], s[0:1], 0x0     // in, out
	v_mbcnt_lo_u32_b32 v1, -1, 0
	v_mbcnt_hi_u32_b32 v1, -1, v1          // lane id
	v_lshlrev_b32 v5, 2, v1                // my byte offset
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v5, s[4:5]
	s_waitcnt vmcnt(0)
	v_add_u32 v3, 32, v1
	v_and_b32 v3, 63, v3
	v_lshlrev_b32 v3, 2, v3
	ds_bpermute_b32 v4, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_u32 v2, v2, v4
	v_add_u32 v3, 16, v1
	v_and_b32 v3, 63, v3
	v_lshlrev_b32 v3, 2, v3
	ds_bpermute_b32 v4, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_u32 v2, v2, v4
	v_add_u32 v3, 8, v1
	v_and_b32 v3, 63, v3
	v_lshlrev_b32 v3, 2, v3
	ds_bpermute_b32 v4, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_u32 v2, v2, v4
	v_add_u32 v3, 4, v1
	v_and_b32 v3, 63, v3
	v_lshlrev_b32 v3, 2, v3
	ds_bpermute_b32 v4, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_u32 v2, v2, v4
	v_add_u32 v3, 2, v1
	v_and_b32 v3, 63, v3
	v_lshlrev_b32 v3, 2, v3
	ds_bpermute_b32 v4, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_u32 v2, v2, v4
	v_add_u32 v3, 1, v1
	v_and_b32 v3, 63, v3
	v_lshlrev_b32 v3, 2, v3
	ds_bpermute_b32 v4, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_u32 v2, v2, v4
	global_store_dword v5, v2, s[6:7]
	s_endpgm
