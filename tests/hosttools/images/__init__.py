"""What the targets need fetched and built before they boot (make images):
Debian's packages downloaded and unpacked, never installed on the host.

  nested       Linux KVM as a target: the images of an L1 kernel
  counting     the build the two counting emulators share: once per
               key into the cache, OUT pointed at it
  qemu_pmu     the QEMU with the TCG PMU: its source and its own steps
  bochs_pmu    the counting Bochs 3.0: its source and its own steps
  archive      Debian's archive through a sources list naming its release
  cache        the cache of what make images builds, outside the clone
  xen          Debian's Xen, each version pinned, fetched and cached
  apt_sources  this machine's apt sources, read (private sources lists)
  rootfs       a throwaway Debian root of a named release (make clean-room,
               make lava-lab)
  lava_root    LAVA 2023.01 in a throwaway bookworm root (make lava, make
               test's LAVA steps, the lab's base), on any host's release
  archive      Debian's archive through a sources list that names its release
"""
