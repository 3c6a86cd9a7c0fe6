"""The TAP and YAML reader fuzzed for a bounded time: logs in the kernel's
form, mutated by a seeded mutator, fed to the verdict, to tests/run's
reader and to its JUnit writer.

For every mutant: the verdict is 0, 1 or 2 with a reason exactly when 2,
and nothing raises; the JUnit file tests/run would write is well-formed
XML; the line splitter cuts the bytes, fed in random pieces, as
bytes.split does. Every mutant the verdict takes (0 or 1) is read again by
Perl's TAP::Parser, which must find no parse error, no unknown line, the
plan kept and as many not ok lines. A reader with a planted fault (it lets
a test number repeat) must be caught by the same oracle.

  tests/check.py fuzz_tap [--seconds S] [--seed N]

The seed is printed; the same seed and --iterations replay a run.
"""
import json
import random
import subprocess
import time
import types
import xml.etree.ElementTree as ET

from ..boot.lines import LineSplitter
from ..judge.judge import Judge
from ..targets.target import Target
from ..report.junit import junit_xml
from ..report.tap_out import Tap
from ..judge.tap import TAP_VERSION, TapReader
from . import argument_parser

# Logs in the kernel's form (kernel/harness.c): the seeds of the mutants.
YAML = ['  ---', '  message: "expected 1, observed 2"',
        '  context: "long mode, CPL 3, CR4.PCE 1, RCX=0x0"',
        '  expected: "#GP(0) [PRIV-1]"', '  observed: "read \\"0x5\\" \\\\ ok"',
        '  diagnostics:', '    - text: "deviation: one"',
        '    - text: "115 of 115 ECX values deviate"', '  ...']
SEEDS = [
    ["TAP version 13", "1..2", "# pmctest 0.2 (abc)", "# cpu: fake",
     "ok 1 - a.one [PRIV-1]", "ok 2 - a.two [PRIV-1 PRIV-2]",
     "# pmctest: 2 passed, 0 failed, 0 skipped"],
    ["firmware says hello", "\x1b[2J", "TAP version 13", "1..3",
     "# boot: pvh, command line \"\"", "not ok 1 - b.one [ARCH-1]"] + YAML +
    ["ok 2 - b.two [ARCH-2] # SKIP no counter", "ok 3 - b.three [HARNESS]",
     "# pmctest: 1 passed, 1 failed, 1 skipped",
     "# pmctest: exit status 1; no isa-debug-exit device, halting"],
    ["TAP version 13", "1..1", "ok 1 - c.one [X]"] + YAML +
    ["# time: c.one run=5 report=1", "# pmctest: 1 passed, 0 failed, 0 skipped"],
    ["TAP version 13", "# pmctest: bad command line: bogus", "Bail out! bad command line"],
    ["TAP version 13", "1..2", "not ok 1 - d.one [PRIV-1]", "  ---", "  message: >",
     "    a value too long for one line, folded", "    at a space", "  diagnostics:",
     "    - text: >", "        a folded item", "        in two lines",
     '    - text: "a quoted item"', "  ...", "ok 2 - d.two [PRIV-1] # SKIP a reason",
     "# that goes on in a comment line", "# pmctest: 0 passed, 1 failed, 1 skipped"],
]
# Logs the fuzzer once found the reader too lax on, kept so it stays
# strict on them: each must be refused (status 2).
FOUND = [
    # A folded line whose text starts with a tab: Perl's YAMLish reader
    # takes the tab for indentation and breaks on the next line.
    ["TAP version 13", "1..1", "not ok 1 - d.one [PRIV-1]", "  ---",
     "  message: >", "    \tfolded text", "    at a space", "  ...",
     "# pmctest: 0 passed, 1 failed, 0 skipped"],
    ["TAP version 13", "1..1", "not ok 1 - d.one [PRIV-1]", "  ---",
     "  message: >", "    \u2028folded text", "    at a space", "  ...",
     "# pmctest: 0 passed, 1 failed, 0 skipped"],
    ["TAP version 13", "1..1", "not ok 1 - d.one [PRIV-1]", "  ---",
     "  message: >", "    \x85folded text", "    at a space", "  ...",
     "# pmctest: 0 passed, 1 failed, 0 skipped"],
]
STATUS = {"# pmctest: 2 passed, 0 failed, 0 skipped": 0}
# Lines and pieces the mutator splices in.
LINES = ["TAP version 13", "1..0", "1..2", "1..99", "ok 1 - x.y [A]", "not ok 2 - x.z [A]",
         "ok 3 - x.w [] # SKIP why", "not ok 3 - x.w [A] # SKIP why",
         "ok 2 - x.y [A] # TODO later", "ok - x.y [A]", "ok 2 x.y [A]", "not ok",
         "# pmctest: 1 passed, 1 failed, 0 skipped", "Bail out!", "  ---", "  ...",
         "", "    - text: \"t\"", "  key: \"v\"", "  diagnostics:", "# comment",
         "okay 1 - no", "ok 01 - lead.zero [A]", "1..1 # SKIP none", "  message: >",
         "    folded text", "        folded item", "    - text: >", "   three"]
