"""No file of the kernel side defines an MSR number but kernel/msr.h; and
the kernel's MSR numbers (kernel/msr.h) and the simulator's own list
(tests/sim/sim_msr.h), kept apart on purpose as two readings of the SDM and
the APM, agree number for number: a name in both has one number, and a
name in one list alone is one ONE_SIDED says why, its number checked where
the other list reaches it as a base plus an offset. Then it plants a
disagreement of each kind and wants each reported.
"""
import pathlib
import re
import sys

from hosttools.checks import argument_parser
from hosttools.report.tap_out import Tap

KERNEL = 'kernel/msr.h'
SIMULATOR = 'tests/sim/sim_msr.h'
KERNEL_SIDE = ('arch', 'kernel', 'tests/kernel', 'tests/lib', 'tests/suites')
DEFINE = re.compile(r'^#define\s+(MSR_\w+)\s+(0x[0-9A-Fa-f]+)u?\b', re.M)

# Names in one list alone: (the list, why, and where the other list
# reaches the same MSR as base + offset, or None).
ONE_SIDED = {
    'MSR_IA32_FIXED_CTR3': (KERNEL, 'MET-1 names the topdown slots counter',
                            ('MSR_IA32_FIXED_CTR0', 3)),
    'MSR_AMD_PERF_CTR_EXT0': (KERNEL, 'the simulator reaches each extended CTR after its CTL',
                              ('MSR_AMD_PERF_CTL_EXT0', 1)),
    'MSR_STAR': (KERNEL, 'SYSCALL set-up of tests/kernel/mechanism.c, a kernel-only test', None),
    'MSR_LSTAR': (KERNEL, 'SYSCALL set-up of tests/kernel/mechanism.c, a kernel-only test', None),
    'MSR_FMASK': (KERNEL, 'SYSCALL set-up of tests/kernel/mechanism.c, a kernel-only test', None),
    'MSR_IA32_APIC_BASE': (KERNEL, 'the simulator has no local APIC', None),
    'MSR_IA32_ARCH_CAPABILITIES': (KERNEL, "arch/pmu_enum.c's header line; the simulator enumerates from its profile", None),
}


def numbers(text):
    """{name: number} of the MSR_ #defines in text."""
    return {name: int(value, 16) for name, value in DEFINE.findall(text)}


def elsewhere(root):
    """The files of the kernel side other than KERNEL that define an MSR
    number, with the names."""
    found = []
    for folder in KERNEL_SIDE:
        for path in sorted((root / folder).glob('*.[ch]')):
            names = [name for name, _ in DEFINE.findall(path.read_text())]
            rel = path.relative_to(root).as_posix()
            if names and rel != KERNEL:
                found.append(f"{rel}: {', '.join(names)}")
    return found


def disagreements(lists):
    """A line for each way the lists ({path: {name: number}}) disagree."""
    kernel, sim = lists[KERNEL], lists[SIMULATOR]
    problems = [f'{name}: {KERNEL} says {kernel[name]:#x}, {SIMULATOR} {sim[name]:#x}'
                for name in sorted(kernel.keys() & sim.keys()) if kernel[name] != sim[name]]
    for path, own, other in ((KERNEL, kernel, sim), (SIMULATOR, sim, kernel)):
        for name in sorted(own.keys() - other.keys()):
            listed = ONE_SIDED.get(name)
            if not listed or listed[0] != path:
                problems.append(f'{name} ({own[name]:#x}) is in {path} alone, '
                                'and ONE_SIDED does not say why')
                continue
            if listed[2]:
                base, offset = listed[2]
                if base not in other or other[base] + offset != own[name]:
                    problems.append(f'{name} ({own[name]:#x}) is not {base} + {offset} '
                                    f'of the other list')
    return problems


# Each breaks the agreement one way: (list, name, number or None to drop).
PLANTED = [
    (SIMULATOR, 'MSR_IA32_PERF_GLOBAL_CTRL', 0x38E),	# a wrong number
    (SIMULATOR, 'MSR_IA32_DEBUGCTL', None),		# a name one list drops
    (SIMULATOR, 'MSR_IA32_PERF_GLOBAL_FOO', 0x393),	# a name one list adds
    (SIMULATOR, 'MSR_IA32_FIXED_CTR0', 0x30A),		# a base a one-sided name hangs on
]


def planted(lists, path, name, number):
    changed = {p: dict(n) for p, n in lists.items()}
    if number is None:
        changed[path].pop(name, None)
    else:
        changed[path][name] = number
    return changed


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument('--root', default=str(pathlib.Path(__file__).resolve().parents[3]),
                   help='the top of the tree (default: this checkout)')
    root = pathlib.Path(p.parse_args(argv).root)
    lists = {path: numbers((root / path).read_text()) for path in (KERNEL, SIMULATOR)}
    print('TAP version 13')
    tap = Tap()
    tap.check(not (found := elsewhere(root)), f'no file of {", ".join(KERNEL_SIDE)} '
              f'defines an MSR number but {KERNEL}', found)
    problems = disagreements(lists)
    tap.check(not problems, f'the {len(lists[KERNEL])} MSRs of {KERNEL} and the '
              f'{len(lists[SIMULATOR])} of {SIMULATOR} agree', problems)
    if not problems:	# a planted disagreement means something only where they agree
        for path, name, number in PLANTED:
            what = f'{name} dropped' if number is None else f'{name} = {number:#x}'
            tap.check(bool(disagreements(planted(lists, path, name, number))),
                      f'a planted disagreement is reported: {path}: {what}', ['not reported'])
    return tap.finish()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
