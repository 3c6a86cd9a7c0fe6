"""The counting Bochs: Debian's Bochs 3.0 source (trixie), Debian's patch
series, then the series of tests/bochs-pmu/patches/ (Intel's
architectural PMU), built headless and cached outside the clone
(docs/counting-bochs.md), by the build the counting emulators share
(hosttools/images/counting/). Beside Debian's Bochs 2.7, which the
bochs-* targets keep running.

  build   BOCHS_PMU, what the shared build is told: the source, the
          configure flags, its own steps (fetch, configure and name the
          build under the banner; make builds)
  source  its tarballs checked against the Sources index and unpacked,
          Debian's quilt series applied (the archive serves no .dsc for
          dpkg-source)
"""
