"""Test-session hooks: suites that measure something (the compiler oracle's precision and
recall) leave a line on the config, shown at the end of every run that collected them."""
from __future__ import annotations


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    line = getattr(config, "_oracle_summary", None)
    if line:
        terminalreporter.write_sep("-", "compiler oracle")
        terminalreporter.write_line(line)


# The numba kernels (gcnemu/sim/accel.py) normally load only after a warm-up of numeric work; in
# the test session they are used from the first call whenever numba is installed, so every
# numeric test runs on them. tests/test_accel_fallback.py switches them off to run the pinned
# equivalence cases on the numpy paths, and tests/test_accel.py compares both bit for bit.
from gcnemu.sim import accel as _accel  # noqa: E402

_accel.WARMUP = 0
