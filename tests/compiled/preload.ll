; gcnemu launch tests: kernel arguments preloaded into user SGPRs (gfx940+). llc-22 preloads the
; arguments marked `inreg`: .amdhsa_user_sgpr_kernarg_preload_length says how many kernarg dwords
; the command processor copies into the SGPRs after the other user SGPRs, and the kernel's first
; 256 bytes hold loads of the same dwords for firmware that cannot preload (skipped when it can).
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @scale(ptr addrspace(1) inreg noalias %out, ptr addrspace(1) inreg noalias %in, i32 inreg %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %v = load i32, ptr addrspace(1) %p
  %m = mul i32 %v, %k
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %m, ptr addrspace(1) %q
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
