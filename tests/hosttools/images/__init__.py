"""What the targets need fetched and built before they boot (make images):
Debian's packages downloaded and unpacked, never installed on the host.

  nested       Linux KVM as a target: the images of an L1 kernel
  qemu_pmu     the QEMU with the TCG PMU, built once and cached
  xen          Debian's Xen, each version pinned, fetched and cached
  apt_sources  this machine's apt sources, read (private sources lists)
  rootfs       a throwaway Debian root (make clean-room, make lava-lab)
"""
