// hipcc_save_temps_gfx90a.s -- what `hipcc -O3 --offload-arch=gfx90a:xnack- -save-temps` writes
// for this HIP kernel (the device-side .s, code object v5), kept as the compiler wrote it:
//
//   __global__ void vector_add(const float* a, const float* b, float* c, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) c[i] = a[i] + b[i];
//   }
//
// Everything below this header is compiler output: `.amdhsa_kernel` block, `.AMDGPU.csdata`
// kernel info, the `.fill` of s_code_end padding, the `.amdgpu_metadata` YAML. It checks clean
// with gcnemu and assembles with `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx90a -mattr=-xnack`.
//
// gcnemu launches it from its own description: the `.amdhsa_kernel` block puts the private
// segment buffer in s[0:3], the kernarg pointer in s[4:5] and the workgroup id x in s6; the
// metadata lays out the kernarg segment (a, b, c at 0, 8, 16, n at 24) and lists the hidden
// arguments the runtime fills: hidden_block_count_x/y/z at 32, hidden_group_size_x/y/z at 44
// (the kernel reads blockDim.x there, `s_load_dword s0, s[4:5], 0x2c` masked to 16 bits), ...
// hipcc leaves the argument names out of the metadata (unless -fhip-kernel-arg-name), so `arg:`
// gives them in order; the names there are only labels.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer A: f32[128] = rand(seed=1)
//   buffer B: f32[128] = rand(seed=2)
//   buffer C: f32[128] = -1
//   grid: 2
//   arg: a=A, b=B, c=C, n=100
//   expect C[0:100] = A[0:100] + B[0:100]
//   expect C[100:128] = -1
//   expect hazards: none
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:xnack-"
	.amdhsa_code_object_version 5
	.protected	_Z10vector_addPKfS0_Pfi ; -- Begin function _Z10vector_addPKfS0_Pfi
	.globl	_Z10vector_addPKfS0_Pfi
	.p2align	8
	.type	_Z10vector_addPKfS0_Pfi,@function
_Z10vector_addPKfS0_Pfi:                ; @_Z10vector_addPKfS0_Pfi
; %bb.0:
	s_load_dword s0, s[4:5], 0x2c
	s_load_dword s1, s[4:5], 0x18
	s_waitcnt lgkmcnt(0)
	s_and_b32 s0, s0, 0xffff
	s_mul_i32 s6, s6, s0
	v_add_u32_e32 v0, s6, v0
	v_cmp_gt_i32_e32 vcc, s1, v0
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB0_2
; %bb.1:
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	s_load_dwordx2 s[6:7], s[4:5], 0x10
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v3, s1
	v_add_co_u32_e32 v2, vcc, s0, v0
	v_addc_co_u32_e32 v3, vcc, v3, v1, vcc
	v_mov_b32_e32 v5, s3
	v_add_co_u32_e32 v4, vcc, s2, v0
	v_addc_co_u32_e32 v5, vcc, v5, v1, vcc
	global_load_dword v6, v[2:3], off
	global_load_dword v7, v[4:5], off
	v_mov_b32_e32 v2, s7
	v_add_co_u32_e32 v0, vcc, s6, v0
	v_addc_co_u32_e32 v1, vcc, v2, v1, vcc
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v2, v6, v7
	global_store_dword v[0:1], v2, off
.LBB0_2:
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel _Z10vector_addPKfS0_Pfi
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 280
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	_Z10vector_addPKfS0_Pfi, .Lfunc_end0-_Z10vector_addPKfS0_Pfi
                                        ; -- End function
	.set _Z10vector_addPKfS0_Pfi.num_vgpr, 8
	.set _Z10vector_addPKfS0_Pfi.num_agpr, 0
	.set _Z10vector_addPKfS0_Pfi.numbered_sgpr, 8
	.set _Z10vector_addPKfS0_Pfi.private_seg_size, 0
	.set _Z10vector_addPKfS0_Pfi.uses_vcc, 1
	.set _Z10vector_addPKfS0_Pfi.uses_flat_scratch, 0
	.set _Z10vector_addPKfS0_Pfi.has_dyn_sized_stack, 0
	.set _Z10vector_addPKfS0_Pfi.has_recursion, 0
	.set _Z10vector_addPKfS0_Pfi.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 164
; TotalNumSgprs: 12
; NumVgprs: 8
; NumAgprs: 0
; TotalNumVgprs: 8
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 12
; NumVGPRsForWavesPerEU: 8
; AccumOffset: 8
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 1
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.p2alignl 6, 3214868480
	.fill 256, 4, 3214868480
	.type	__hip_cuid_8a1f3c2b7e5d4a90,@object ; @__hip_cuid_8a1f3c2b7e5d4a90
	.section	.bss,"aw",@nobits
	.globl	__hip_cuid_8a1f3c2b7e5d4a90
__hip_cuid_8a1f3c2b7e5d4a90:
	.byte	0                               ; 0x0
	.size	__hip_cuid_8a1f3c2b7e5d4a90, 1

	.ident	"AMD clang version 19.0.0git (https://github.com/RadeonOpenCompute/llvm-project roc-6.4.0 25133 c7fe45cf4b819c5991fe208aaa96edf142730f1d)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.addrsig_sym __hip_cuid_8a1f3c2b7e5d4a90
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .actual_access:  read_only
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  read_only
        .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .offset:         16
        .size:           8
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .value_kind:     by_value
      - .offset:         32
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         36
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         40
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         44
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         46
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         48
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         50
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         52
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         54
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         72
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         80
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         88
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         96
        .size:           2
        .value_kind:     hidden_grid_dims
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 280
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 1024
    .name:           _Z10vector_addPKfS0_Pfi
    .private_segment_fixed_size: 0
    .sgpr_count:     12
    .sgpr_spill_count: 0
    .symbol:         _Z10vector_addPKfS0_Pfi.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a:xnack-
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