PIECES = ['"', "\\", "#", "[", "]", " ", "\t", "\r", "\x00", "\x7f", "\ufffe",
          "\uffff", "\ufffd", "\u0085", "\u2028", "\U0001f600", "é", " # SKIP ",
          " # TODO ", "  ", "- ", "ok ", "not ", "9", "0", "-1", "\x1b[0m"]

PERL = r'''
use TAP::Parser;
use JSON::PP;
my $logs = decode_json(do { local $/; <STDIN> });
for my $text (@$logs) {
    my $p = TAP::Parser->new({ tap => $text });
    my ($unknown, $notok) = (0, 0);
    while (my $r = $p->next) {
        $unknown++ if $r->is_unknown;
        $notok++ if $r->is_test && !$r->is_actual_ok;
    }
    my @e = $p->parse_errors;
    print encode_json([scalar(@e), $unknown, $p->is_good_plan ? 1 : 0,
                       $p->tests_run, $notok, $e[0] // ""]), "\n";
}
'''


def mutate(rng, lines):
    lines = list(lines)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        i = rng.randrange(len(lines)) if lines else 0
        op = rng.randrange(11)
        if op == 0 and lines:
            del lines[i]
        elif op == 1 and lines:
            lines.insert(i, lines[i])
        elif op == 2 and lines:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            lines.insert(i, rng.choice(LINES))
        elif op == 4 and lines:
            lines[i] = rng.choice(LINES)
        elif op == 5 and lines:
            lines = lines[:i]
        elif op in (6, 7) and lines:    # a piece into a line, or one out
            line = lines[i]
            k = rng.randrange(len(line) + 1)
            lines[i] = (line[:k] + rng.choice(PIECES) + line[k:] if op == 6
                        else line[:k] + line[k + 1:])
        elif op == 8 and lines:         # a number changed
            digits = [k for k, c in enumerate(lines[i]) if c.isdigit()]
            if digits:
                k = rng.choice(digits)
                lines[i] = lines[i][:k] + rng.choice("0123456789") + lines[i][k + 1:]
        elif op == 9 and lines:         # ok <-> not ok
            line = lines[i]
            lines[i] = line[4:] if line.startswith("not ok") else (
                "not " + line if line.startswith("ok") else line)
        elif op == 10 and lines:        # a long line
            lines[i] += rng.choice(PIECES) * rng.choice((100, 5000))
    return lines


def status_for(rng, lines):
    failed = any(line.startswith("not ok") for line in lines)
    return rng.choice((None, 0, 1, 2, 1 if failed else 0, 1 if failed else 0))


class RepeatingReader(TapReader):
    """A planted fault: a test number may repeat the one before it."""

    def _result(self, line):
        if self.results and line.startswith(("ok ", "not ok ")):
            number = line.split(" - ")[0].split()[-1]
            if number == str(len(self.results)):
                del self.results[-1]
        return super()._result(line)


def judged(lines, status, reader=TapReader):
    r = reader()
    for line in lines:
        r.feed(line)
    return r, r.finish(status)


def junit_of(lines):
    judge = Judge([], lambda line: None)
    for line in lines:
        judge.feed(line)
    run = types.SimpleNamespace(
        target=Target("fuzz", "qemu", "pvh", "fuzz lines", "fuzz"),
        available=True, judge=judge,
        outcome=None, problems=[judge.tap.finish(None).reason or "none"],
        mismatches=[], excluded=[], seconds=0.0, host_note=None,
        differences=[], why_not=None)
    return junit_xml([run], "0")


