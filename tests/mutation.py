#!/usr/bin/env python3
"""Mutation testing of the suite: run pmctest-sim on every CPU
profile, faithful and with every deviation that applies to it, and judge
the outcome by the mutation table (expected.tsv, described in its header).

Fails (exit 1) when a faithful run fails a test, leaves counters behind
(the harness's "# counters left by" line) or cannot run, when the
harness does not name the counters selftest.counters-left leaves on
purpose, and when a deviation
has no row or a row no deviation, a deviation makes a test fail that its
row does not expect, or a row's expected tests exist but do not catch it
on a profile the row names. A row whose expected tests exist on no profile
is a hole: printed, not failed, until the check is written.

Every run simulates a machine of --cpus CPUs (2 unless told), so that the
per-CPU part runs on an application processor and the deviations of the
per-vCPU side apply. --cpus takes a list (2,4): the first count runs every
deviation, each further one the faithful simulator and the deviations that
need more than one CPU, which must be caught there too.

usage: mutation.py --sim PATH --profiles DIR --table FILE [--cpus N[,N...]]
                   [--jobs N] [--report]
"""
import argparse
import concurrent.futures
import fnmatch
import pathlib
import subprocess
import sys

from hosttools.judge.patterns import COUNTERS_LEFT, LISTED, RESULT

# The simulator's selftest that leaves counter 0 running on CPU 0 and
# the last AP (tests/sim/sim_selftest.c), and a test run after it.
LEAVER = 'selftest.counters-left'
AFTER_LEAVER = 'smp.counters'


def sim(args, profile, *words, cpus=None):
    cmd = [args.sim, '--profile', str(profile.path), '--cpus',
           str(cpus or profile.cpus), *words]
    return subprocess.run(cmd, capture_output=True, text=True)


def read_table(path):
    rows = {}
    for number, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.startswith('#'):
            continue
        fields = line.split('\t')
        if len(fields) != 3:
            sys.exit(f'{path}:{number}: want 3 tab-separated fields')
        rows[fields[0]] = (fields[1].split(','), fields[2].split())
    return rows


def id_matches(pattern, test_id):
    """A test ID glob as the kernel's tests= reads one (kernel/glob.h): with
    an '@' it matches the whole ID, without one the ID up to its '@cpuN'."""
    if '@' in pattern:
        return fnmatch.fnmatchcase(test_id, pattern)
    return fnmatch.fnmatchcase(test_id.split('@')[0], pattern)


def matches(patterns, test_id, statements):
    return any(statements and p[1:] in statements.split() if p.startswith('@')
               else id_matches(p, test_id) for p in patterns)


class Profile:
    """One profile at one CPU count: its tests, the deviations that apply,
    the runs."""

    def __init__(self, path, cpus, every):
        self.path = path
        self.name = path.stem
        self.cpus = cpus
        self.every = every      # every deviation, or the multi-CPU ones
        self.label = f'{self.name} ({cpus} CPUs)'
        self.tests = {}         # ID -> statements
        self.deviations = []    # every deviation the simulator has
        self.applies = []       # those that apply to this profile
        self.failed = {}        # deviation ('' faithful) -> {ID: statements}
        self.broken = {}        # deviation -> why the run could not be judged
        self.left = []          # the faithful run's "# counters left" lines


def applying(args, profile, cpus=None):
    """[(deviation, applies)] from --list-deviations; the process."""
    listed = sim(args, profile, '--list-deviations', cpus=cpus)
    return [tuple(line.split('\t')[:2]) for line in
            listed.stdout.splitlines()], listed


def survey(args, profile):
    listing = sim(args, profile, 'list')
    profile.tests = {m.group(1): m.group(2) for m in
                     map(LISTED.match, listing.stdout.splitlines()) if m}
    rows, deviations = applying(args, profile)
    alone = set() if profile.every else {
        name for name, applies in applying(args, profile, 1)[0]
        if applies == 'yes'}
    for name, applies in rows:
        profile.deviations.append(name)
        if applies == 'yes' and name not in alone:
            profile.applies.append(name)
    if listing.returncode or deviations.returncode:
        profile.broken[''] = listing.stderr + deviations.stderr


def run_one(args, profile, deviation):
    words = ['--deviate', deviation] if deviation else []
    result = sim(args, profile, *words)
    failed = {m.group(3): m.group(4) for m in
              map(RESULT.match, result.stdout.splitlines())
              if m and m.group(1) == 'not ok'}
    if result.returncode not in (0, 1) or bool(failed) != (result.returncode == 1):
        profile.broken[deviation] = (f'exit status {result.returncode}: '
                                     f'{result.stderr.strip()}'
                                     f'{result.stdout.strip()[-300:]}')
    profile.failed[deviation] = failed
    if not deviation:
        profile.left = [line for line in result.stdout.splitlines()
                        if COUNTERS_LEFT.match(line)]


