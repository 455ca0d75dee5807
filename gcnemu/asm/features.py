"""Target features (`xnack`, `sramecc`, ...) from `.amdgcn_target` and the command line.

A leaf module: validation and resolution both read the features, and neither may import the
other's module for it.
"""
from __future__ import annotations

from .program import Program

# features given with the target on the command line (`--arch gfx908:xnack-`); they win over the file's
TARGET_FEATURES: dict[str, bool] = {}


def target_features(program: Program) -> dict[str, bool]:
    """The `:feature+` / `:feature-` suffixes of the program's `.amdgcn_target` id:
    `"amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+"` -> {'sramecc': False, 'xnack': True}, then the
    command line's (`--arch gfx90a:xnack-`). A feature neither names is absent ("any"): the
    target's default applies."""
    d = program.directive(".amdgcn_target")
    if d is None or not d.args:
        return dict(TARGET_FEATURES)
    arg = d.args[0]
    text = (arg if isinstance(arg, str) else getattr(arg, "text", lambda: str(arg))()).strip().strip('"')
    out: dict[str, bool] = {}
    for part in text.split(":")[1:]:
        part = part.strip()
        if len(part) > 1 and part[-1] in "+-":
            out[part[:-1].lower()] = part[-1] == "+"
    out.update(TARGET_FEATURES)
    return out
