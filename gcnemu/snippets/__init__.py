"""Snippet tests: the header comment of an asm file (setup and expectations), its safe
expression evaluator, and the runner that checks a finished Simulation against it.

    header.py        value types, registers, the `; gcnemu:` header and its statements
    evaluator.py     the safe expression language of header values (never Python eval)
    launch.py        the header's launch evaluated into a Setup (+ per-wave patches)
    runner.py        Snippet: load a file with its header, choose the target, simulate
    expectations.py  check a finished Simulation against the expectations
"""
from .expectations import Failure, Found, check, found_hazards  # noqa: F401
from .header import Directive, Header, RegRef, parse_directive, parse_header  # noqa: F401
from .launch import SnippetBuild, build, launch_facts, setup_from_program  # noqa: F401
from .runner import Snippet, load_snippet  # noqa: F401

__all__ = [
    "Directive", "Header", "Snippet", "Failure", "Found", "RegRef", "parse_header", "setup_from_program",
    "load_snippet", "check", "found_hazards", "build", "parse_directive", "SnippetBuild", "launch_facts",
]
