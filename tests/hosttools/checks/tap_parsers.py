"""Feed pmctest's TAP logs to the ecosystem's own TAP parsers: Perl's
TAP::Parser, Python's tappy (Debian python3-tap) and node's tap-parser
(Debian node-tap-parser). Each must read every line as TAP (no unknown
line, no parse error), find the plan where TAP 13 allows it and as many
results as it promises, and attach each YAML block to its result. Each
must also read the same values in the YAML blocks as the one verdict's
reader (hosttools/verdict.py), folded ones (">") included.

usage: tests/check.py tap_parsers LOG...
       tests/check.py tap_parsers --xen-console CONSOLE_LOG...
       tests/check.py tap_parsers --xen-console-dir DIR
(a log whose name contains "bail" ends in Bail out!, which ends the run
before its plan is kept: only its lines are checked; --xen-console: Xen's
serial console, as tests/run keeps it for a xen-* target, of which the
checks read the guest's lines, Xen's "(d0) " prefix stripped and the lines
it cut joined; --xen-console-dir: those of every xen-* target that
tests/run --all --log-dir DIR kept; a console log that does not exist,
the target having been unavailable here, is a SKIP)
"""
import json
import os
import subprocess

from .. import targets
from ..boot import xen_console
from ..judge.tap import read
from ..report.tap_out import Tap

PERL = r'''
use TAP::Parser;
use JSON::PP;
my $text = do { local $/; <STDIN> };
my $p = TAP::Parser->new({ tap => $text });
my ($unknown, $yaml, $not_ok_with_yaml) = (0, 0, 0);
my ($after_not_ok, $number, %data) = (0, 0);
while (my $r = $p->next) {
    if ($r->is_unknown) { $unknown++; print "unknown line: ", $r->as_string, "\n" if $unknown <= 3; }
    $yaml++, $not_ok_with_yaml += $after_not_ok if $r->is_yaml;
    $data{$number} = $r->data if $r->is_yaml;
    $after_not_ok = $r->is_test && !$r->is_ok;
    $number = $r->number if $r->is_test;
}
print "YAML ", JSON::PP->new->canonical->encode(\%data), "\n";
print "parse error: $_\n" for $p->parse_errors;
print "RESULT version=", $p->version, " tests=", $p->tests_run, " unknown=$unknown",
      " yaml=$yaml errors=", scalar($p->parse_errors), "\n";
'''

TAPPY = r'''
import json
import sys
from tap.loader import Loader
from tap.parser import Parser
from tap.rules import Rules
text = sys.stdin.read()
unknown = [l for l in Parser().parse_text(text) if l.category == "unknown"]
for l in unknown[:3]:
    print("unknown line:", repr(l))
class Suite(list):
    addTest = list.append
suite = Suite()
loader = Loader()
loader._load_lines("log", Parser().parse_text(text), suite, Rules("log", suite))
errors = [t for t in suite if t._line.number is None and not t._line.ok]
for e in errors:
    print("rule:", e._line.description)
tests = [t for t in suite if t._line.number is not None]
with_yaml = sum(1 for t in tests if t._line.yaml_block is not None)
print("YAML", json.dumps({str(t._line.number): t._line.yaml_block for t in tests
                          if t._line.yaml_block is not None}))
print("RESULT tests=%d unknown=%d errors=%d yaml=%d" % (len(tests), len(unknown), len(errors), with_yaml))
'''


