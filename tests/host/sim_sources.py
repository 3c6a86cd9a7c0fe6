#!/usr/bin/env python3
"""The check sources pmctest-sim links: every tests/kernel/*.c that runs on
the host. A file runs on the host unless it includes an arch/ header, or a
tests/kernel header whose own .c does not run on the host (selftest.c,
for instance, reaches the local APIC through arch/apic.h).

usage: sim_sources.py ARCH_DIR CHECK_DIR  (prints the sources, one a line)
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def main(arch_dir, check_dir):
    arch = {p.name for p in pathlib.Path(arch_dir).glob('*.h')}
    sources = sorted(pathlib.Path(check_dir).glob('*.c'))
    includes = {s: set(INCLUDE.findall(s.read_text())) for s in sources}
    host = {s for s in sources if not includes[s] & arch}
    changed = True
    while changed:	# a fixed point: exclusions propagate through headers
        blocked = {s.with_suffix('.h').name for s in sources if s not in host}
        changed = False
        for s in sorted(host):
            if includes[s] & blocked:
                host.discard(s)
                changed = True
    print('\n'.join(str(s) for s in sorted(host)))


if __name__ == '__main__':
    if len(sys.argv) != 3 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (['-h'], ['--help']) else 2)
    main(*sys.argv[1:])
