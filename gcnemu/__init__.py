"""gcnemu: assembly-level pipeline and s_waitcnt emulator for AMD CDNA GPUs."""
__version__ = "0.1.0"

from .parse import parse, parse_file  # noqa: E402

__all__ = ["parse", "parse_file", "__version__"]
