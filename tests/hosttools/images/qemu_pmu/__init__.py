"""The QEMU with the TCG PMU: Debian's QEMU 7.2 source, Debian's patch
series, then the series of tests/qemu-pmu/patches/, built for
x86_64-softmmu alone and cached outside the clone (docs/counting-tcg.md),
by the build the counting emulators share (hosttools/images/counting/).

  build  QEMU_PMU, what the shared build is told: the source, the
         configure flags, its own steps (apt-get source, configure;
         ninja builds) and Debian's ROM folders for its wrapper
"""
