"""Linux KVM as a target: pmctest in QEMU on KVM, in a Linux that itself
runs in QEMU TCG with AMD SVM (-cpu EPYC), so that a real KVM can be tested
on any machine, /dev/kvm or not.

  kernels    the Debian kernels, pinned, each with its release (data)
  debs       apt-get download from that release, kept in the cache, and
             dpkg-deb -x: nothing installed on the host
  vmlinux    the kernel ELF inside a bzImage, for a PVH boot
  modules    KVM's modules and what they depend on, in load order
  cpio       the initramfs archive format
  initramfs  busybox, the host's QEMU and KVM's modules; init.sh as /init
  build      the images of one kernel in one directory (kernel.txt says
             what), built once into the cache outside the clone
  params     L1's command-line words and KVM's module parameters, checked
  outer      the outer QEMU's command line
  iso        a GRUB ISO of a nested boot, for Bochs (no -kernel there)

tests/kvm.py builds the images and boots one run; tests/run's nested
targets (hosttools/targets/nested.py) boot them the same way.
"""
