"""The dependency rule of the source tree (docs/design.md, "Which layer
stands on which"): which folder's files may include, and refer to the names
of, which other folder's. checks/layout.py holds the tree to it on includes,
and on calls and data references read from the objects
(hosttools/layout_calls.py).

The direction: kernel/ (the harness) stands on arch/ (the machine) and
reaches it only through the interfaces arch/ implements (IMPLEMENTS);
arch/ never calls up into the harness: it reports through hooks the
harness installs (arch/hooks.h), and of kernel/ it calls only the plain
text and data helpers of ARCH_USES (strbuf.h, vectors.h). kernel/main.c,
which wires the two at boot, and kernel/contained.c, which runs a test
between arch/'s save of its context and its restore of the machine, are
the two kernel files that include arch/. The suites and their
library stand on kernel/ and its interfaces; boot/ stands on arch/ and
hands over to kmain.
"""
import pathlib

SOURCES = ('.c', '.h', '.asm', '.inc')

# What arch/ may include from kernel/: the interfaces it implements, and
# the plain data and text those are written in.
ARCH_IMPLEMENTS = {'cpus.h', 'exec.h', 'platform.h'}
ARCH_USES = {'model.h', 'strbuf.h', 'vectors.h', 'msr.h', 'exit_kind.h', 'cmdline_limits.h'}

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
    'kernel/contained.c': ['kernel', 'arch'],
    'tests/lib': ['kernel', 'tests/lib'],
    'tests/suites': ['kernel', 'tests/lib'],
    'tests/kernel': ['kernel', 'tests/lib', 'arch'],
    'tests/sim': ['kernel', 'tests/sim', 'tests/host'],
    'tests/host': ['kernel', 'tests/host'],
    'tests/bench': ['arch'],	# make bench's floor: the boot path alone
    'tests/qemu-pmu/guest': ['arch'],	# the TCG PMU's migration guest, as the floor
    'tests/fuzz': ['arch', 'kernel'],	# the boot path's parsers, on the host
    'tests/bootshim': [],	# the loader shim: a program of its own
}

# Layer -> the interface headers it implements: another layer may call a
# name this layer defines only where one of them declares it.
IMPLEMENTS = {
    'arch': {pathlib.PurePosixPath('kernel', h) for h in ARCH_IMPLEMENTS},
    'tests/suites': {pathlib.PurePosixPath('kernel/harness.h')},	# suite_run_order
}

# Where the boot path hands over: the one name boot/ calls in kernel/.
ENTRY = {'boot': {'kmain'}}

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
