; test_mfma_matmul.s -- C = A @ B for 16x16 f16 matrices with one v_mfma_f32_16x16x16f16.
;
; Lane l holds A[l % 16, 4*(l/16) .. +3] and B[4*(l/16) .. +3, l % 16] (B is stored
; transposed in BT so both loads are one dwordx2 per lane); the result lands in v[4:7]
; with D[4*(l/16) + r, l % 16] in v(4 + r). The header computes each lane's byte offsets,
; so the kernel needs no address arithmetic.
;
; gcnemu:
;   arch: gfx90a
;   workgroup: 64
;   buffer A: f16[16,16] = rand(seed=1) - 0.5 -> s[4:5]
;   buffer B: f16[16,16] = rand(seed=2) - 0.5
;   buffer BT: f16[16,16] = transpose(B) -> s[6:7]
;   buffer C: f32[16,16] = 0 -> s[8:9]
;   vgpr v1 = ((lane % 16) * 16 + 4 * (lane // 16)) * 2
;   vgpr v2 = ((4 * (lane // 16)) * 16 + lane % 16) * 4
;   expect C = A @ B : tol 1e-5
;   expect v4 = (A @ B)[4 * (lane // 16), lane % 16] : f32, tol 1e-5
;   expect hazards: none
;   expect vmcnt: 0
;   expect cycles: 500..2000
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_matmul:
	global_load_dwordx2 v[8:9], v1, s[4:5]       // A fragment
	global_load_dwordx2 v[10:11], v1, s[6:7]     // B fragment (from BT)
	s_waitcnt vmcnt(0)
	v_mfma_f32_16x16x16f16 v[4:7], v[8:9], v[10:11], 0
	s_nop 15                                     // 8 passes: wait before reading v[4:7]
	s_nop 2
	global_store_dword v2, v4, s[8:9]
	global_store_dword v2, v5, s[8:9] offset:64
	global_store_dword v2, v6, s[8:9] offset:128
	global_store_dword v2, v7, s[8:9] offset:192
	s_waitcnt vmcnt(0)
	s_endpgm
