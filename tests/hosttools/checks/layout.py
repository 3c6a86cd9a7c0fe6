"""The dependency rule of the source tree (hosttools/devtools/layout_rule.py),
checked on its #include and %include lines and on the names its objects
refer to: arch/ implements the interfaces kernel/ declares and reports up
only through hooks; kernel/main.c is the one kernel file that includes
arch/; the suites see kernel/ and their library, never arch/, except the
kernel-only suites of tests/kernel/ (docs/design.md, "Which layer stands
on which").

Every C and assembler file of the tree must be in a folder RULES names,
every quoted include must name one file of the tree (a bare name: the
includer's folder first, then the one folder that holds it), and that file
must be in a folder the includer's rule allows. Every name an object of
the kernel (make's build/obj) refers to and another folder defines must be
one the rule allows (hosttools/devtools/layout_calls.py), and no files may refer to
each other in a circle; and no host Python function is over 60 lines
(hosttools/devtools/function_length.py); the host package's folders
import only those below them and no module outside targets/ dispatches
on a kind's name (hosttools/devtools/layout_py.py). Prints each violation and exits 1; 0 when
there is none. Then it adds, one at a time, includes and references that break the
rule and wants each of them reported.
"""
import pathlib
import re
import sys

from hosttools.devtools import function_length, layout_calls, layout_py
from hosttools.checks import argument_parser
from hosttools.devtools.layout_rule import GENERATED, allows, describe, rule_for, sources
from hosttools.report.tap_out import Tap

C_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ASM_INCLUDE = re.compile(r'^\s*%include\s+"([^"]+)"', re.M)

def includes(root, rel, extra):
    text = (root / rel).read_text(errors='replace')
    pattern = ASM_INCLUDE if rel.suffix in ('.asm', '.inc') else C_INCLUDE
    return pattern.findall(text) + extra.get(rel, [])


def resolve(root, rel, name, by_name):
    """The included file as a path of the tree, or an error text."""
    if rel.suffix in ('.asm', '.inc'):	# nasm -I.: from the top
        target = pathlib.PurePosixPath(name)
        return target if (root / target).is_file() else f'no file {name}'
    own = rel.parent / name
    if (root / own).is_file():
        return own
    if '/' in name:
        return f'"{name}": includes name a file, not a path'
    found = by_name.get(name, [])
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        return f"{name} is ambiguous: {', '.join(p.as_posix() for p in found)}"
    if name in GENERATED:
        return pathlib.PurePosixPath('build', name)
    return f'no file {name} in the tree'


def check(root, extra=None):
    extra = extra or {}
    files = list(sources(root))
    by_name = {}
    for rel in files:
        by_name.setdefault(rel.name, []).append(rel)
    problems = []
    for rel in files:
        rule = rule_for(rel)
        if rule is None:
            problems.append(f'{rel}: its folder has no rule in RULES')
            continue
        for name in includes(root, rel, extra):
            target = resolve(root, rel, name, by_name)
            if isinstance(target, str):
                problems.append(f'{rel}: {target}')
            elif not allows(rule, target):
                problems.append(f'{rel} includes {target}: {describe(rule)}')
    return len(files), problems


# Each breaks the rule one way; the check wants each reported.
VIOLATIONS = [
    ('tests/suites/priv.c', 'cpu.h'),		# a suite into arch/
    ('tests/lib/sweep.c', 'ring.h'),		# the suites' library into arch/
    ('arch/platform.c', 'console.h'),		# arch/ into the harness
    ('kernel/harness.c', 'trap.h'),		# kernel/ into arch/
    ('tests/sim/sim_exec.c', 'apic.h'),		# the simulator into arch/
    ('tests/suites/ovf.c', 'no_such_header.h'),	# a header the tree lacks
]

# References that break it, as if an object made them: (file, name).
CALL_VIOLATIONS = [
    ('arch/platform.c', 'harness_bail_out'),	# arch/ calls up into the harness
    ('kernel/harness.c', 'gdt_init'),		# kernel/ into arch/ past its interfaces
    ('tests/suites/priv.c', 'ring_run64'),	# a suite into arch/
    ('kernel/glob.c', 'harness_bail_out'),	# a circle: harness.c calls glob.c
]


