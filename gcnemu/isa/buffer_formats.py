"""MTBUF (tbuffer_*) buffer formats of gfx9: the symbolic names `format:[...]` may use and the
7-bit FORMAT field they encode to.

Source: LLVM's SIDefines.h (namespace MTBUFFormat: DataFormat DFMT_INVALID..DFMT_RESERVED_15,
NumFormat NFMT_UNORM..NFMT_FLOAT, DFMT_DEFAULT = DFMT_8, NFMT_DEFAULT = NFMT_UNORM, and the
field layout DFMT_SHIFT 0 / NFMT_SHIFT 4), the names of AMDGPUAsmUtils.cpp (DfmtSymbolic,
NfmtSymbolicVI), and AMDGPUAsmParser::parseSymbolicSplitFormat (either name may be left out,
then its default is used). Checked against llvm-mc 22: its printer writes `format:N` with these
names, and `-show-encoding` gives a name list the same bits as its numeric form
(tests/test_llvm_mc_lines.py).

The gfx9 targets (gfx908, gfx90a, gfx942, gfx950) share this table; gfx10's unified formats
(`BUF_FMT_*`) do not exist on them.
"""
from __future__ import annotations

# data format (DFMT) by name: the field's low 4 bits
DATA_FORMATS: dict[str, int] = {name: i for i, name in enumerate((
    "BUF_DATA_FORMAT_INVALID", "BUF_DATA_FORMAT_8", "BUF_DATA_FORMAT_16", "BUF_DATA_FORMAT_8_8",
    "BUF_DATA_FORMAT_32", "BUF_DATA_FORMAT_16_16", "BUF_DATA_FORMAT_10_11_11", "BUF_DATA_FORMAT_11_11_10",
    "BUF_DATA_FORMAT_10_10_10_2", "BUF_DATA_FORMAT_2_10_10_10", "BUF_DATA_FORMAT_8_8_8_8",
    "BUF_DATA_FORMAT_32_32", "BUF_DATA_FORMAT_16_16_16_16", "BUF_DATA_FORMAT_32_32_32",
    "BUF_DATA_FORMAT_32_32_32_32", "BUF_DATA_FORMAT_RESERVED_15"))}

# numeric format (NFMT) by name: the field's high 3 bits
NUM_FORMATS: dict[str, int] = {name: i for i, name in enumerate((
    "BUF_NUM_FORMAT_UNORM", "BUF_NUM_FORMAT_SNORM", "BUF_NUM_FORMAT_USCALED", "BUF_NUM_FORMAT_SSCALED",
    "BUF_NUM_FORMAT_UINT", "BUF_NUM_FORMAT_SINT", "BUF_NUM_FORMAT_RESERVED_6", "BUF_NUM_FORMAT_FLOAT"))}

DFMT_DEFAULT = DATA_FORMATS["BUF_DATA_FORMAT_8"]
NFMT_DEFAULT = NUM_FORMATS["BUF_NUM_FORMAT_UNORM"]
NFMT_SHIFT = 4
UNIFIED_PREFIX = "BUF_FMT_"  # gfx10+ only


def encode(dfmt: int, nfmt: int) -> int:
    """The FORMAT field of a data and a numeric format (what `format:N` writes directly)."""
    return dfmt | (nfmt << NFMT_SHIFT)
