// vector_add.s -- C[i] = A[i] + B[i] (float32), one element per work-item.
//
// Setup: s[0:1] = kernarg pointer to {A: float*, B: float*, C: float*} (8 bytes each);
//        s2 = workgroup id x; v0 = workitem id (gfx90a packs x | y << 10 | z << 20;
//        a 1-D launch has y = z = 0). Workgroups of 256 work-items (4 waves).
// Expect: C[i] == A[i] + B[i] for i = 256 * workgroup_id + workitem_id.
// Shows: s_load of kernel arguments, lgkmcnt before using them, global loads with an
//        SGPR base + VGPR offset, vmcnt before using the loaded values.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   workgroup-id: 1
//   buffer A: f32[512] = rand(seed=1)
//   buffer B: f32[512] = rand(seed=2)
//   buffer C: f32[512] = -1
//   arg: A, B, C
//   expect C[256:512] = A[256:512] + B[256:512]
//   expect C[0:256] = -1
//   expect v1 = (256 + tid) * 4
//   expect hazards: none
//   expect cycles: 1045..1281
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
vector_add:
	s_load_dwordx4 s[4:7], s[0:1], 0x0     // A, B
	s_load_dwordx2 s[8:9], s[0:1], 0x10    // C
	v_and_b32 v1, 0x3ff, v0                // workitem id x
	s_lshl_b32 s3, s2, 8                   // first index of this workgroup
	v_add_u32 v1, s3, v1                   // global index
	v_lshlrev_b32 v1, 2, v1                // byte offset
	s_waitcnt lgkmcnt(0)                   // kernel arguments have arrived
	global_load_dword v2, v1, s[4:5]
	global_load_dword v3, v1, s[6:7]
	s_waitcnt vmcnt(0)                     // both loads have returned
	v_add_f32 v2, v2, v3
	global_store_dword v1, v2, s[8:9]
	s_endpgm
