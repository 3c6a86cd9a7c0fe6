"""The counting Bochs: Debian's Bochs 3.0 source (trixie), Debian's patch
series, then the series of tests/bochs-pmu/patches/ (Intel's
architectural PMU), built headless and cached outside the clone
(docs/counting-bochs.md). Beside Debian's Bochs 2.7, which the bochs-*
targets keep running.

  source  Debian's source package through a private deb-src list naming
          trixie: the pinned version or the newest 3.0, its tarballs
          checked against the Sources index and unpacked, Debian's quilt
          series applied (the archive serves no .dsc for dpkg-source)
  recipe  the configure flags and the cache key
  build   fetch, patch, configure, build, install into the cache
          (hosttools/images/cache.py: its entries and their locks)
"""
