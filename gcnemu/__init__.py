"""gcnemu: assembly-level pipeline and s_waitcnt emulator for AMD CDNA GPUs.

    import gcnemu
    kernel = gcnemu.resolve(gcnemu.parse_file("programs/vector_add.s"), "gfx90a")
    sim = gcnemu.Simulation(kernel, gcnemu.Setup(workgroup_size=(64, 1, 1)))
    sim.run()
    sim.wave(0).v[1].f32
"""
from .version import __version__  # noqa: E402

from .asm.parse import parse, parse_file  # noqa: E402
from .asm.program import Program  # noqa: E402
from .asm.resolve import Kernel, resolve  # noqa: E402
from .setup import BufferSpec, Setup  # noqa: E402
from .simulation import Simulation  # noqa: E402


def lint(program, target: str, **kw):
    """Static hazard lint of a parsed program (see gcnemu.analysis.lint). The launch facts
    (workgroup size, registers set by the launch) come from the file's header unless given."""
    from .analysis.lint import lint as _lint
    if kw.get("launch") is None:
        from .snippets.launch import launch_facts
        kw["launch"] = launch_facts(program)
    return _lint(program, target, **kw)


__all__ = ["parse", "parse_file", "Program", "Kernel", "resolve", "Setup", "BufferSpec", "Simulation", "lint",
           "__version__"]
