"""SARIF `message.text`: one readable text made of the diagnostic and its location-less notes.

A terminal shows those notes on their own `note:` lines; SARIF has one text, so the parts must
be joined as sentences, not run together ("0 of 19 wait states required 19 wait states")."""
from __future__ import annotations

import json

from gcnemu.analysis.sarif import message_text
from gcnemu.cli import main
from gcnemu.asm.diagnostics import Diagnostic
from gcnemu.asm.program import Span

MFMA_READ_EARLY = """\
v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], 0
v_accvgpr_read_b32 v4, a0
s_endpgm
"""


def sarif_messages(tmp_path, capsys, text: str, arch: str) -> list[str]:
    path = tmp_path / "k.s"
    path.write_text(text)
    main(["lint", str(path), "--arch", arch, "--format", "sarif"])
    out, _ = capsys.readouterr()
    return [r["message"]["text"] for r in json.loads(out)["runs"][0]["results"]]


def test_a_wait_state_hazard_reads_as_sentences(tmp_path, capsys):
    [text] = sarif_messages(tmp_path, capsys, MFMA_READ_EARLY, "gfx90a")
    assert "wait states required" not in text
    assert text.startswith("v_accvgpr_read_b32 reads a0 too soon after v_mfma_f32_32x32x8f16 (line 1) writes it: "
                           "0 of 19 wait states. Required 19 wait states, provided 0; fix: insert s_nop 15; "
                           "s_nop 2 before line 2. A vector instruction reads an MFMA result")


def test_every_part_is_one_sentence_of_the_text(tmp_path, capsys):
    [text] = sarif_messages(tmp_path, capsys, MFMA_READ_EARLY, "gfx90a")
    assert ". ." not in text and ".." not in text and "  " not in text and text.endswith(".")


def test_notes_join_the_message_with_a_full_stop_and_a_capital():
    span = Span("k.s", 2, 1, 2, 5)
    d = Diagnostic("warning", "reads v2 early", span, "r",
                   notes=[Diagnostic("note", "global_load_dword issued here", span),  # has a place: not in the text
                          Diagnostic("note", "required 4 wait states, provided 0", None),
                          Diagnostic("note", "s_waitcnt vmcnt(0) covers it.", None),  # a mnemonic keeps its case
                          Diagnostic("note", "63 loads outstanding", None)])
    assert message_text(d) == ("reads v2 early. Required 4 wait states, provided 0. "
                               "s_waitcnt vmcnt(0) covers it. 63 loads outstanding")


def test_a_message_without_notes_is_unchanged():
    d = Diagnostic("warning", "s_waitcnt waits for nothing here (vmcnt at most 0 on every path)", None, "hint-x")
    assert message_text(d) == d.message
    d.notes = [Diagnostic("note", "see the manual", None)]
    assert message_text(Diagnostic("warning", "a colon ends it:", None, notes=d.notes)) == "a colon ends it: see the manual"