def prove_counters_left(args, profile):
    """The harness names what LEAVER leaves, on CPU 0 and the last AP,
    and blames no test after it; '' if so, else what went wrong."""
    result = sim(args, profile, f'tests={LEAVER},{AFTER_LEAVER}')
    if any(f'- {LEAVER} [HARNESS] # SKIP' in line
           for line in result.stdout.splitlines()):
        return ''
    named = {(m.group(1), int(m.group(2))) for m in
             map(COUNTERS_LEFT.match, result.stdout.splitlines()) if m}
    want = {(LEAVER, 0), (LEAVER, profile.cpus - 1)}
    if result.returncode == 0 and named == want:
        return ''
    return (f'the harness named {sorted(named)} for {LEAVER} and '
            f'{AFTER_LEAVER}, not {sorted(want)} (exit {result.returncode})')


def judge(profiles, table):
    """Per deviation: (status, caught-on profiles, failing IDs); problems."""
    problems, verdicts = [], {}
    known = profiles[0].deviations if profiles else []
    for p in profiles:
        for why in p.broken.values():
            problems.append(f'{p.label}: run could not be judged: {why}')
        for test_id in p.failed.get('', {}):
            problems.append(f'{p.label}: faithful simulator fails {test_id}')
        for line in p.left:
            problems.append(f'{p.label}: faithful simulator: {line[2:]}')
    for name in table:
        if name not in known:
            problems.append(f'expected.tsv: no deviation "{name}"')
    for name in known:
        if name not in table:
            problems.append(f'{name}: no row in expected.tsv')
            continue
        must, expected = table[name]
        injected = [p for p in profiles if name in p.applies]
        exists = any(matches(expected, t, s) for p in injected
                     for t, s in p.tests.items())
        caught, ids = [], set()
        for p in injected:
            failed = p.failed.get(name, {})
            for test_id, statements in failed.items():
                ids.add(test_id)
                if not matches(expected, test_id, statements):
                    problems.append(f'{name} on {p.label}: {test_id} '
                                    f'[{statements}] fails, not expected')
            if failed:
                caught.append(p.label)
            elif exists and any(fnmatch.fnmatchcase(p.name, g) for g in must):
                problems.append(f'{name} on {p.label}: not caught '
                                f'(expected: {" ".join(expected)})')
        status = 'caught' if caught else 'HOLE' if not exists else 'MISSED'
        if not injected:
            problems.append(f'{name}: applies to no profile')
        verdicts[name] = (status, caught, injected, ids, expected)
    return verdicts, problems


def summarize(ids):
    """priv.long.cpl1.pce0.valid, ... -> 'priv.long x5, ecx.types x2'."""
    groups = {}
    for test_id in sorted(ids):
        group = '.'.join(test_id.split('.')[:2])
        groups[group] = groups.get(group, 0) + 1
    return ', '.join(f'{g} x{n}' for g, n in groups.items())


def report(verdicts):
    print(f'{"deviation":<24} {"caught on":<10} tests that caught it')
    for name, (status, caught, injected, ids, expected) in verdicts.items():
        shown = (summarize(ids) if ids else
                 f'{status}: no check yet ({" ".join(expected)})')
        print(f'{name:<24} {len(caught):>2}/{len(injected):<7} {shown}')
    score = sum(1 for v in verdicts.values() if v[0] == 'caught')
    print(f'score: {score}/{len(verdicts)} deviations caught')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--sim', required=True)
    parser.add_argument('--profiles', required=True)
    parser.add_argument('--table', required=True)
    parser.add_argument('--cpus', default='2',
                        type=lambda text: [int(n) for n in text.split(',')])
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--report', action='store_true')
    args = parser.parse_args()

    table = read_table(args.table)
    profiles = [Profile(p, cpus, cpus == args.cpus[0]) for cpus in args.cpus
                for p in sorted(pathlib.Path(args.profiles).glob('*.profile'))]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(lambda p: survey(args, p), profiles))
        runs = [(p, d) for p in profiles for d in [''] + p.applies]
        list(pool.map(lambda run: run_one(args, *run), runs))
        proofs = list(pool.map(lambda p: prove_counters_left(args, p), profiles))

    verdicts, problems = judge(profiles, table)
    problems += [f'{p.label}: {why}' for p, why in zip(profiles, proofs) if why]
    if args.report:
        report(verdicts)
    for problem in problems:
        print(f'mutation: FAIL: {problem}')
    holes = [n for n, v in verdicts.items() if v[0] == 'HOLE']
    print(f'mutation: {len(profiles) // len(args.cpus)} profiles at '
          f'{",".join(map(str, args.cpus))} CPUs, {len(runs)} runs, '
          f'{sum(v[0] == "caught" for v in verdicts.values())}/{len(verdicts)} '
          f'deviations caught, {len(problems)} problems'
          + (f'; holes (no check yet): {" ".join(holes)}' if holes else ''))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
