; targets: gfx908 gfx90a gfx942 gfx950
; v_readlane / v_writelane with a lane select a VALU just computed (valu-sgpr-lane-select),
; and a DPP move of a VALU result (dpp-vgpr-read).
define amdgpu_kernel void @lanes(ptr addrspace(1) %out, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = mul i32 %tid, 7
  %l = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %a)
  %lane = and i32 %l, 63
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %a, i32 %lane)
  %b = add i32 %a, %k
  %w = call i32 @llvm.amdgcn.writelane.i32(i32 %r, i32 %lane, i32 %b)
  %c = add i32 %w, %tid
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %c, i32 273, i32 15, i32 15, i1 false)
  %e = add i32 %d, %c
  %f = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %e, i32 57, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %f, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.writelane.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
