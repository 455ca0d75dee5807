"""SARIF 2.1.0 output for code-scanning tools (GitHub code scanning and the like).

One run; ``tool.driver.rules`` lists the rules that fired (id, short and full
description, where the fact comes from); each result has the consumer as its
location, the producer as a related location, and the fix as a SARIF ``fix``
(an empty deleted region plus inserted text for insertions).
"""
from __future__ import annotations

import re

from ..version import __version__
from ..asm.diagnostics import Diagnostic
from ..isa.hazard_rules import counter_rules_for, rules_for
from .lint import HINT_RULES

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "hint": "note", "note": "note", "remark": "note"}


def _rule_descriptors(target: str) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for r in rules_for(target):
        out.setdefault(r.id, {
            "id": r.id,
            "shortDescription": {"text": r.message.split(":")[0].strip()[:200]},
            "fullDescription": {"text": r.message},
            "help": {"text": f"{r.message} Source: {r.source}"},
            "defaultConfiguration": {"level": "warning"},
            "properties": {"producer": r.producer, "consumer": r.consumer, "category": "wait-states"},
        })
    for r in counter_rules_for(target):
        out.setdefault(r.id, {
            "id": r.id,
            "shortDescription": {"text": r.message[:200]},
            "fullDescription": {"text": f"{r.producer} -> {r.consumer}: {r.message}"},
            "help": {"text": f"{r.message}. Source: {r.source}"},
            "defaultConfiguration": {"level": "warning"},
            "properties": {"counter": r.counter, "category": "s_waitcnt"},
        })
    for rid, text in HINT_RULES.items():
        out[rid] = {"id": rid, "shortDescription": {"text": text}, "fullDescription": {"text": text},
                    "defaultConfiguration": {"level": "note"}, "properties": {"category": "performance"}}
    return out


def message_text(d: Diagnostic) -> str:
    """The diagnostic as one readable text: its message and its location-less notes (which a
    terminal shows on their own `note:` lines) as sentences, so `... 0 of 19 wait states` and
    `required 19 wait states, provided 0` do not run together."""
    parts = [d.message.strip()] + [n.message.strip() for n in d.notes if n.span is None]
    out = ""
    for part in filter(None, parts):
        if out:
            if not out.endswith((".", "!", "?", ":")):
                out += "."
            if not out.endswith(":") and re.match(r"[a-z]+\b(?![_\d])", part):
                part = part[0].upper() + part[1:]  # a new sentence; a mnemonic or register keeps its case
            out += " "
        out += part
    return out


def _region(line: int, column: int, end_line: int | None = None, end_column: int | None = None) -> dict:
    r = {"startLine": line, "startColumn": column}
    if end_line is not None:
        r["endLine"] = end_line
    if end_column is not None:
        r["endColumn"] = end_column
    return r


def _location(uri: str, region: dict, message: str | None = None, id_: int | None = None) -> dict:
    loc: dict = {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}
    if id_ is not None:
        loc["id"] = id_
    if message:
        loc["message"] = {"text": message}
    return loc


def to_sarif(diags_by_target: list[tuple[str, Diagnostic]]) -> dict:
    """A SARIF log for (target, diagnostic) pairs of one lint invocation."""
    rules: dict[str, dict] = {}
    for target in dict.fromkeys(t for t, _ in diags_by_target):
        for rid, desc in _rule_descriptors(target).items():
            rules.setdefault(rid, desc)
    used = [rid for rid in rules if any(d.rule == rid for _, d in diags_by_target)]
    order = {rid: i for i, rid in enumerate(used)}
    results = []
    artifacts: dict[str, int] = {}
    for target, d in diags_by_target:
        uri = d.span.file if d.span else "<unknown>"
        artifacts.setdefault(uri, len(artifacts))
        text = message_text(d)
        res: dict = {
            "ruleId": d.rule or "error",
            "level": LEVELS.get(d.severity, "warning"),
            "message": {"text": text},
            "properties": {"target": target},
        }
        if d.rule in order:
            res["ruleIndex"] = order[d.rule]
        if d.span:
            res["locations"] = [_location(uri, _region(d.span.line, d.span.column, d.span.end_line,
                                                       d.span.end_column))]
        related = [n for n in d.notes if n.span is not None]
        if related:
            res["relatedLocations"] = [
                _location(n.span.file, _region(n.span.line, n.span.column, n.span.end_line, n.span.end_column),
                          n.message, k + 1) for k, n in enumerate(related)]
        extra = d.extra or {}
        for key in ("required_wait_states", "provided_wait_states"):
            if extra.get(key) is not None:
                res["properties"][key] = extra[key]
        fx = extra.get("fix")
        if fx:
            if fx["action"] == "insert-before":
                region = _region(fx["line"], fx["column"], fx["line"], fx["column"])
                inserted = fx["text"] + "\n"
                desc = f"insert {fx['text'].replace(chr(10), '; ')}"
            else:
                region = _region(fx["line"], fx["column"], fx["line"], fx["end_column"])
                inserted = fx["text"]
                desc = f"use {fx['text']}"
            res["fixes"] = [{"description": {"text": desc}, "artifactChanges": [{
                "artifactLocation": {"uri": uri},
                "replacements": [{"deletedRegion": region, "insertedContent": {"text": inserted}}]}]}]
        results.append(res)
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "gcnemu",
                "version": __version__,
                "rules": [rules[rid] for rid in used],
            }},
            "artifacts": [{"location": {"uri": uri}} for uri in artifacts],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
