; targets: gfx90a gfx942 gfx950
; MFMA chains, one kernel per instruction: SrcC from the previous MFMA's result, a VALU read of
; the result, SrcA from that VALU, and an independent MFMA (the MFMA wait-state rows).
; Written by a short generator script, kept and edited as plain IR.
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @mfma_f64_4x4x4f64(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr double, ptr addrspace(1) %in, i32 %tid
  %a = load double, ptr addrspace(1) %pa
  %pb = getelementptr double, ptr addrspace(1) %in, i32 64
  %b = load double, ptr addrspace(1) %pb
  %pc = getelementptr double, ptr addrspace(1) %out, i32 %tid
  %c0 = load double, ptr addrspace(1) %pc
  %c1 = call double @llvm.amdgcn.mfma.f64.4x4x4f64(double %a, double %b, double %c0, i32 0, i32 0, i32 0)
  %c2 = call double @llvm.amdgcn.mfma.f64.4x4x4f64(double %a, double %b, double %c1, i32 0, i32 0, i32 0)
  %e = fadd double %c2, 0.0
  %ef = fptrunc double %e to float
  %s = fmul float %ef, 3.0
  %a2 = fpext float %s to double
  %c3 = call double @llvm.amdgcn.mfma.f64.4x4x4f64(double %a2, double %b, double %c2, i32 0, i32 0, i32 0)
  %c4 = call double @llvm.amdgcn.mfma.f64.4x4x4f64(double %a, double %b, double %c0, i32 0, i32 0, i32 0)
  store double %c3, ptr addrspace(1) %pc
  %pd = getelementptr double, ptr addrspace(1) %pc, i32 64
  store double %c4, ptr addrspace(1) %pd
  ret void
}
declare double @llvm.amdgcn.mfma.f64.4x4x4f64(double, double, double, i32, i32, i32)
define amdgpu_kernel void @mfma_f64_16x16x4f64(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr double, ptr addrspace(1) %in, i32 %tid
  %a = load double, ptr addrspace(1) %pa
  %pb = getelementptr double, ptr addrspace(1) %in, i32 64
  %b = load double, ptr addrspace(1) %pb
  %pc = getelementptr <4 x double>, ptr addrspace(1) %out, i32 %tid
  %c0 = load <4 x double>, ptr addrspace(1) %pc
  %c1 = call <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double %a, double %b, <4 x double> %c0, i32 0, i32 0, i32 0)
  %c2 = call <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double %a, double %b, <4 x double> %c1, i32 0, i32 0, i32 0)
  %e = extractelement <4 x double> %c2, i32 1
  %ef = fptrunc double %e to float
  %s = fmul float %ef, 3.0
  %a2 = fpext float %s to double
  %c3 = call <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double %a2, double %b, <4 x double> %c2, i32 0, i32 0, i32 0)
  %c4 = call <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double %a, double %b, <4 x double> %c0, i32 0, i32 0, i32 0)
  store <4 x double> %c3, ptr addrspace(1) %pc
  %pd = getelementptr <4 x double>, ptr addrspace(1) %pc, i32 64
  store <4 x double> %c4, ptr addrspace(1) %pd
  ret void
}
declare <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double, double, <4 x double>, i32, i32, i32)
