"""Build the per-rule positive/negative programs from ``cases.toml`` and the rule table.

A case gives producer and consumer text for one rule; the numbers come from
the rule table (``required_wait_states`` of the row for the producer's pass
count).  The positive program leaves exactly ``required - 1`` wait states
between producer and consumer (as ``s_nop`` filler), the negative twin
exactly ``required``; a ``no_overlap`` twin changes the consumer (or
``no_overlap_producer`` the producer) so the registers no longer meet.

MFMA placeholders: ``{mfma kind=K passes=P d=v0 a=v64 b=v80 c=d}`` expands to
an MFMA of kind K (xdl | nonxdl | dgemm4 | dgemm16) from the MFMA catalog:
``passes=*`` the pass count under test, ``passes=any`` the shortest one.
Register arguments name the first register; the width comes from the catalog.
``c=d`` (the default) reads SrcC from the destination range.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from gcnemu.isa import mfma as mfma_catalog
from gcnemu.isa.hazard_rules import TARGETS, required_wait_states, rule_by_id, rules_for

HERE = Path(__file__).resolve().parent
_PH = re.compile(r"\{mfma([^}]*)\}")


def load() -> dict:
    return tomllib.loads((HERE / "cases.toml").read_text())


def _plain(info) -> bool:
    return not (info.sparse or info.scaled or info.format_select)


def _kind(info, target: str) -> str:
    if info.is_dgemm:
        return "dgemm4" if info.m == 4 else "dgemm16"
    if target in ("gfx942", "gfx950") and info.a_type == "fp32":
        return "nonxdl"
    return "xdl"


def mfma_choices(target: str, kind: str) -> dict[int, object]:
    """Pass count -> the first plain MFMA (by name) of that kind and pass count."""
    out: dict[int, object] = {}
    for info in sorted(mfma_catalog.catalog(target), key=lambda i: i.name):
        if _plain(info) and _kind(info, target) == kind:
            out.setdefault(info.passes, info)
    return out


def _rng(base: str, n: int) -> str:
    m = re.fullmatch(r"([vas])(\d+)", base)
    f, i = m.group(1), int(m.group(2))
    return f"{f}{i}" if n == 1 else f"{f}[{i}:{i + n - 1}]"


def expand(text: str, target: str, passes: int | None) -> tuple[str, int | None]:
    """Expand MFMA placeholders; returns the text and the pass count of the first one."""
    first: list[int] = []

    def sub(m: re.Match) -> str:
        args = dict(kv.split("=") for kv in m.group(1).split())
        kind = args["kind"]
        choices = mfma_choices(target, kind)
        p = args.get("passes", "any")
        if p == "*":
            if passes is None or passes not in choices:
                # fixed-requirement rules (DGEMM rows) take the only/shortest one
                info = choices[passes] if passes in choices else choices[min(choices)]
            else:
                info = choices[passes]
        elif p == "any":
            info = choices[min(choices)]
        else:
            info = choices[int(p)]
        d = args.get("d", "v0")
        c = args.get("c", "d")
        c = d if c == "d" else c
        first.append(info.passes)
        return (f"{info.name} {_rng(d, info.cd_regs)}, {_rng(args.get('a', 'v64'), info.a_regs)}, "
                f"{_rng(args.get('b', 'v80'), info.b_regs)}, {_rng(c, info.cd_regs)}")

    out = _PH.sub(sub, text)
    return out, (first[0] if first else None)


def nops(n: int) -> list[str]:
    out = []
    while n > 0:
        k = min(n, 16)
        out.append(f"s_nop {k - 1}")
        n -= k
    return out


@dataclass
class Built:
    rule: str
    target: str
    passes: int | None
    required: int
    positive: str | None  # None when the requirement is 0 for this bucket
    negative: str
    no_overlap: str | None
    consumer_line: int
    label: str = ""
    extra: dict = field(default_factory=dict)


def _lines(x) -> list[str]:
    return list(x) if isinstance(x, list) else [x]


def _program(prod: list[str], between: list[str], filler: int, consumer: str, from_between: bool) -> tuple[str, int]:
    body = ["\t.text", "kernel:"]
    body += [f"\t{s}" for s in prod]
    if from_between:
        body += [f"\t{s}" for s in between] + [f"\t{s}" for s in nops(filler)]
    else:
        body += [f"\t{s}" for s in nops(filler)] + [f"\t{s}" for s in between]
    body.append(f"\t{consumer}")
    line = len(body)
    body.append("\ts_endpgm")
    return "\n".join(body) + "\n", line


def build(case: dict, target: str) -> list[Built]:
    rule = rule_by_id(target, case["rule"])
    buckets: list[int | None] = list(rule.producer_passes) or [None]
    out: list[Built] = []
    for passes in buckets:
        prod_t = "\n".join(_lines(case["producer"]))
        if "passes=*" in prod_t and passes is not None:
            kinds = re.findall(r"kind=(\w+)[^}]*passes=\*", prod_t)
            if kinds and passes not in mfma_choices(target, kinds[0]):
                continue  # no MFMA of this kind has that pass count on this target
        prod, p = expand(prod_t, target, passes)
        consumer, _ = expand(case["consumer"], target, passes)
        between = [expand(b, target, passes)[0] for b in case.get("between", [])]
        req = required_wait_states(rule, p if rule.depends_on_passes else None)
        from_between = case.get("count_from_between", False)
        slack = 0 if from_between else len(between)
        pos = None
        line = 0
        if req > 0:
            if req - 1 - slack < 0:
                raise ValueError(f"case {case['rule']}: 'between' longer than the requirement")
            pos, line = _program(prod.split("\n"), between, req - 1 - slack, consumer, from_between)
        neg, line2 = _program(prod.split("\n"), between, req - slack, consumer, from_between)
        no = None
        if "no_overlap" in case:
            c2, _ = expand(case["no_overlap"], target, passes)
            no, _ = _program(prod.split("\n"), between, max(req - 1 - slack, 0), c2, from_between)
        elif "no_overlap_producer" in case:
            p2, _ = expand("\n".join(_lines(case["no_overlap_producer"])), target, passes)
            no, _ = _program(p2.split("\n"), between, max(req - 1 - slack, 0), consumer, from_between)
        out.append(Built(case["rule"], target, p if rule.depends_on_passes else None, req, pos, neg, no,
                         line or line2, f"{case['rule']}@{target}" + (f"/{p}p" if rule.depends_on_passes else "")
                         + (f"~{case['variant']}" if "variant" in case else ""), {"case": case}))
    return out


def all_built() -> list[Built]:
    data = load()
    out: list[Built] = []
    for case in data["case"]:
        targets = case.get("targets") or [t for t in TARGETS if any(r.id == case["rule"] for r in rules_for(t))]
        for t in targets:
            out.extend(build(case, t))
    return out


def uncovered() -> dict[str, str]:
    return load().get("uncovered", {})


def pair_lines(b: Built) -> list[str]:
    """The producer, `between` and consumer lines of a case without any s_nop filler: the
    straight-line program whose wait states llc's hazard recognizer is asked for."""
    body = b.negative.splitlines()[2:-1]  # past "\t.text" and "kernel:", before s_endpgm
    return [s.strip() for s in body if not s.strip().startswith("s_nop")]


def with_filler(b: Built, filler: int) -> tuple[str, int]:
    """The case's program with exactly `filler` wait states of s_nop right before the consumer
    (or after the `between` instructions), and the consumer's line number."""
    lines = pair_lines(b)
    body = ["\t.text", "kernel:"] + [f"\t{s}" for s in lines[:-1]] + [f"\t{s}" for s in nops(filler)]
    body.append(f"\t{lines[-1]}")
    line = len(body)
    body.append("\ts_endpgm")
    return "\n".join(body) + "\n", line
