"""The QEMU with the TCG PMU: Debian's QEMU 7.2 source, Debian's patch
series, then the series of tests/qemu-pmu/patches/, built for
x86_64-softmmu alone and cached outside the clone (docs/counting-tcg.md).

  apt_source  Debian's source package through a private deb-src list: the
              pinned version, or the newest 7.2 where the pin is gone
  recipe      the configure flags, Debian's ROM folders and the cache key
  cache       the cache entries and the lock around a build
  build       fetch, patch, configure, build, install into the cache
"""
