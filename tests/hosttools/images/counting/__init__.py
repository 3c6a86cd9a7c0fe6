"""The build the two counting emulators share: the counting QEMU
(hosttools/images/qemu_pmu/) and the counting Bochs (bochs_pmu/), each
Debian's source with our patch series, built once per machine and cached
outside the clone (hosttools/images/cache.py). Each emulator is an
Emulator (emulator.py): its names, its source, its own steps (fetch and
unpack, configure) and its build tool; the rest is here.

  emulator   what an emulator tells the shared build
  source     its Debian source: the pinned version, or the newest of its
             upstream series where the pin is gone
  recipe     our patch series, the modules a build runs, the cache key
  build_log  the build's log, each command in it, and the error naming it
  entry      a cache entry built: fetch, patch, configure, build, renamed
             into place whole with its info
  wrapper    OUT/BINARY, the script that runs the cached binary, written
             and read back
  build      build once per key and point OUT at it, or say in
             OUT/unavailable why there is none
"""
