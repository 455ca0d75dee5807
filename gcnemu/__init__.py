"""gcnemu: assembly-level pipeline and s_waitcnt emulator for AMD CDNA GPUs."""
