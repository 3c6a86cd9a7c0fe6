"""The Linux kernels pmctest runs KVM from: Debian's packages, pinned.

version is the one tests/expect/kvm-NAME was recorded on. When the archive
no longer has it (Debian keeps the current build of each series only), the
newest package whose name matches series is taken instead, and the runner
reports a change in results as a changed kernel, naming both."""

KERNELS = {
    "6.1": dict(package="linux-image-6.1.0-50-amd64", version="6.1.176-1",
                series=r"linux-image-6\.1\.0-[0-9]+-amd64"),
    "6.12": dict(package="linux-image-6.12.118+deb12-amd64-unsigned",
                 version="6.12.118-1~deb12u1",
                 series=r"linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned"),
}

# busybox for the initramfs: a static build, any version
BUSYBOX = "busybox-static"
