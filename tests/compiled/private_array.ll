; A private array indexed by a run-time value: llc-22 keeps it in scratch (written for gcnemu's
; tests; compiled at test time). out[tid] = tid * (tid & 15).
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %idx) {
entry:
  %a = alloca [16 x i32], align 4, addrspace(5)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr [16 x i32], ptr addrspace(5) %a, i32 0, i32 %i
  %v = mul i32 %tid, %i
  store volatile i32 %v, ptr addrspace(5) %p
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 16
  br i1 %c, label %loop, label %done
done:
  %j = and i32 %tid, 15
  %q = getelementptr [16 x i32], ptr addrspace(5) %a, i32 0, i32 %j
  %r = load volatile i32, ptr addrspace(5) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %r, ptr addrspace(1) %o
  ret void
}
