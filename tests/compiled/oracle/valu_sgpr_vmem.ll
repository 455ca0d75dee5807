; targets: gfx908 gfx90a gfx942 gfx950
; A VALU result made uniform (v_readfirstlane) becomes the soffset of a buffer load, and a
; v_cmpx-style EXEC write (a divergent branch) precedes a buffer access: valu-sgpr-vmem-read.
define amdgpu_kernel void @valu_sgpr_vmem(<4 x i32> %rsrc, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %x = mul i32 %tid, %n
  %u = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  %v = call float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32> %rsrc, i32 %tid, i32 %u, i32 0)
  %c = icmp ult i32 %tid, %n
  br i1 %c, label %then, label %done
then:
  %w = call float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32> %rsrc, i32 %x, i32 0, i32 0)
  %s = fadd float %v, %w
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %s, ptr addrspace(1) %p
  br label %done
done:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32>, i32, i32, i32)
