"""The Linux kernels pmctest runs KVM from: Debian's packages, pinned, each
fetched from the Debian release that has it (hosttools/images/archive.py),
whatever this machine's release is.

version is the one tests/expect/kvm-NAME was recorded on. When the archive
no longer has it, the newest package whose name matches series is taken
instead, and the runner reports a change in results as a changed kernel,
naming both. From 7.x Debian splits a kernel into linux-binary-VERSION
(the image) and linux-modules-VERSION (its modules): modules names the
second package, whose version is the first's.

7.3 is trixie-backports' build, not sid's 7.2: backports keeps the builds
it superseded (7.0.4 to 7.3.4 are all there today), so the pinned version
stays to be had, where sid keeps only its newest; and it is built for
Debian 13, the release most hosts run. Both have the mediated vPMU
(enable_mediated_pmu of kvm_amd and kvm_intel)."""

KERNELS = {
    "6.1": dict(release="bookworm", package="linux-image-6.1.0-50-amd64",
                version="6.1.176-1", series=r"linux-image-6\.1\.0-[0-9]+-amd64"),
    "6.12": dict(release="bookworm",
                 package="linux-image-6.12.118+deb12-amd64-unsigned",
                 version="6.12.118-1~deb12u1",
                 series=r"linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned"),
    "7.3": dict(release="trixie-backports",
                package="linux-binary-7.3.4+deb13-amd64",
                modules="linux-modules-7.3.4+deb13-amd64",
                version="7.3.4-1~bpo13+1",
                series=r"linux-binary-7\.3\.[0-9]+\+deb13-amd64"),
}

# busybox for the initramfs: a static build, any version of this release
BUSYBOX = "busybox-static"
BUSYBOX_RELEASE = "bookworm"


def modules_package(kernel, package):
    """The package of the modules of kernel's package (itself where the
    kernel is one package)."""
    if "modules" not in kernel:
        return package
    return package.replace("linux-binary-", "linux-modules-", 1)