def splits_as_bytes_split(rng, data):
    s = LineSplitter(limit=1 << 30)
    got, i = [], 0
    while i < len(data):
        n = rng.randrange(1, 64)
        got += s.feed(data[i:i + n])
        i += n
    rest = s.rest()
    want = data.split(b"\n")
    if want[-1] == b"":
        want.pop()
    return got + ([rest] if rest is not None else []) == want


def tap_part(lines):
    """The lines from the version line on, without what firmware left at
    its start: the lines TAP::Parser is to read."""
    first = next(i for i, line in enumerate(lines) if line.endswith(TAP_VERSION))
    return [TAP_VERSION] + lines[first + 1:]


def perl_disagrees(accepted):
    """The accepted logs TAP::Parser finds fault with: [(log, what)]."""
    if not accepted:
        return []
    text = json.dumps(["".join(line + "\n" for line in tap_part(lines))
                       for lines, _ in accepted])
    p = subprocess.run(["perl", "-e", PERL], input=text, capture_output=True,
                       text=True, timeout=300)
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    if p.returncode or len(rows) != len(accepted):
        return [(None, f"perl failed: {p.stderr[:300]}")]
    out = []
    for (lines, verdict), (errors, unknown, good_plan, run, notok, first) in zip(accepted, rows):
        want_notok = 1 if verdict.status == 1 else 0
        if errors or unknown or not good_plan or bool(notok) != bool(want_notok):
            out.append((lines, f"verdict {verdict.status}; TAP::Parser: {errors} "
                               f"errors ({first}), {unknown} unknown, plan "
                               f"{'kept' if good_plan else 'broken'}, {notok} not ok"))
    return out


def fuzz(rng, seconds, iterations, reader=TapReader):
    """(iterations done, accepted mutants, findings)."""
    findings, accepted = [], []
    deadline = time.monotonic() + seconds
    n = 0
    while n < iterations and time.monotonic() < deadline:
        n += 1
        lines = mutate(rng, rng.choice(SEEDS))
        status = status_for(rng, lines)
        try:
            _, v = judged(lines, status, reader)
            if v.status not in (0, 1, 2) or (v.reason is None) != (v.status != 2):
                findings.append((lines, f"verdict {v!r}"))
            elif v.status != 2:
                accepted.append((lines, v))
            if reader is TapReader:
                ET.fromstring(junit_of(lines))
                data = "\n".join(lines).encode("utf-8", "surrogatepass")
                if not splits_as_bytes_split(rng, data):
                    findings.append((lines, "the splitter cut differently"))
        except Exception as e:      # noqa: BLE001 (any exception is a finding)
            findings.append((lines, f"{type(e).__name__}: {e}"))
    findings += perl_disagrees(accepted)
    return n, accepted, findings


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--iterations", type=int, default=10 ** 9)
    p.add_argument("--seed", type=int, default=random.randrange(1 << 32))
    args = p.parse_args(argv)
    print("TAP version 13")
    tap = Tap()
    print(f"# seed {args.seed}")
    start = time.monotonic()
    n, accepted, findings = fuzz(random.Random(args.seed), args.seconds,
                                 args.iterations)
    tap.check(not findings,
              f"{n} mutants in {time.monotonic() - start:.1f} s ({len(accepted)} "
              "taken as complete TAP): no exception, well-formed JUnit, the "
              "splitter right, TAP::Parser agreeing",
              [f"{what}: {lines!r}"[:600] for lines, what in findings[:5]] +
              [f"replay: tests/check.py fuzz_tap --seed {args.seed} --iterations {n}"])
    lax = [lines for lines in FOUND if judged(lines, 1)[1].status != 2]
    tap.check(not lax, f"the {len(FOUND)} logs the fuzzer once found are refused",
              [repr(lines)[:600] for lines in lax])
    _, _, caught = fuzz(random.Random(args.seed), 5.0, 2000, RepeatingReader)
    tap.check(caught, "the oracle catches a reader that lets a test number repeat",
              ["2000 mutants and no finding"])
    return tap.finish()
