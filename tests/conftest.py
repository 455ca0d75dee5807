"""Test-session hooks: suites that measure something (the compiler oracle's precision and
recall) leave a line on the config, shown at the end of every run that collected them."""
from __future__ import annotations


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    line = getattr(config, "_oracle_summary", None)
    if line:
        terminalreporter.write_sep("-", "compiler oracle")
        terminalreporter.write_line(line)
