"""The dependency rule of the source tree, checked on its #include and
%include lines: arch/ implements the interfaces kernel/ declares and
reports up only through hooks; kernel/main.c is the one kernel file that
includes arch/; the suites see kernel/ and their library, never arch/,
except the kernel-only suites of tests/kernel/ (docs/design.md,
"Which layer stands on which").

Every C and assembler file of the tree must be in a folder RULES names,
every quoted include must name one file of the tree (a bare name: the
includer's folder first, then the one folder that holds it), and that file
must be in a folder the includer's rule allows. Prints each violation and
exits 1; 0 when there is none. Then it adds, one at a time, includes
that break the rule and wants each of them reported.
"""
import pathlib
import re
import sys

from hosttools.checks import argument_parser
from hosttools.tap_out import Tap

SOURCES = ('.c', '.h', '.asm', '.inc')
C_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ASM_INCLUDE = re.compile(r'^\s*%include\s+"([^"]+)"', re.M)

# What arch/ may include from kernel/: the interfaces it implements, and
# the plain data and text those are written in.
ARCH_IMPLEMENTS = {'cpus.h', 'exec.h', 'platform.h'}
ARCH_USES = {'model.h', 'strbuf.h', 'vectors.h', 'pmu_msr.h', 'exit_kind.h'}

# Written into the build directory by make (the TAP header's version).
GENERATED = {'version.h'}

# Folder (or file) -> what its files may include: folders, or
# (folder, {names}) for part of one; 'build' for GENERATED. The most
# specific key wins.
RULES = {
    'boot': ['boot', 'arch'],
    'arch': ['arch', ('kernel', ARCH_IMPLEMENTS | ARCH_USES)],
    'kernel': ['kernel', 'build'],
    'kernel/main.c': ['kernel', 'arch'],
    'tests/lib': ['kernel', 'tests/lib'],
    'tests/suites': ['kernel', 'tests/lib'],
    'tests/kernel': ['kernel', 'tests/lib', 'arch'],
    'tests/sim': ['kernel', 'tests/sim', 'tests/host'],
    'tests/host': ['kernel', 'tests/host'],
    'tests/bench': ['arch'],	# make bench's floor: the boot path alone
    'tests/fuzz': ['arch', 'kernel'],	# the boot path's parsers, on the host
    'tests/bootshim': [],	# the loader shim: a program of its own
}

SKIP = {'.git', 'build'}


def sources(root):
    for path in sorted(root.rglob('*')):
        rel = path.relative_to(root)
        if rel.parts[0] in SKIP or not path.is_file():
            continue
        if path.suffix in SOURCES:
            yield rel


def rule_for(rel):
    """The key of RULES that governs rel, or None."""
    for key in (rel.as_posix(), *(p.as_posix() for p in rel.parents)):
        if key in RULES:
            return key
    return None


def allows(rule, target):
    """Whether RULES[rule] allows including target ('build/x.h' or a path)."""
    folder, name = target.parent.as_posix(), target.name
    for allowed in RULES[rule]:
        if isinstance(allowed, tuple):
            if folder == allowed[0] and name in allowed[1]:
                return True
        elif folder == allowed:
            return True
    return False


def describe(rule):
    parts = []
    for allowed in RULES[rule]:
        if isinstance(allowed, tuple):
            parts.append(f"from {allowed[0]}/ only {', '.join(sorted(allowed[1]))}")
        else:
            parts.append(f'{allowed}/')
    return f"{rule}{'' if rule.endswith('.c') else '/'} may include {'; '.join(parts)}"


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


def self_test(root, tap):
    """Each of VIOLATIONS, added alone to a tree that passes, is reported."""
    for rel, name in VIOLATIONS:
        _, problems = check(root, {pathlib.PurePosixPath(rel): [name]})
        tap.check(bool(problems), f'a deliberate violation is reported: {rel} including {name}')


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument('--root', default=str(pathlib.Path(__file__).resolve().parents[3]),
                   help='the top of the tree (default: this checkout)')
    args = p.parse_args(argv)
    root = pathlib.Path(args.root)
    if not (root / 'kernel').is_dir():
        print(f'layout: {root} is not the top of a pmctest tree', file=sys.stderr)
        return 2
    print('TAP version 13')
    tap = Tap()
    count, problems = check(root)
    tap.check(not problems, f'every include of the {count} C and assembler files follows the dependency rule',
              problems)
    if not problems:	# the deliberate violations mean something only on a tree that passes
        self_test(root, tap)
    return tap.finish()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