def run(cmd, text, env=None):
    r = subprocess.run(cmd, input=text, capture_output=True, text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def result_fields(out):
    line = next((l for l in out.splitlines() if l.startswith("RESULT ")), "")
    return dict(kv.split("=") for kv in line.split()[1:])


def expected_of(text):
    lines = text.splitlines()
    plan = next((int(l[3:]) for l in lines if l.startswith("1..")), 0)
    not_ok_with_yaml = sum(1 for a, b in zip(lines, lines[1:])
                           if a.startswith("not ok") and b == "  ---")
    yaml = sum(1 for l in lines if l == "  ---")
    return plan, yaml, not_ok_with_yaml


def yaml_data(out):
    """The YAML blocks a parser script printed: {test number: data}."""
    line = next((l for l in out.splitlines() if l.startswith("YAML ")), "YAML {}")
    return json.loads(line[5:])


def script_report(cmd, text, bail, bail_lines):
    """Run a parser script (PERL, TAPPY) on text: its exit status, its
    RESULT fields, the lines it printed that are neither RESULT nor YAML
    (problems; after a Bail out!, not those bail_lines start), the lines to
    show and the YAML blocks it read."""
    code, out, err = run(cmd, text)
    problems = [l for l in out.splitlines() if not l.startswith(("RESULT ", "YAML "))]
    if bail:
        problems = [p for p in problems if not p.startswith(bail_lines)]
    shown = problems + [err.strip()] * bool(err.strip()) + [result_line(out)]
    return code, result_fields(out), problems, shown, yaml_data(out)


def check_perl(text, bail):
    code, f, problems, shown, data = script_report(
        ["perl", "-e", PERL], text, bail, ("parse error: Bad plan", "parse error: No plan"))
    plan, yaml, _ = expected_of(text)
    ok = code == 0 and f.get("unknown") == "0" and not problems and \
        f.get("version") == "13" and f.get("yaml") == str(yaml) and \
        (bail or f.get("tests") == str(plan))
    return ok, shown, data


def result_line(out):
    return next((l for l in out.splitlines() if l.startswith("RESULT ")),
                out.strip().splitlines()[-1] if out.strip() else "no output")


def check_tappy(text, bail):
    code, f, problems, shown, data = script_report(
        ["/usr/bin/python3", "-c", TAPPY], text, bail, ("rule: Bailed",))
    plan, _, _ = expected_of(text)
    ok = code == 0 and f.get("unknown") == "0" and not problems and \
        (bail or f.get("tests") == str(plan))
    return ok, shown, data


def check_node(text, bail):
    env = dict(os.environ, NODE_PATH="/usr/share/nodejs")
    code, out, err = run(["tap-parser", "-j"], text, env)
    try:
        events = json.loads(out)
    except ValueError:
        return False, [f"tap-parser gave no JSON (exit {code})", err.strip()[:300]], {}
    extra = [e[1] for e in events if e[0] == "extra"]
    complete = next((e[1] for e in events if e[0] == "complete"), {})
    tap_errors = [f for f in complete.get("failures", []) if f.get("tapError")]
    asserts = [e[1] for e in events if e[0] == "assert"]
    plan, _, not_ok_with_yaml = expected_of(text)
    diag = sum(1 for a in asserts if not a["ok"] and a.get("diag"))
    ok = not extra and not tap_errors and \
        (bail or (len(asserts) == plan and diag == not_ok_with_yaml))
    return ok, [f"extra: {x!r}" for x in extra[:3]] + \
        [f"tapError: {t['tapError']}" for t in tap_errors[:3]] + \
        [f"{len(asserts)} results of {plan} planned, {diag} with diagnostics of {not_ok_with_yaml}"], \
        {str(a["id"]): a["diag"] for a in asserts if a.get("diag")}


def flat(data):
    """A parser's YAML block as the verdict's diagnostic lines, sorted:
    "key: value" per key, the text of each diagnostics item; a folded
    value's final newline left out."""
    lines = []
    for key, value in data.items():
        if key == "diagnostics" and isinstance(value, list):
            lines += [str(item.get("text", item)).rstrip("\n") if isinstance(item, dict)
                      else str(item) for item in value]
        else:
            lines.append(f"{key}: {str(value).rstrip(chr(10))}")
    return sorted(lines)


def host_reading(text):
    """The verdict's reading of the log: {test number: sorted lines}, each
    as the block writes it."""
    return {str(r.number): sorted(r.written)
            for r in read(text.splitlines()).results if r.written}


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    xen = argv[0] in ("--xen-console", "--xen-console-dir")
    if argv[0] == "--xen-console-dir":
        if len(argv) != 2:
            print(__doc__)
            return 2
        argv = targets.console_logs(argv[1])
    elif xen:
        argv = argv[1:]
    print("TAP version 13")
    tap = Tap()
    for path in argv:
        if xen and not os.path.exists(path):
            tap.skip(f"the three parsers read {os.path.basename(path)}",
                     "no Xen console log: the xen-* targets did not run here")
            continue
        with open(path) as f:
            text = f.read()
        if xen:
            lines = text.splitlines()
            guest = xen_console.guest_lines(lines)
            if not tap.check(xen_console.is_xen_console(lines) and guest,
                             f"{os.path.basename(path)} is Xen's console with "
                             "the guest's (d0) lines", lines[-3:]):
                continue
            text = "".join(line + "\n" for line in guest)
        bail = "bail" in os.path.basename(path)
        readings = {"hosttools/verdict.py": host_reading(text)}
        for name, check in (("Perl TAP::Parser", check_perl),
                            ("tappy", check_tappy),
                            ("node tap-parser", check_node)):
            ok, detail, yaml = check(text, bail)
            tap.check(ok, f"{name} reads {os.path.basename(path)}", detail)
            readings[name] = {n: flat(d) for n, d in yaml.items()}
        # Folded values (">") included: every reader finds the same text.
        first = readings["hosttools/verdict.py"]
        differ = [f"{name}, result {n}: {readings[name].get(n)} vs {first.get(n)}"
                  for name in readings for n in sorted(set(first) | set(readings[name]))
                  if readings[name].get(n) != first.get(n)]
        tap.check(not differ, "the three parsers and hosttools/verdict.py read the "
                  f"same YAML values in {os.path.basename(path)}", differ[:3])
    return tap.finish()

