"""Presentation built on the public API: MFMA layouts and the per-instruction timeline."""
