"""Snippet tests: the header comment of an asm file (setup and expectations), its safe
expression evaluator, and the runner that checks a finished Simulation against it."""
