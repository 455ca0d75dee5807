; targets: gfx942 gfx950
; MFMA chains, one kernel per instruction: SrcC from the previous MFMA's result, a VALU read of
; the result, SrcA from that VALU, and an independent MFMA (the MFMA wait-state rows).
; Written by a short generator script, kept and edited as plain IR.
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @mfma_f32_16x16x32_fp8_fp8(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i64, ptr addrspace(1) %in, i32 %tid
  %a = load i64, ptr addrspace(1) %pa
  %pb = getelementptr i64, ptr addrspace(1) %in, i32 64
  %b = load i64, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  %c0 = load <4 x float>, ptr addrspace(1) %pc
  %c1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8(i64 %a, i64 %b, <4 x float> %c0, i32 0, i32 0, i32 0)
  %c2 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8(i64 %a, i64 %b, <4 x float> %c1, i32 0, i32 0, i32 0)
  %e = extractelement <4 x float> %c2, i32 1
  %ef = fadd float %e, 0.0
  %s = fmul float %ef, 3.0
  %a2 = fptosi float %s to i64
  %c3 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8(i64 %a2, i64 %b, <4 x float> %c2, i32 0, i32 0, i32 0)
  %c4 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8(i64 %a, i64 %b, <4 x float> %c0, i32 0, i32 0, i32 0)
  store <4 x float> %c3, ptr addrspace(1) %pc
  %pd = getelementptr <4 x float>, ptr addrspace(1) %pc, i32 64
  store <4 x float> %c4, ptr addrspace(1) %pd
  ret void
}
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8(i64, i64, <4 x float>, i32, i32, i32)
define amdgpu_kernel void @mfma_f32_32x32x16_bf8_fp8(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i64, ptr addrspace(1) %in, i32 %tid
  %a = load i64, ptr addrspace(1) %pa
  %pb = getelementptr i64, ptr addrspace(1) %in, i32 64
  %b = load i64, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %out, i32 %tid
  %c0 = load <16 x float>, ptr addrspace(1) %pc
  %c1 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf8.fp8(i64 %a, i64 %b, <16 x float> %c0, i32 0, i32 0, i32 0)
  %c2 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf8.fp8(i64 %a, i64 %b, <16 x float> %c1, i32 0, i32 0, i32 0)
  %e = extractelement <16 x float> %c2, i32 1
  %ef = fadd float %e, 0.0
  %s = fmul float %ef, 3.0
  %a2 = fptosi float %s to i64
  %c3 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf8.fp8(i64 %a2, i64 %b, <16 x float> %c2, i32 0, i32 0, i32 0)
  %c4 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf8.fp8(i64 %a, i64 %b, <16 x float> %c0, i32 0, i32 0, i32 0)
  store <16 x float> %c3, ptr addrspace(1) %pc
  %pd = getelementptr <16 x float>, ptr addrspace(1) %pc, i32 64
  store <16 x float> %c4, ptr addrspace(1) %pd
  ret void
}
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf8.fp8(i64, i64, <16 x float>, i32, i32, i32)
define amdgpu_kernel void @smfmac_f32_16x16x32_f16(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x half>, ptr addrspace(1) %in, i32 %tid
  %a = load <4 x half>, ptr addrspace(1) %pa
  %pb = getelementptr <8 x half>, ptr addrspace(1) %in, i32 64
  %b = load <8 x half>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  %c0 = load <4 x float>, ptr addrspace(1) %pc
  %c1 = call <4 x float> @llvm.amdgcn.smfmac.f32.16x16x32.f16(<4 x half> %a, <8 x half> %b, <4 x float> %c0, i32 %tid, i32 0, i32 0)
  %c2 = call <4 x float> @llvm.amdgcn.smfmac.f32.16x16x32.f16(<4 x half> %a, <8 x half> %b, <4 x float> %c1, i32 %tid, i32 0, i32 0)
  %e = extractelement <4 x float> %c2, i32 1
  %ef = fadd float %e, 0.0
  %s = fmul float %ef, 3.0
  %a2e = fptrunc float %s to half
  %a2 = insertelement <4 x half> %a, half %a2e, i32 0
  %c3 = call <4 x float> @llvm.amdgcn.smfmac.f32.16x16x32.f16(<4 x half> %a2, <8 x half> %b, <4 x float> %c2, i32 %tid, i32 0, i32 0)
  %c4 = call <4 x float> @llvm.amdgcn.smfmac.f32.16x16x32.f16(<4 x half> %a, <8 x half> %b, <4 x float> %c0, i32 %tid, i32 0, i32 0)
  store <4 x float> %c3, ptr addrspace(1) %pc
  %pd = getelementptr <4 x float>, ptr addrspace(1) %pc, i32 64
  store <4 x float> %c4, ptr addrspace(1) %pd
  ret void
}
declare <4 x float> @llvm.amdgcn.smfmac.f32.16x16x32.f16(<4 x half>, <8 x half>, <4 x float>, i32, i32, i32)
define amdgpu_kernel void @smfmac_f32_32x32x16_f16(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x half>, ptr addrspace(1) %in, i32 %tid
  %a = load <4 x half>, ptr addrspace(1) %pa
  %pb = getelementptr <8 x half>, ptr addrspace(1) %in, i32 64
  %b = load <8 x half>, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %out, i32 %tid
  %c0 = load <16 x float>, ptr addrspace(1) %pc
  %c1 = call <16 x float> @llvm.amdgcn.smfmac.f32.32x32x16.f16(<4 x half> %a, <8 x half> %b, <16 x float> %c0, i32 %tid, i32 0, i32 0)
  %c2 = call <16 x float> @llvm.amdgcn.smfmac.f32.32x32x16.f16(<4 x half> %a, <8 x half> %b, <16 x float> %c1, i32 %tid, i32 0, i32 0)
  %e = extractelement <16 x float> %c2, i32 1
  %ef = fadd float %e, 0.0
  %s = fmul float %ef, 3.0
  %a2e = fptrunc float %s to half
  %a2 = insertelement <4 x half> %a, half %a2e, i32 0
  %c3 = call <16 x float> @llvm.amdgcn.smfmac.f32.32x32x16.f16(<4 x half> %a2, <8 x half> %b, <16 x float> %c2, i32 %tid, i32 0, i32 0)
  %c4 = call <16 x float> @llvm.amdgcn.smfmac.f32.32x32x16.f16(<4 x half> %a, <8 x half> %b, <16 x float> %c0, i32 %tid, i32 0, i32 0)
  store <16 x float> %c3, ptr addrspace(1) %pc
  %pd = getelementptr <16 x float>, ptr addrspace(1) %pc, i32 64
  store <16 x float> %c4, ptr addrspace(1) %pd
  ret void
}
declare <16 x float> @llvm.amdgcn.smfmac.f32.32x32x16.f16(<4 x half>, <8 x half>, <16 x float>, i32, i32, i32)
