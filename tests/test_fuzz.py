"""Fuzz the whole command line: no traceback, exit 0/1/2, bounded time and memory per input.

Four input families, each a hypothesis strategy (tests/test_parse_fuzz.py already covers
`parse` + `validate` on damaged bytes; this file drives the CLI end to end):

1. programs: the kernels of `programs/` with token mutations (a line dropped, duplicated,
   swapped or truncated; a register number, an immediate, a modifier or a mnemonic replaced;
   a line of another kernel inserted), then `check`, `lint` (also `--fix`, `--format
   json|sarif`), `run`, `timeline` or `test` (also `--update`, on a copy);
2. snippet headers (the `// gcnemu:` block, docs/snippets.md): values, types, shapes,
   options and expressions replaced, statements dropped, duplicated or added, then `test`
   or `run` (sometimes `--functional`);
3. debugger command streams: `gcnemu step FILE --batch CMDS` (or `-ex`) with random
   sequences of break/continue/step/next/until/cycle/print/x/watch/back/reverse-step/
   reverse-cycle/info/counters/pipeline/... with random arguments;
4. CLI options: random subsets of every command's documented flags with random values
   (`--scheduler` is left out: it dials the network).

Every input runs `gcnemu.cli.main(argv)` in a forked child of the test process (imports
already warm, so an input costs milliseconds, not an interpreter start), in a scratch
folder holding copies of the files, with stdin, stdout and stderr on files, RLIMIT_AS at
the child's size + GCNEMU_FUZZ_MEMORY_MB and a wall-clock limit of GCNEMU_FUZZ_TIMEOUT
seconds (the child's process group is killed past it). An input fails when

- the output holds a Python traceback, or the child dies of an uncaught exception, or a
  command's catch-all reports an "internal error" (`test`, `check`, the debugger have one),
- the exit status is not 0, 1 or 2 (argparse's usage errors are 2),
- it runs longer than the time limit, or runs out of its memory (MemoryError, a kill, or a
  peak RSS above the limit).

A failure is raised as an AssertionError subclass named after its signature (the kind,
and for a traceback the exception type and innermost gcnemu function), so hypothesis tells
distinct defects apart and shrinks one example of each; the message has the command and a
compact description of the input (the base program and its edits).

Budgets:

- CI (the default): profile ``gcnemu-ci``, 25 examples per test, derandomize=True (the same
  inputs on every run), no example database, deadline=None. The whole file takes under a
  minute on 2 cores (`python -m pytest tests/test_fuzz.py -q`; ~45 s on a loaded machine).
- Long: ``GCNEMU_FUZZ_EXAMPLES=2000 python -m pytest tests/test_fuzz.py -q -p no:cacheprovider``
  uses profile ``gcnemu-long``: that many random examples per test (GCNEMU_FUZZ_SEED=N
  repeats a run). It surveys instead of stopping at the first defect (hypothesis stops
  looking 10 s after its first failure): every example runs, and each test then fails with
  the list of distinct signatures, their counts and the shortest input of each;
  GCNEMU_FUZZ_LOG=FILE also appends every failure, with its files, as a JSON line. About
  0.2 s an example: 2000 per test is ~25 min for the four (two `-k` halves in parallel on 2
  cores halve that).
- GCNEMU_FUZZ_TIMEOUT (default 20 s) and GCNEMU_FUZZ_MEMORY_MB (default 1536) set the
  per-input bounds in both profiles.

Defects the fuzzer found that are not fixed yet (and that issue 18 does not list) are strict
xfails at the end of the file (FOUND), each with its reproduction; KNOWN tells their failures
apart so that the CI run passes over them while the xfail keeps them visible.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import resource
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/status").exists(),
                                reason="the harness forks and reads /proc (Linux)")

TIMEOUT = float(os.environ.get("GCNEMU_FUZZ_TIMEOUT", "20"))
MEMORY_MB = int(os.environ.get("GCNEMU_FUZZ_MEMORY_MB", "1536"))
LONG_EXAMPLES = int(os.environ.get("GCNEMU_FUZZ_EXAMPLES", "0") or 0)

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
           HealthCheck.large_base_example]
settings.register_profile("gcnemu-ci", max_examples=25, deadline=None, derandomize=True, database=None,
                          suppress_health_check=_HEALTH, print_blob=False)
settings.register_profile("gcnemu-long", max_examples=max(LONG_EXAMPLES, 1), deadline=None,
                          suppress_health_check=_HEALTH, print_blob=False, database=None)
PROFILE = settings.get_profile("gcnemu-long" if LONG_EXAMPLES else "gcnemu-ci")


SURVEY: dict = {}   # long runs: signature -> (count, size, the shortest reproduction seen)


def fuzz(test):
    """The profile's settings (not the global profile: other test files keep theirs).

    A long run surveys: every example runs (a failure is recorded, not raised, so the first
    defect does not end the run), then the test fails listing each distinct signature with
    its count and the shortest input that showed it.
    """
    wrapped = settings(PROFILE)(test)
    if not LONG_EXAMPLES:
        return wrapped
    if os.environ.get("GCNEMU_FUZZ_SEED"):
        wrapped = seed(int(os.environ["GCNEMU_FUZZ_SEED"]))(wrapped)

    def survey():
        SURVEY.clear()
        wrapped()
        if SURVEY:
            pytest.fail(f"{len(SURVEY)} distinct failure(s) in {LONG_EXAMPLES} examples:\n\n" + "\n\n".join(
                f"[{n}x] {text}" for n, _, text in sorted(SURVEY.values(), key=lambda v: -v[0])), pytrace=False)

    survey.__name__, survey.__qualname__, survey.__doc__ = test.__name__, test.__qualname__, test.__doc__
    return survey


# --------------------------------------------------------------------------------------------
# Running one input: gcnemu.cli.main in a forked child with bounds
# --------------------------------------------------------------------------------------------

@dataclass
class Outcome:
    argv: list
    rc: int | None           # exit status (None: killed)
    out: str
    err: str
    seconds: float
    maxrss_mb: float
    timed_out: bool = False
    signal: int | None = None
    files: dict | None = None
    stdin: bytes = b""


_UNCAUGHT = 101     # the child's status when main() raised (the traceback is on its stderr)
_NONINT = 102       # main() returned something other than an int
_WARM = False


def _warm_up() -> None:
    """Import everything the commands import lazily, once, so children start warm."""
    global _WARM
    if _WARM:
        return
    _WARM = True
    from gcnemu import cli
    src = ROOT / "programs" / "debug_demo.s"
    with tempfile.TemporaryDirectory() as d:
        cmds = Path(d) / "c.txt"
        cmds.write_text("break 26\ncontinue\ncounters\nback\ninfo waves\n")
        sink = io.StringIO()
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            for argv in (["check", str(src)], ["lint", str(src)], ["run", str(src)], ["test", str(src)],
                         ["timeline", str(src)], ["step", str(src), "--batch", str(cmds)],
                         ["run", str(src), "--functional"], ["layout", "v_mfma_f32_32x32x8f16"]):
                try:
                    cli.main(argv)
                except BaseException:  # noqa: BLE001 - a broken command shows up in the fuzz itself
                    pass


def _vm_kb() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1])
    return 0


def _child(argv: list, workdir: str, paths: tuple) -> None:
    """In the forked child: bounds, redirections, main(); never returns."""
    code = _UNCAUGHT
    try:
        os.setpgid(0, 0)
        os.chdir(workdir)
        fin = os.open(paths[0], os.O_RDONLY)
        fout = os.open(paths[1], os.O_WRONLY | os.O_TRUNC)
        ferr = os.open(paths[2], os.O_WRONLY | os.O_TRUNC)
        os.dup2(fin, 0), os.dup2(fout, 1), os.dup2(ferr, 2)
        sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
        sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8")
        signal.signal(signal.SIGINT, signal.default_int_handler)
        limit = _vm_kb() * 1024 + MEMORY_MB * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        from gcnemu import cli
        try:
            rc = cli.main(argv)
            code = 0 if rc is None else rc if isinstance(rc, int) and not isinstance(rc, bool) else _NONINT
            if code == _NONINT:
                print(f"fuzz: main() returned {rc!r}", file=sys.stderr)
        except SystemExit as e:
            if e.code is None:
                code = 0
            elif isinstance(e.code, int):
                code = e.code
            else:
                print(e.code, file=sys.stderr)
                code = 1
        except BaseException:  # noqa: BLE001 - exactly what the fuzz looks for
            traceback.print_exc()
            code = _UNCAUGHT
    except BaseException:  # noqa: BLE001 - the harness itself; still report
        with contextlib.suppress(BaseException):
            traceback.print_exc()
    finally:
        for s in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                s.flush()
        os._exit(code & 0xFF if 0 <= code < 256 else 103)


def run_cli(argv: list, files: dict | None = None, stdin: bytes = b"", timeout: float | None = None) -> Outcome:
    """Run `gcnemu ARGV` in a fresh scratch folder holding FILES (name -> str|bytes)."""
    _warm_up()
    timeout = TIMEOUT if timeout is None else timeout
    with tempfile.TemporaryDirectory(prefix="gcnemu-fuzz-") as d:
        for name, data in (files or {}).items():
            p = Path(d) / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data)
        io_dir = tempfile.mkdtemp(prefix="io-", dir=d)
        paths = tuple(os.path.join(io_dir, n) for n in ("stdin", "stdout", "stderr"))
        Path(paths[0]).write_bytes(stdin)
        Path(paths[1]).write_bytes(b"")
        Path(paths[2]).write_bytes(b"")
        sys.stdout.flush(), sys.stderr.flush()
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(list(argv), d, paths)
        timed_out = False
        status, usage = 0, None
        while True:
            wpid, status, usage = os.wait4(pid, os.WNOHANG)
            if wpid == pid:
                break
            if time.monotonic() - t0 > timeout:
                timed_out = True
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                _, status, usage = os.wait4(pid, 0)
                break
            time.sleep(0.005)
        seconds = time.monotonic() - t0
        with contextlib.suppress(ProcessLookupError):   # grid workers the child left behind
            os.killpg(pid, signal.SIGKILL)
        out = Path(paths[1]).read_bytes().decode("utf-8", "replace")
        err = Path(paths[2]).read_bytes().decode("utf-8", "replace")
    rc = os.waitstatus_to_exitcode(status)
    sig = -rc if rc < 0 else None
    return Outcome(list(argv), None if sig else rc, out, err, seconds,
                   usage.ru_maxrss / 1024 if usage else 0.0, timed_out, sig, files, stdin)


class FuzzFailure(AssertionError):
    """Base of the per-signature failures (hypothesis tells distinct exception types apart)."""


_FAILURE_TYPES: dict = {}


def _failure_type(signature: str) -> type:
    if signature not in _FAILURE_TYPES:
        name = re.sub(r"\W+", "_", signature).strip("_")[:80] or "failure"
        _FAILURE_TYPES[signature] = type(f"Fuzz_{name}", (FuzzFailure,), {})
    return _FAILURE_TYPES[signature]


_INTERNAL = re.compile(r"internal error[^(:\n]*[(:]\s*(?:in gcnemu:\s*)?([\w.]+)")
_TB_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def signature(o: Outcome) -> str | None:
    """What went wrong, stable across inputs that hit the same defect; None when all is well."""
    text = o.out + "\n" + o.err
    if o.timed_out:
        return "timeout"
    if "Traceback (most recent call last)" in text or o.rc == _UNCAUGHT:
        tb = text[text.rfind("Traceback (most recent call last)"):]
        where = "?"
        for file, _line, func in _TB_FRAME.findall(tb):
            if "/gcnemu/" in file.replace("\\", "/"):
                where = f"{file.replace(chr(92), '/').split('/gcnemu/')[-1]}:{func}"
        last = [ln for ln in tb.strip().splitlines() if ln and not ln.startswith(" ")]
        exc = last[-1].split(":")[0].strip() if last else "?"
        if exc == "MemoryError":
            return "memory (MemoryError)"
        return f"traceback {exc} in {where}"
    m = _INTERNAL.search(text)
    if m:   # a catch-all turned an exception into a message: still a crash
        return f"internal error {m.group(1)} in {o.argv[0] if o.argv else '?'}"
    if o.signal is not None:
        return f"killed by signal {o.signal}"
    if o.maxrss_mb > MEMORY_MB + 512:
        return "memory (peak RSS)"
    if o.rc not in (0, 1, 2):
        return f"exit status {o.rc}"
    return None


_RUNTIME_ERRORS = ("gcnemu.sim.state.MemoryError_", "gcnemu.sim.context.SimError")


def _functional(o: Outcome) -> bool:
    return "--functional" in o.argv or any(
        isinstance(t, str) and re.search(r"mode:\s*functional", t) for t in (o.files or {}).values())


# Defects found by this fuzzer and not fixed yet, by what their failures look like. Each has
# a strict xfail in FOUND (at the end of the file); the CI run passes over other inputs that
# hit it, so CI stays green while the xfail keeps it visible. A long run still lists them
# ("known (...)"). Remove an entry with its xfail when the fix lands (the xfail then XPASSes).
KNOWN: dict = {}  # none open: the functional engine's runtime faults are fixed (see FIXED below)


def check(o: Outcome, what: str = "") -> None:
    """Assert the bounds; on failure raise the signature's own exception with a reproduction.

    In a long run the failure is recorded in SURVEY (and appended to GCNEMU_FUZZ_LOG, a JSON
    line with the files, when that is set) instead.
    """
    sig = signature(o)
    if sig is None:
        return
    known = next((name for name, matches in KNOWN.items() if matches(o, sig)), None)
    if known and not LONG_EXAMPLES:
        return      # a recorded defect: its strict xfail below stands for it until the fix
    if known:
        sig = f"known ({known}): {sig}"
    tail = (o.err or o.out)[-1500:]
    text = (f"{sig}\n  command: gcnemu {' '.join(map(str, o.argv))}\n  input: {what}\n"
            f"  rc={o.rc} signal={o.signal} {o.seconds:.1f}s {o.maxrss_mb:.0f} MB\n--- output tail ---\n{tail}")
    if not LONG_EXAMPLES:
        raise _failure_type(sig)(text)
    size = len(what) + len(" ".join(map(str, o.argv)))
    count, best_size, best = SURVEY.get(sig, (0, None, None))
    SURVEY[sig] = (count + 1, size, text) if best is None or size < best_size else (count + 1, best_size, best)
    if os.environ.get("GCNEMU_FUZZ_LOG"):
        files = {k: (v if isinstance(v, str) else v.decode("latin-1")) for k, v in (o.files or {}).items()
                 if k not in SIDECARS}
        with open(os.environ["GCNEMU_FUZZ_LOG"], "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"signature": sig, "argv": o.argv, "input": what, "rc": o.rc,
                                 "seconds": round(o.seconds, 2), "tail": tail, "files": files,
                                 "stdin": o.stdin.decode("latin-1")}) + "\n")


# --------------------------------------------------------------------------------------------
# Shared pools
# --------------------------------------------------------------------------------------------

def _programs() -> dict:
    files = sorted(ROOT.glob("programs/*.s")) + sorted(ROOT.glob("programs/hazard_gallery/*.s"))
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}


PROGRAMS = _programs()
# small and quick: the debugger and the option fuzz use these (the big GEMMs take ~1 s a run)
HEAVY = {"programs/gemm_lds_dma_gfx90a.s", "programs/gemm_lds_dma_gfx942.s", "programs/sgemm_vector.s",
         "programs/batched_hgemm_4x4.s", "programs/batched_hgemm_4x4_lds.s", "programs/grid_scale.s"}
SMALL = sorted(p for p in PROGRAMS if p not in HEAVY)
QUICK = ["programs/debug_demo.s", "programs/loop_sum.s", "programs/lds_dma_copy.s", "programs/vector_add.s",
         "programs/mfma_16x16x4f32.s", "programs/bpermute_reduce.s", "programs/lane_ids.s",
         "programs/hazard_gallery/05_load_result_before_vmcnt_wrong.s",
         "programs/hazard_gallery/01_mfma_result_valu_read_wrong.s"]


def _is_code(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith(("//", ";", "/*", "*", "#"))


CODE_LINES = sorted({ln for text in PROGRAMS.values() for ln in text.splitlines() if _is_code(ln)})
MNEMONICS = sorted({ln.split()[0] for ln in CODE_LINES if re.match(r"\s*[a-z_][a-z0-9_]*\s", ln + " ")
                    and not ln.strip().startswith(".") and not ln.strip().endswith(":")})

TARGETS = ["gfx908", "gfx90a", "gfx942", "gfx950"]
ARCHS = TARGETS + ["gfx940", "gfx941"]
REG_NUMBERS = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 63, 64, 101, 102, 103, 104, 105, 106, 107, 127, 128,
               255, 256, 511, 512, 1023, 65535, 2**31, 2**64]
IMMEDIATES = ["0", "1", "-1", "2", "-16", "64", "65", "0x7fffffff", "0x80000000", "0xffffffff", "0x100000000",
              "0xffffffffffffffff", "0x10000000000000000", str(2**70), "-9223372036854775808", "4095", "4096",
              "65535", "65536", "1.0", "-0.5", "0.1", "1e308", "-0.0", "1e-50", "0b101", "'a'", "(1<<63)",
              "1/0", "x", "v1", "s0", "1 +", "-", "0x", "999999999999999999999999999999"]
MODIFIERS = ["offset:0", "offset:4095", "offset:4096", "offset:-1", "offset:-4096", "offset:65535",
             "offset:65536", "offset:0x7fffffff", "glc", "slc", "nt", "sc0", "sc1", "lds", "off", "offen",
             "idxen", "clamp", "vmcnt(0)", "vmcnt(63)", "vmcnt(64)", "lgkmcnt(15)", "lgkmcnt(16)", "expcnt(7)",
             "op_sel:[1,0]", "op_sel_hi:[0,0]", "op_sel:[1,1,1]", "neg_lo:[1,1]", "neg_hi:[1,0,1]", "cbsz:4",
             "abid:15", "blgp:7", "cbsz:9", "blgp:-1", "row_shl:1", "row_shr:15", "row_ror:16",
             "quad_perm:[0,1,2,3]", "quad_perm:[4,0,0,0]", "row_mask:0xf", "bank_mask:0x0", "bound_ctrl:0",
             "offset0:255", "offset1:256", "mul:2", "div:2", "gds", "dpp8:[7,6,5,4,3,2,1,0]", "row_bcast:15",
             "wave_shr:1", "row_newbcast:1", "offset:", "vmcnt()", "lgkmcnt(0) & vmcnt(0)", "sext(v1)",
             "abs(v1)", "-v1", "|v1|", "neg(v1)"]
_MOD_RE = re.compile(r"\b(?:offset[01]?|op_sel(?:_hi)?|neg_lo|neg_hi|cbsz|abid|blgp|row_\w+|quad_perm|"
                     r"bank_mask|bound_ctrl|dpp8|wave_\w+)(?::\s*(?:\[[^\]]*\]|-?\w+))?|"
                     r"\b(?:vmcnt|lgkmcnt|expcnt)\([^)]*\)|\b(?:glc|slc|nt|sc0|sc1|lds|offen|idxen|clamp|gds)\b")
_REG_RE = re.compile(r"(?<![\w.])([vsa])\[(\d+):(\d+)\]|(?<![\w.])([vsa])(\d+)\b")
_NUM_RE = re.compile(r"(?<![\w.])-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE]-?\d+)?)(?![\w.])")


# --------------------------------------------------------------------------------------------
# (1) programs: token mutations of programs/*.s
# --------------------------------------------------------------------------------------------

class Mutant:
    """A kernel of programs/ with edits; its repr (what hypothesis prints) is the base and the edits."""

    def __init__(self, base: str, text: str, edits: list):
        self.base, self.text, self.edits = base, text, edits

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base!r}, edits={self.edits!r})"


def _code_line_indexes(lines: list) -> list:
    return [i for i, ln in enumerate(lines) if _is_code(ln)]


@st.composite
def mutants(draw, pool=None) -> Mutant:
    base = draw(st.sampled_from(pool or sorted(PROGRAMS)))
    lines = PROGRAMS[base].split("\n")
    edits = []
    for _ in range(draw(st.integers(1, 4))):
        code = _code_line_indexes(lines)
        if not code:
            break
        i = draw(st.sampled_from(code))
        op = draw(st.sampled_from(("drop", "dup", "swap", "reg", "reg", "imm", "imm", "mod", "mod",
                                   "trunc", "mnemonic", "insert")))
        old = lines[i]
        if op == "drop":
            del lines[i]
            edits.append(f"drop line {i + 1}: {old.strip()!r}")
            continue
        if op == "dup":
            lines.insert(i, old)
            edits.append(f"duplicate line {i + 1}: {old.strip()!r}")
            continue
        if op == "swap":
            j = draw(st.sampled_from(code))
            lines[i], lines[j] = lines[j], lines[i]
            edits.append(f"swap lines {i + 1} and {j + 1}")
            continue
        if op == "insert":
            new = draw(st.sampled_from(CODE_LINES))
            lines.insert(i, new)
            edits.append(f"insert before line {i + 1}: {new.strip()!r}")
            continue
        if op == "trunc":
            k = draw(st.integers(0, max(len(old) - 1, 0)))
            lines[i] = old[:k]
        elif op == "mnemonic":
            m = re.match(r"(\s*)([a-z_][a-z0-9_]*)", old)
            if not m or old.strip().startswith("."):
                continue
            lines[i] = m.group(1) + draw(st.sampled_from(MNEMONICS)) + old[m.end():]
        elif op == "reg":
            found = list(_REG_RE.finditer(old))
            if not found:
                continue
            m = draw(st.sampled_from(found))
            if m.group(1):
                lo, hi = draw(st.sampled_from(REG_NUMBERS)), draw(st.sampled_from(REG_NUMBERS))
                new = f"{m.group(1)}[{lo}:{hi}]"
            else:
                new = f"{m.group(4)}{draw(st.sampled_from(REG_NUMBERS))}"
            lines[i] = old[:m.start()] + new + old[m.end():]
        elif op == "imm":
            regs = [r.span() for r in _REG_RE.finditer(old)]
            comment = old.find("//")
            found = [m for m in _NUM_RE.finditer(old)
                     if not any(a <= m.start() < b for a, b in regs) and (comment < 0 or m.start() < comment)]
            if not found:
                continue
            m = draw(st.sampled_from(found))
            lines[i] = old[:m.start()] + draw(st.sampled_from(IMMEDIATES)) + old[m.end():]
        elif op == "mod":
            found = list(_MOD_RE.finditer(old))
            new = draw(st.sampled_from(MODIFIERS))
            if found and draw(st.booleans()):
                m = draw(st.sampled_from(found))
                lines[i] = old[:m.start()] + new + old[m.end():]
            else:
                comment = old.find("//")
                body, rest = (old, "") if comment < 0 else (old[:comment].rstrip(), "  " + old[comment:])
                lines[i] = body + " " + new + rest
        edits.append(f"line {i + 1}: {old.strip()!r} -> {lines[i].strip()!r}")
    return Mutant(base, "\n".join(lines), edits)


PROGRAM_COMMANDS = [["check"], ["check", "--format", "json"], ["lint"], ["lint", "--format", "sarif"],
                    ["lint", "--hints", "--format", "json"], ["lint", "--fix", "-o", "fixed.s"], ["run"],
                    ["run", "--format", "json"], ["run", "--functional"], ["timeline"], ["test"],
                    ["test", "--update"]]


@fuzz
@given(mutants(), st.sampled_from(PROGRAM_COMMANDS), st.sampled_from([None] + TARGETS))
def test_mutated_programs(mutant, command, arch):
    name = Path(mutant.base).name
    argv = [command[0], name, *command[1:]] + (["--arch", arch] if arch else [])
    check(run_cli(argv, {name: mutant.text}), repr(mutant))


# --------------------------------------------------------------------------------------------
# (2) snippet headers
# --------------------------------------------------------------------------------------------

def _header_block(text: str):
    """(index of the first statement line, lines of the block, the comment prefix) of the first block."""
    lines = text.split("\n")
    for i, ln in enumerate(lines):
        m = re.match(r"\s*(//|;+)\s*gcnemu:\s*$", ln)
        if m:
            j = i + 1
            while j < len(lines) and re.match(r"\s*(//|;)", lines[j]) and lines[j].strip() not in ("//", ";"):
                j += 1
            return i + 1, j, m.group(1)
    return None


WITH_HEADER = sorted(p for p in PROGRAMS if _header_block(PROGRAMS[p]) and p not in HEAVY)

FUNCTIONS = ("arange zeros ones full eye rand randn randint reshape transpose flatten concat stack tile repeat "
             "flip outer matmul dot where abs sqrt rsqrt exp exp2 log log2 sin cos tanh sigmoid floor ceil round "
             "trunc sign isnan isinf minimum maximum clip fma sum prod min max mean cumsum sort argmax argmin "
             "count_nonzero any all len shape size npy f64 f32 f16 bf16 i64 u64 i32 u32 i16 u16 i8 u8 as_u32 "
             "as_f32 as_u16 as_f16 as_bf16 as_u64 as_f64 nosuchfn").split()
NAMES = ["lane", "wave", "tid", "tid_x", "tid_y", "tid_z", "i", "pi", "inf", "nan", "True", "False", "A", "B",
         "C", "in", "out", "n", "x", "\u00e9", "\u0661", "__class__", "A.T"]
NUMBERS = ["0", "1", "-1", "2", "3", "4", "64", "255", "256", "1024", "4096", "65536", "0x1f", "0b101", "1_000",
           "1.5e-3", "0.5", "-0.0", "1e308", "1e-320", "2**31", "2**32", "2**63", "2**64", "2**70", "2**1023",
           "9**9**9", "10**400", "-2**63", "0xffffffffffffffff", "1e400", "nan", "inf"]
NPY = ['npy("w.npy")', 'npy("bad.npy")', 'npy("nope.npy")', 'npy("../w.npy")', 'npy("/etc/hostname")',
       'npy("obj.npy")', 'npy("sub")', 'npy(1)', 'npy()']


def expressions(max_leaves: int = 12):
    leaf = st.one_of(st.sampled_from(NUMBERS), st.sampled_from(NAMES), st.sampled_from(NPY))

    def grow(inner):
        binop = st.tuples(inner, st.sampled_from("+ - * / // % ** & | ^ << >> == != < <= > >= @".split()),
                          inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}")
        unary = st.tuples(st.sampled_from(["-", "~", "+", "not "]), inner).map("".join)
        call = st.tuples(st.sampled_from(FUNCTIONS), st.lists(inner, max_size=3),
                         st.sampled_from(["", "seed=1", "axis=0", "axis=-1", "axis=5", "seed=-1", "seed=2**70",
                                          "dtype=1", "bogus=1"])
                         ).map(lambda t: f"{t[0]}({', '.join(t[1] + ([t[2]] if t[2] else []))})")
        index = st.tuples(inner, st.sampled_from(["[0]", "[-1]", "[1:3]", "[::-1]", "[:, 0]", "[99999]", "[::0]",
                                                  "[0, 0, 0, 0, 0]", "[i]", "[i > 3]", "[1.5]"])).map("".join)
        array = st.lists(inner, min_size=0, max_size=4).map(lambda xs: f"[{', '.join(xs)}]")
        paren = inner.map(lambda x: f"({x})")
        return st.one_of(binop, unary, call, index, array, paren)

    return st.recursive(leaf, grow, max_leaves=max_leaves)


TYPES = ["f64", "f32", "f16", "bf16", "u64", "i64", "u32", "i32", "u16", "i16", "u8", "i8", "f8", "u128", "", "F32"]
SHAPES = ["", "[]", "[0]", "[1]", "[64]", "[256]", "[-1]", "[64,64]", "[4,4,4,4,4]", "[1,0]", "[1.5]", "[a]",
          "[2**40]", "[4194304]", "[4194305]", "[2048,2048]", "[64", "[64]]", "[(1,2)]", "[1,,2]"]
OPTIONS = ["", ": f32", ": tol 1e-3", ": tol -1", ": rtol nan", ": lanes 0..31", ": lanes 63..0", ": lanes 64",
           ": wave 1", ": wave 99", ": waves 0..3", ": waves all", ": hi", ": f16 hi", ": u64", ": bogus",
           ": f32, tol 1e-6", ": lanes 0..999999999999", ": tol", ":"]


def statement_templates():
    e = expressions(6)
    reg = st.sampled_from(["s5", "s[4:5]", "s[4:7]", "vcc", "exec", "m0", "flat_scratch", "s101", "s104", "s[0:1]",
                           "v1", "v[2:3]", "v[4:7]", "v255", "v256", "a0", "a[0:3]", "a255", "ttmp0", "scc", "x9"])
    num = st.sampled_from(NUMBERS)
    return st.one_of(
        st.tuples(st.sampled_from(["sgpr", "vgpr", "agpr"]), reg, e, st.sampled_from(OPTIONS[:6])).map(
            lambda t: f"{t[0]} {t[1]} = {t[2]}{(' ' + t[3]) if t[3] else ''}"),
        st.tuples(st.sampled_from(["A", "B", "C", "in", "out", "T", "é"]), st.sampled_from(TYPES),
                  st.sampled_from(SHAPES), st.one_of(st.just(""), e.map(lambda x: " = " + x)),
                  st.sampled_from(["", " -> s[4:5]", " -> s[100:101]", " -> rsrc s[8:11]",
                                   " -> rsrc s[8:11] stride 4", " -> v1", " -> s[4:5], s[6:7]"])).map(
            lambda t: f"buffer {t[0]}: {t[1]}{t[2]}{t[3]}{t[4]}"),
        st.tuples(reg, st.sampled_from(["=", "=="]), e, st.sampled_from(OPTIONS)).map(
            lambda t: f"expect {t[0]} {t[1]} {t[2]} {t[3]}".rstrip()),
        st.tuples(st.sampled_from(["A", "B", "C", "out", "sum(C)", "C[0:16]", "C[:, 0]", "lds[0x200]: u32[64]",
                                   "lds: f32[4]", "nosuch"]), e).map(lambda t: f"expect {t[0]} = {t[1]}"),
        st.tuples(st.sampled_from(["workgroup", "waves", "workgroup-id", "scratch", "grid", "max-cycles",
                                   "max-instructions", "kernarg", "mode", "arch", "latency", "lds", "lds[0x200]",
                                   "arg", "expect cycles", "expect mfma-utilisation", "expect stall barrier",
                                   "expect stall nosuch", "expect vmcnt", "expect instructions", "expect error",
                                   "expect hazards", "expect hazard vmem-result-before-vmcnt at",
                                   "expect no hazard", "bogus"]),
                  st.one_of(num, st.sampled_from(["16x16", "8x4x3", "65x65", "0x0", "1, 0, 0", "2**40", "4, 4",
                                                  "s[0:1]", "none", "functional", "timed", "gfx942", "gfx1100",
                                                  "vmem=300, lds=64", "vmem=-5", "nosuch=1", "u32[64] = i * 10",
                                                  "f32[4] = nan", "A, B, n=64, alpha=0.5", "n=-1", "n=2**70",
                                                  "1000..1400", "1400..1000", "<= 5", ">= nan", "0.17..0.23",
                                                  "not in any allocated buffer", "none", "12", "mfma-result-read-early",
                                                  "xdl-result-valu-reed"]), e)).map(
            lambda t: f"{t[0]}: {t[1]}" if not t[0].startswith("expect hazard") and not t[0].startswith("expect no")
            else f"{t[0]} {t[1]}"),
    )


class HeaderMutant(Mutant):
    """A kernel of programs/ whose `gcnemu:` header was edited."""


@st.composite
def header_mutants(draw) -> HeaderMutant:
    base = draw(st.sampled_from(WITH_HEADER))
    text = PROGRAMS[base]
    lines = text.split("\n")
    start, end, prefix = _header_block(text)
    stmts = [re.sub(r"^\s*(//|;+)\s?", "", ln) for ln in lines[start:end]]
    edits = []
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(("value", "value", "shape", "type", "expr", "expr", "option", "drop", "dup",
                                   "add", "add", "char")))
        k = draw(st.integers(0, max(len(stmts) - 1, 0))) if stmts else 0
        old = stmts[k] if stmts else ""
        if op == "add" or not stmts:
            new = draw(statement_templates())
            stmts.insert(k, "  " + new)
            edits.append(f"add {new!r}")
            continue
        if op == "drop":
            del stmts[k]
            edits.append(f"drop {old.strip()!r}")
            continue
        if op == "dup":
            stmts.insert(k, old)
            edits.append(f"duplicate {old.strip()!r}")
            continue
        if op == "value":
            found = list(_NUM_RE.finditer(old))
            if not found:
                continue
            m = draw(st.sampled_from(found))
            new = old[:m.start()] + draw(st.sampled_from(NUMBERS)) + old[m.end():]
        elif op == "shape":
            m = re.search(r"\b(f64|f32|f16|bf16|[ui](?:64|32|16|8))(\[[^\]]*\])?", old)
            if not m:
                continue
            new = old[:m.start()] + m.group(1) + draw(st.sampled_from(SHAPES)) + old[m.end():]
        elif op == "type":
            m = re.search(r"\b(f64|f32|f16|bf16|[ui](?:64|32|16|8))\b", old)
            if not m:
                continue
            new = old[:m.start()] + draw(st.sampled_from(TYPES)) + old[m.end():]
        elif op == "expr":
            m = re.search(r"(=+)\s*(.*?)(\s*(?::(?!\s*\d)|->|#|$).*)$", old)
            if not m or "=" not in old:
                continue
            new = old[:m.start(2)] + draw(expressions()) + m.group(3)
        elif op == "option":
            m = re.search(r"\s*:[^:=]*$", old)
            new = (old[:m.start()] if m and "expect" in old else old) + " " + draw(st.sampled_from(OPTIONS))
        else:  # char: a character inserted anywhere
            pos = draw(st.integers(0, len(old)))
            new = old[:pos] + draw(st.sampled_from(list("=:,[]()*#\"'\\") + ["\u00e9", "\u0663", "\x00", "\t",
                                                                            "\u200b", ".."])) + old[pos:]
        stmts[k] = new
        edits.append(f"{old.strip()!r} -> {new.strip()!r}")
    block = [f"{prefix}{'' if s.startswith(' ') else ' '}{s}" if s.strip() else f"{prefix}   # (empty)"
             for s in stmts]
    lines[start:end] = block
    return HeaderMutant(base, "\n".join(lines), edits)


def _sidecars() -> dict:
    import numpy as np
    good = io.BytesIO()
    np.save(good, np.arange(64, dtype=np.float32).reshape(8, 8))
    obj = io.BytesIO()
    np.save(obj, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    return {"w.npy": good.getvalue(), "bad.npy": b"\x93NUMPY\x01\x00garbage", "obj.npy": obj.getvalue(),
            "sub/x.txt": b"x"}


SIDECARS = _sidecars()
HEADER_COMMANDS = [["test"], ["test"], ["run"], ["run", "--format", "json"], ["test", "--functional"],
                   ["run", "--functional"], ["lint"], ["step", "--batch", "cmds.txt"]]


@fuzz
@given(header_mutants(), st.sampled_from(HEADER_COMMANDS))
def test_mutated_headers(mutant, command):
    name = Path(mutant.base).name
    argv = [command[0], name, *command[1:]]
    files = {name: mutant.text, "cmds.txt": "continue\ninfo waves\n", **SIDECARS}
    check(run_cli(argv, files), repr(mutant))


# --------------------------------------------------------------------------------------------
# (3) debugger command streams
# --------------------------------------------------------------------------------------------

def _labels_and_lines(text: str):
    lines = text.split("\n")
    labels = [m.group(1) for ln in lines for m in [re.match(r"\s*([.\w]+):\s*(//.*)?$", ln)] if m
              and not ln.lstrip().startswith(("//", ";"))]
    code = [i + 1 for i, ln in enumerate(lines) if _is_code(ln) and not ln.strip().startswith(".")]
    return labels, code


DBG_REGS = ["v0", "v1", "v2", "v3", "v[4:7]", "v2[3]", "v2[lane 3]", "v2[0:7]", "v2[63]", "v2[64]", "v2[7:0]",
            "v255", "v256", "s0", "s2", "s[0:1]", "s[4:7]", "s105", "s106", "a0", "a[0:15]", "a256", "exec",
            "vcc", "m0", "scc", "ttmp0", "pc", "cycle", "lds[0x100]", "lds[0:16]", "lds[-1]", "lds[0x10000]",
            "lds[0xffffffffffff]", "v[0:99999]", "x", "", "v1[", "s[1:0]"]
DBG_EXPRS = ["v5[3] == 7", "s2 > 4", "cycle > 100", "wave == 1 && m0 == 0x100", "any(v1 != 0)", "all(v1 < 64)",
             "count(v1 == 0) > 3", "f32(v2[0]) >= 1.5", "lds[0x40] == 3", "i32(s7) < 0", "(s2 + 1) * 4 == s3",
             "not (scc)", "v1", "1/0", "1 % 0", "s0 << 70", "2**64", "f64(v[0:1][0])", "line == 30", "pc",
             "(" * 600 + "1" + ")" * 600, "-" * 500 + "1", "!" * 300 + "1", "bogus(1)", "v1 +", "\u00e9",
             "cycle > 10**30", "s[0:1] * s[0:1] * s[0:1]"]
FORMATS = ["", "/x", "/u", "/d", "/i", "/f", "/f16", "/bf16", "/f64", "/t", "/q", "/"]
COUNTS = ["", "0", "1", "2", "3", "10", "100", "-1", "1000000", "99999999999999999999", "x", "1.5"]
MFMAS = ["v_mfma_f32_32x32x8f16", "v_mfma_f32_16x16x4f32", "v_mfma_f64_4x4x4f64", "v_mfma_nosuch", "v_add_f32"]


@st.composite
def debugger_command(draw, labels: list, code: list) -> str:
    line = st.one_of(st.sampled_from(code or [1]).map(str), st.sampled_from(labels or ["loop"]),
                     st.sampled_from(["0", "-1", "1", "99999", "x.inc:1", "nosuch", "1.5", ""]))
    count = st.sampled_from(COUNTS)
    kind = draw(st.sampled_from((
        "break", "break", "break if", "tbreak", "continue", "continue", "step", "step", "next", "until", "cycle",
        "print", "print", "print mfma", "x lds", "x global", "watch", "delete", "wave", "list", "counters",
        "pipeline", "hazards", "info", "back", "reverse-step", "rs", "reverse-cycle", "set", "help", "quit",
        "garbage", "s", "n", "c", "p", "b", "rc")))
    if kind in ("break", "b"):
        return f"{kind} {draw(line)}"
    if kind == "break if":
        return f"break if {draw(st.sampled_from(DBG_EXPRS))}"
    if kind in ("step", "s", "cycle", "back", "reverse-step", "rs", "reverse-cycle", "rc"):
        return f"{kind} {draw(count)}".rstrip()
    if kind == "until":
        return f"until {draw(line)}"
    if kind in ("print", "p"):
        arg = draw(st.one_of(st.sampled_from(DBG_REGS), st.sampled_from(DBG_EXPRS)))
        return f"{kind}{draw(st.sampled_from(FORMATS))} {arg}"
    if kind == "print mfma":
        return (f"print mfma {draw(st.sampled_from(['a[0:15]', 'v[0:3]', 'a[0:3]', 'a0', 'v[6:7]']))} as "
                f"{draw(st.sampled_from('ABCDE'))} of {draw(st.sampled_from(MFMAS))}")
    if kind == "x lds":
        return f"x lds {draw(st.sampled_from(['0', '0x100', 'm0', '-4', '0xfffffffc', '65536', 's0 + 4', '1']))} " \
               f"{draw(count)} {draw(st.sampled_from(FORMATS))}".rstrip()
    if kind == "x global":
        return f"x global {draw(st.sampled_from(['s[4:5]', 'A', 'A+0x40', 'B+4', 'C-4', '0', '0xdeadbeef', 'nosuch']))} " \
               f"{draw(count)} {draw(st.sampled_from(FORMATS))}".rstrip()
    if kind == "watch":
        return f"watch {draw(st.sampled_from(DBG_REGS))}"
    if kind == "delete":
        return f"delete {draw(st.sampled_from(['', '1', '2', '1 2', '99', '-1', 'x']))}".rstrip()
    if kind == "wave":
        return f"wave {draw(st.sampled_from(['0', '1', '3', '15', '16', '-1', 'x']))}"
    if kind == "list":
        return f"list {draw(st.one_of(st.just(''), line))}".rstrip()
    if kind == "info":
        return f"info {draw(st.sampled_from(['waves', 'breakpoints', 'registers', 'snapshots', 'nosuch', '']))}".rstrip()
    if kind == "counters":
        return f"counters {draw(st.sampled_from(['', '0', '1', '7', '-1', 'x']))}".rstrip()
    if kind == "set":
        return "set " + draw(st.sampled_from(["", "stop-on-hazard off", "stop-on-hazard on", "stop-on-hazard x",
                                              "listsize 3", "listsize 0", "listsize -1", "listsize 100000",
                                              "snapshot-interval 1", "snapshot-interval 0",
                                              "snapshot-interval -5", "nosuch 1"]))
    if kind == "help":
        return "help " + draw(st.sampled_from(["", "step", "print", "x", "nosuch"]))
    if kind == "garbage":
        return draw(st.sampled_from(["", "   ", "#comment", "\u00e9", "step step", "p", "x", "x lds", "watch",
                                     "until", "break", "b if", "\t", "a" * 300]))
    return kind


@st.composite
def debugger_sessions(draw):
    base = draw(st.sampled_from(QUICK))
    labels, code = _labels_and_lines(PROGRAMS[base])
    cmds = draw(st.lists(debugger_command(labels, code), min_size=1, max_size=14))
    via = draw(st.sampled_from(("batch", "batch", "batch", "ex", "stdin")))
    extra = draw(st.sampled_from([[], [], [], ["--max-instructions", "50"], ["--max-cycles", "300"],
                                  ["--arch", "gfx942"], ["--latency", "vmem=1"], ["--workgroup", "128"]]))
    return base, cmds, via, extra


@fuzz
@given(debugger_sessions())
def test_debugger_command_streams(session):
    base, cmds, via, extra = session
    name = Path(base).name
    text = "\n".join(cmds) + "\n"
    files = {name: PROGRAMS[base], "cmds.txt": text}
    if via == "batch":
        argv, stdin = ["step", name, "--batch", "cmds.txt", *extra], b""
    elif via == "stdin":
        argv, stdin = ["step", name, *extra], text.encode()
    else:   # -ex commands run first, then the (non-terminal, empty) stdin ends the session
        argv, stdin = ["step", name, *[a for c in cmds for a in ("-ex", c)], *extra], b""
    check(run_cli(argv, files, stdin=stdin), f"{base} with commands {cmds!r} via {via}")


# --------------------------------------------------------------------------------------------
# (4) CLI options
# --------------------------------------------------------------------------------------------

# Each flag's values: (plausible ones, wrong ones). An example draws a rate of wrong values
# (often 0), so most examples get past argument checking and run with unusual but valid
# settings, and the rest hit one or two wrong values rather than failing at the first of ten.
LIMITS = (["1", "10", "100", "5000", "100000", str(2**63), str(2**64)], ["0", "-1", "-100", "x", "1.5"])
WORKGROUPS = (["64", "128", "256", "1024", "16x16", "8x4x3", "1", "63", "65"],
              ["1025", "0", "-64", "65x65", "1x1x1x1", "x", "2**40", ""])
GRIDS = (["1", "2", "3", "2,1,1", "1,2", "2,2,1"], ["0", "-1", "1,0", "x", "", "1,1,1,1", str(2**64)])
BUFFERS = (["A=f32[64]:arange(64)->s[4:5]", "A=f32[64]:0", "C=u32[4]:-1", "A=u8:1", "B=f64[2,2]:eye(2)",
            "buffer A: f32[64] = rand(seed=1)", "A=f32[64]", "A=u32[4]:0->rsrc s[8:11]", "B=u32[64]:i + 100",
            "in=u32[64]:randint(0, 2**32, seed=4)", "out=u32[64]:0", "A=f32[4194304]:0"],
           ["A", "=f32[4]:0", "A=f32[2**40]:0", "A=x[4]:0", "A=f32[64]:1/0", "A=f32[64]:npy(\"nope.npy\")",
            "A=f32[4]:0->s[200:201]", "A=f32[4194305]:0"])
ARGS = (["A", "B", "C", "in", "out", "n=64", "n=5", "alpha=0.5", "n=0x100000000", "n=0", "n=-1"],
        ["x", "=", "A=B", "n=2**70", "n=nan", "n=1e400", "\u00e9=1"])
SGPRS = (["s5=7", "s[4:5]=0x100000000", "m0=0", "vcc=-1", "exec=0", "exec=1", "s[0:1]=0", "flat_scratch=1",
          "s2=3", "m0=0x10000"], ["s5=2**70", "s999=1", "s5=", "x=1", "s5=nan", "s5=1.5"])
VGPRS = (["v3=lane", "v3=lane * 4", "v5=tid", "v[2:3]=tid * 8", "v1=wave", "v3=lane * 0.5 : f32", "a0=1",
          "v0=0", "v1=0xffffffff"], ["v999=1", "v3=", "v3=1/0", "v3=2**70", "v3=nosuch"])
LATENCY_NAMES = ["issue_interval", "salu", "valu", "valu_trans", "valu_dp", "mfma_pass", "smem", "smem_dword", "vmem",
                 "vmem_store", "lds_dma", "vmem_bytes_per_cycle", "lds", "lds_bytes_per_cycle", "lds_conflict",
                 "branch", "barrier", "sleep"]
LATENCY_VALUES = ["0", "1", "2", "7", "500", "100000", "1048576"]
LATENCIES = ([f"{n}={v}" for n in LATENCY_NAMES for v in LATENCY_VALUES],
             ["vmem=-1", "smem=2**40", "valu=x", "nosuch=1", "vmem", "=5", "barrier=-3", "vmem=1048577"])
LATENCY_FILES = [b"[latency]\nvmem = 700\n", b"[latency]\nvmem = -700\n", b"[latency]\nvmem = \"x\"\n",
                 b"[latency]\nnosuch = 1\n", b"[[memory]]\nbuffer = \"A\"\nvmem = 1200\n",
                 b"[[memory]]\nbuffer = \"A\"\nvmem = -1\n", b"[[memory]]\nbase = 0\nsize = -1\nvmem = 9\n",
                 b"[[memory]]\nbuffer = \"nosuch\"\nvmem = 10\n", b"[latency\n", b"\xff\xfe\x00",
                 b"latency = 5\n", b"[latency]\nvmem = 1e400\n", b"[latency]\nvmem = 1.5\n", b"",
                 b"[[memory]]\nvmem = 10\n", b"[latency]\nvmem_bytes_per_cycle = 0\n",
                 b"[latency]\nmfma_pass = 0\nissue_interval = 1\n", b"[[memory]]\nbase = 0x100000000\nsize = 64\nlds = 5\n",
                 b"memory = 3\n", b"[[memory]]\nbuffer = 1\nvmem = 1\n"]
PRINTS = (["v1", "v1:f32", "s[4:5]:u64", "vcc", "a0", "v[0:3]", "exec:f16", "m0", "s2", "v2:f16", "a[0:15]:f32",
           "scc", "v255", "s[0:1]", "v[2:3]:f64", "v1:i8", "v1:bf16"], ["v999", "s[5:4]", "bogus", "v1:nosuch", "v1:"])
RANGES = (["1:10", ":", "10:1", ":20", "20:", "0:0", "20:40"], ["a:b", "-5:", "99999:", "20", "", "1:2:3"])
TRACES = (["out.json", "sub/out.json"], ["nodir/out.json", "/dev/null", "PROG", "sub", "/dev/full"])
RULES = (["vmem-result-before-vmcnt", "mfma-result-read-early", "lds-dma-read-before-vmcnt",
          "xdl-result-valu-read"], ["nosuch", ""])
DEFSYMS = (["x=1", "x=-1", "x=0x10", "v_c=4", "n=100"], ["x", "=1", "x=2**70", "x=abc", "x=1,y=2"])


def _mfma_names() -> list:
    data = json.loads((ROOT / "gcnemu" / "isa" / "data" / "mfma_catalog.json").read_text())
    return sorted({t["name"] for ins in data["instructions"] for t in ins["targets"].values()})


MFMA_NAMES = _mfma_names()


@st.composite
def option_sets(draw):
    """(command, argv with PROG for the program's file name, the program, the latency file's bytes)."""
    command = draw(st.sampled_from(["check", "run", "run", "run", "lint", "step", "step", "test", "timeline",
                                    "timeline", "layout"]))
    prog = draw(st.sampled_from(QUICK + ["programs/grid_scale.s"] if command == "run" else QUICK))
    bad_rate = draw(st.sampled_from([0.0, 0.0, 0.05, 0.2, 0.6]))
    opts: list = []

    def maybe(flag, values, p=0.35, repeat=False):
        good, bad = values if isinstance(values, tuple) else (values, [])
        n = draw(st.integers(1, 3) if repeat else st.just(1)) if draw(st.floats(0, 1)) < p else 0
        for _ in range(n):
            wrong = bad and draw(st.floats(0, 1)) < bad_rate
            v = draw(st.sampled_from(bad if wrong else good))
            opts.extend([flag] if v is None else [flag, v])

    maybe("--arch", (ARCHS, ["gfx1100", ""]), p=0.3)
    maybe("-I", (["inc", "."], ["/nonexistent", ""]), p=0.1)
    maybe("--defsym", DEFSYMS, p=0.1)
    if command in ("run", "step"):
        maybe("--workgroup", WORKGROUPS)
        maybe("--buffer", BUFFERS, repeat=True)
        maybe("--arg", ARGS, repeat=True)
        maybe("--sgpr", SGPRS, repeat=True)
        maybe("--vgpr", VGPRS, repeat=True)
        maybe("--latency", LATENCIES, repeat=True)
        maybe("--latency-file", (["lat.toml"], ["nosuch.toml", "sub"]), p=0.25)
        maybe("--max-cycles", LIMITS)
        maybe("--max-instructions", LIMITS)
    if command == "run":
        maybe("--print", PRINTS, repeat=True)
        maybe("--format", ["text", "json"])
        maybe("--trace", TRACES, p=0.2)
        maybe("--grid", GRIDS, p=0.25)
        maybe("--functional", [None], p=0.25)
        maybe("--jobs", (["1", "2"], ["0", "-1", "x"]), p=0.2)
    if command == "step":
        maybe("--batch", (["cmds.txt", "-"], ["nosuch.txt", "latin1.txt", "sub"]), p=0.6)
        maybe("-ex", (["continue", "step 3", "counters", "back", "quit", "reverse-cycle 5", "next",
                       "info waves"], ["bogus"]), repeat=True)
    if command in ("check", "lint", "test"):
        maybe("--format", ["text", "json"] + (["sarif"] if command == "lint" else []))
    if command == "lint":
        maybe("--fix", [None])
        maybe("-o", (["fixed.s", "sub/fixed.s"], ["PROG", "nodir/x.s", "/dev/full"]), p=0.2)
        maybe("--in-place", [None], p=0.2)
        maybe("--rule", RULES, repeat=True)
        maybe("--hints", [None])
    if command == "test":
        maybe("-k", (["*", "demo", "?", "loop*"], ["[", "nomatch", ""]))
        maybe("--update", [None])
        maybe("--functional", [None])
    if command == "timeline":
        maybe("--wave", (["0", "1", "3", "15"], ["16", "-1", "x"]))
        maybe("--range", RANGES)
        maybe("--waves", (["1", "2", "4", "16"], ["0", "17", "-1", "x"]))
        maybe("--latency", LATENCIES, repeat=True)
        maybe("--latency-file", (["lat.toml"], ["nosuch.toml"]), p=0.2)
        maybe("--trace", TRACES, p=0.2)
        maybe("--max-rows", (["1", "5", "1000000"], ["0", "-1", "x"]))
        maybe("--max-cycles", LIMITS)
        maybe("--format", ["text", "json"])
    if command == "layout":
        positional = draw(st.sampled_from(MFMA_NAMES + ["v_add_f32", "v_mfma_nosuch", "", None, None]))
        maybe("--operand", (["A", "B", "C", "D"], ["E"]))
        maybe("--cbsz", (["0", "1", "4"], ["5", "-1", "x", "99"]))
        maybe("--abid", (["0", "1", "15"], ["16", "-1"]))
        maybe("--blgp", (["0", "4", "7"], ["8", "-1"]))
        maybe("--format", ["text", "markdown", "csv", "json"])
        maybe("--list", [None], p=0.2)
        return command, ([positional] if positional is not None else []) + opts, prog, None
    wrong_file = draw(st.floats(0, 1)) < bad_rate
    files = [draw(st.sampled_from(["-", "nosuch.s", "sub", "latin1.txt", "empty.s"] if wrong_file else ["PROG"]))]
    if command in ("check", "lint", "test") and draw(st.booleans()):
        files.append("PROG2")
    lat = draw(st.sampled_from(LATENCY_FILES))
    return command, files + opts, prog, lat


@fuzz
@given(option_sets())
def test_cli_options(case):
    command, rest, prog, lat = case
    name = Path(prog).name
    rest = [{"PROG": name, "PROG2": "copy_" + name}.get(a, a) for a in rest]
    files = {name: PROGRAMS[prog], "copy_" + name: PROGRAMS[prog], "inc/empty.inc": "", "sub/x.txt": "x",
             "empty.s": "", "latin1.txt": b"step\ncontinue\n\xe9\xff\n", "lat.toml": lat or b"",
             "cmds.txt": "break 1\ncontinue\nstep 2\nback\ncounters\n"}
    stdin = PROGRAMS[prog].encode() if "-" in rest else b""
    check(run_cli([command, *rest], files, stdin=stdin), f"{prog}, latency file {lat!r}")


# --------------------------------------------------------------------------------------------
# The harness itself
# --------------------------------------------------------------------------------------------

def test_the_harness_reports_a_traceback_an_exit_status_and_a_timeout(monkeypatch):
    from gcnemu import cli
    ok = run_cli(["check", "vector_add.s"], {"vector_add.s": PROGRAMS["programs/vector_add.s"]})
    assert ok.rc == 0 and signature(ok) is None, ok
    usage = run_cli(["run", "--no-such-flag", "x.s"])
    assert usage.rc == 2 and signature(usage) is None, usage

    def boom(argv=None):
        raise ValueError("injected")

    monkeypatch.setattr(cli, "main", boom)
    tb = run_cli(["check", "x.s"])
    assert tb.rc == _UNCAUGHT and signature(tb).startswith("traceback ValueError"), tb
    monkeypatch.setattr(cli, "main", lambda argv=None: 7)
    assert signature(run_cli(["check", "x.s"])) == "exit status 7"
    monkeypatch.setattr(cli, "main", lambda argv=None: time.sleep(30))
    slow = run_cli(["check", "x.s"], timeout=0.5)
    assert slow.timed_out and signature(slow) == "timeout" and slow.seconds < 5, slow
    monkeypatch.setattr(cli, "main", lambda argv=None: len(bytearray((MEMORY_MB + 64) * 2**20)))
    assert signature(run_cli(["check", "x.s"])).startswith("memory"), "RLIMIT_AS holds"
    with pytest.raises(FuzzFailure) as e:
        check(tb, "injected")
    assert type(e.value) is _failure_type(signature(tb)) and "gcnemu check x.s" in str(e.value)


def test_the_pools_are_real():
    assert len(PROGRAMS) >= 40 and len(CODE_LINES) > 300 and len(MNEMONICS) > 80
    assert len(WITH_HEADER) >= 20 and all(p in PROGRAMS for p in QUICK)
    assert len(MFMA_NAMES) > 50


# --------------------------------------------------------------------------------------------
# Defects the fuzzer found that issue 18 does not list: strict xfails, one reproduction each
# (the defects it lists have their own regression tests, written with their fixes)
# --------------------------------------------------------------------------------------------

FOUND: dict = {}  # name -> (argv, files, the defect in one line); KNOWN names are prefixes of these

# Defects it found and that are fixed: their reproductions stay as regression tests
FIXED = {
    "functional-runtime-fault": (
        ["run", "f.s", "--functional"], {"f.s": "v_mov_b32 v1, 0\nglobal_load_dword v2, v1, s[4:5]\ns_endpgm\n"},
        "run --functional: a runtime fault (an address in no buffer) escapes as a MemoryError_ traceback"),
    "functional-runtime-fault-no-endpgm": (
        ["run", "empty.s", "--functional"], {"empty.s": ""},
        "run --functional on an empty file: running past the last instruction escapes as a SimError traceback"),
    "functional-runtime-fault-in-test": (
        ["test", "f.s", "--functional"],
        {"f.s": "// gcnemu:\n//   expect v1 = 0\nv_mov_b32 v1, 0\nglobal_store_dword v1, v1, s[4:5]\ns_endpgm\n"},
        "test --functional: the same runtime fault is reported as 'internal error in gcnemu'"),
}


@pytest.mark.parametrize("name", [pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=v[2]))
                                  for k, v in FOUND.items()])
def test_found_defects(name):
    argv, files, _reason = FOUND[name]
    o = run_cli(argv, files)
    assert signature(o) is None, (signature(o), o.err[-600:])


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_defects_stay_fixed(name):
    argv, files, _reason = FIXED[name]
    o = run_cli(argv, files)
    assert signature(o) is None, (signature(o), o.err[-600:])
    assert o.rc == 1 and "error" in o.out + o.err  # the fault is reported as an error


def test_every_known_defect_has_its_strict_xfail():
    assert all(any(f.startswith(k) for f in FOUND) for k in KNOWN), "a KNOWN entry without its reproduction"
