; targets: gfx908 gfx90a gfx942 gfx950
; s_setreg then s_getreg of the same hardware register (setreg-getreg, setreg-setreg), and
; transcendental results read at once (trans-result-valu-read on gfx942/gfx950).
define amdgpu_kernel void @setreg_trans(ptr addrspace(1) %out, i32 %m) {
entry:
  call void @llvm.amdgcn.s.setreg(i32 2049, i32 %m)
  call void @llvm.amdgcn.s.setreg(i32 2177, i32 %m)
  %g = call i32 @llvm.amdgcn.s.getreg(i32 2049)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  %x = load float, ptr addrspace(1) %p
  %e = call float @llvm.amdgcn.exp2.f32(float %x)
  %y = fadd float %e, %x
  %r = call float @llvm.amdgcn.rcp.f32(float %y)
  %s = call float @llvm.amdgcn.sqrt.f32(float %r)
  %z = fmul float %s, %r
  %gf = uitofp i32 %g to float
  %t = fadd float %z, %gf
  store float %t, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.setreg(i32 immarg, i32)
declare i32 @llvm.amdgcn.s.getreg(i32 immarg)
declare float @llvm.amdgcn.exp2.f32(float)
declare float @llvm.amdgcn.rcp.f32(float)
declare float @llvm.amdgcn.sqrt.f32(float)