def call_problems(root, objects, extra=None):
    refs = layout_calls.references(root, objects, extra)
    return layout_calls.violations(root, refs) + layout_calls.circles(refs)


def self_test(root, objects, tap):
    """Each of VIOLATIONS and CALL_VIOLATIONS, added alone to a tree that
    passes, is reported."""
    for rel, name in VIOLATIONS:
        _, problems = check(root, {pathlib.PurePosixPath(rel): [name]})
        tap.check(bool(problems), f'a deliberate violation is reported: {rel} including {name}')
    for rel, name in CALL_VIOLATIONS:
        problems = call_problems(root, objects, {rel: [name]})
        tap.check(bool(problems), f'a deliberate violation is reported: {rel} calling {name}',
                  ['not reported'])


def host_functions(root, tap):
    """No host Python function over function_length.LIMIT lines; and one
    that is, is reported."""
    long = function_length.tree_problems(root)
    tap.check(not long, f'no host Python function is over {function_length.LIMIT} lines', long)
    def of(lines):      # a function of that many lines
        return 'def f():\n' + ''.join(f'    x = {i}\n' for i in range(lines - 1))
    limit = function_length.LIMIT
    tap.check(bool(function_length.long_functions(of(limit + 1))) and
              not function_length.long_functions(of(limit)),
              f'a deliberate violation is reported: a function of {limit + 1} lines',
              [f'not reported, or one of {limit} lines was'])


def host_layout(root, tap):
    """The host package's folders import only those below them, and only
    targets/ names a kind; a deliberate violation of each is reported."""
    problems = layout_py.direction_problems(root)
    tap.check(not problems, 'every import of the host package follows its '
              'folders\' directions (devtools/layout_py.py, PACKAGES)', problems)
    named = layout_py.kind_problems(root)
    tap.check(not named, 'no module outside targets/ and checks/ compares '
              'with or dispatches on a kind\'s name', named)
    if problems or named:
        return
    judge_boots = {'tests/hosttools/judge/judge.py': ['boot']}
    tap.check(bool(layout_py.direction_problems(root, judge_boots)),
              'a deliberate violation is reported: judge/ importing boot/',
              ['not reported'])
    branch = {'tests/hosttools/cli/branch.py': 'if kind == "bochs":\n    pass\n'}
    tap.check(bool(layout_py.kind_problems(root, branch)),
              'a deliberate violation is reported: cli/ branching on "bochs"',
              ['not reported'])


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument('--root', default=str(pathlib.Path(__file__).resolve().parents[3]),
                   help='the top of the tree (default: this checkout)')
    p.add_argument('--objects', help="the kernel's objects, as make builds them (default: ROOT/build/obj)")
    args = p.parse_args(argv)
    root = pathlib.Path(args.root)
    objects = pathlib.Path(args.objects) if args.objects else root / 'build' / 'obj'
    if not (root / 'kernel').is_dir():
        print(f'layout: {root} is not the top of a pmctest tree', file=sys.stderr)
        return 2
    if not any(objects.rglob('*.o')):
        print(f'layout: no objects in {objects}: build the kernel first (make)', file=sys.stderr)
        return 2
    print('TAP version 13')
    tap = Tap()
    count, problems = check(root)
    tap.check(not problems, f'every include of the {count} C and assembler files follows the dependency rule',
              problems)
    refs = layout_calls.references(root, objects)
    violations = layout_calls.violations(root, refs)
    tap.check(not violations, f'every one of the {len(refs)} references between files follows the dependency rule',
              violations)
    circles = layout_calls.circles(refs)
    tap.check(not circles, 'no files refer to each other in a circle', circles)
    if not (problems or violations or circles):	# the deliberate violations mean something only on a tree that passes
        self_test(root, objects, tap)
    host_functions(root, tap)
    host_layout(root, tap)
    return tap.finish()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
