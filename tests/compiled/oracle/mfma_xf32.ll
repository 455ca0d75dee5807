; targets: gfx942
; MFMA chains, one kernel per instruction: SrcC from the previous MFMA's result, a VALU read of
; the result, SrcA from that VALU, and an independent MFMA (the MFMA wait-state rows).
; Written by a short generator script, kept and edited as plain IR.
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @mfma_f32_16x16x8_xf32(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <2 x float>, ptr addrspace(1) %in, i32 %tid
  %a = load <2 x float>, ptr addrspace(1) %pa
  %pb = getelementptr <2 x float>, ptr addrspace(1) %in, i32 64
  %b = load <2 x float>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  %c0 = load <4 x float>, ptr addrspace(1) %pc
  %c1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x8.xf32(<2 x float> %a, <2 x float> %b, <4 x float> %c0, i32 0, i32 0, i32 0)
  %c2 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x8.xf32(<2 x float> %a, <2 x float> %b, <4 x float> %c1, i32 0, i32 0, i32 0)
  %e = extractelement <4 x float> %c2, i32 1
  %ef = fadd float %e, 0.0
  %s = fmul float %ef, 3.0
  %a2e = fadd float %s, 0.5
  %a2 = insertelement <2 x float> %a, float %a2e, i32 0
  %c3 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x8.xf32(<2 x float> %a2, <2 x float> %b, <4 x float> %c2, i32 0, i32 0, i32 0)
  %c4 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x8.xf32(<2 x float> %a, <2 x float> %b, <4 x float> %c0, i32 0, i32 0, i32 0)
  store <4 x float> %c3, ptr addrspace(1) %pc
  %pd = getelementptr <4 x float>, ptr addrspace(1) %pc, i32 64
  store <4 x float> %c4, ptr addrspace(1) %pd
  ret void
}
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x8.xf32(<2 x float>, <2 x float>, <4 x float>, i32, i32, i32)
define amdgpu_kernel void @mfma_f32_32x32x4_xf32(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <2 x float>, ptr addrspace(1) %in, i32 %tid
  %a = load <2 x float>, ptr addrspace(1) %pa
  %pb = getelementptr <2 x float>, ptr addrspace(1) %in, i32 64
  %b = load <2 x float>, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %out, i32 %tid
  %c0 = load <16 x float>, ptr addrspace(1) %pc
  %c1 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x4.xf32(<2 x float> %a, <2 x float> %b, <16 x float> %c0, i32 0, i32 0, i32 0)
  %c2 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x4.xf32(<2 x float> %a, <2 x float> %b, <16 x float> %c1, i32 0, i32 0, i32 0)
  %e = extractelement <16 x float> %c2, i32 1
  %ef = fadd float %e, 0.0
  %s = fmul float %ef, 3.0
  %a2e = fadd float %s, 0.5
  %a2 = insertelement <2 x float> %a, float %a2e, i32 0
  %c3 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x4.xf32(<2 x float> %a2, <2 x float> %b, <16 x float> %c2, i32 0, i32 0, i32 0)
  %c4 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x4.xf32(<2 x float> %a, <2 x float> %b, <16 x float> %c0, i32 0, i32 0, i32 0)
  store <16 x float> %c3, ptr addrspace(1) %pc
  %pd = getelementptr <16 x float>, ptr addrspace(1) %pc, i32 64
  store <16 x float> %c4, ptr addrspace(1) %pd
  ret void
}
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x4.xf32(<2 x float>, <2 x float>, <16 x float>, i32, i32, i32)
