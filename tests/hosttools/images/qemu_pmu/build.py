"""The QEMU with the TCG PMU as the counting emulators' build
(hosttools/images/counting/) runs it, QEMU_PMU: bookworm's qemu source
of the 7.2 series and the configure flags, its own steps between the
shared ones (apt-get source, where dpkg-source applies Debian's series;
once our series is applied, configure for x86_64-softmmu in a build
folder beside the tree, where ninja builds qemu-system-x86_64 alone),
and Debian's ROM folders for its wrapper."""
import os

from ..counting.build_log import BuildError, run_logged
from ..counting.emulator import Emulator

# Debian's ROM folders (debian/rules' FIRMWAREPATH): the BIOS, option and
# network ROMs of qemu-system-data, seabios and ipxe-qemu. The build is
# not installed, so they are passed with -L on every run.
DEBIAN_ROMS = ("/usr/share/qemu", "/usr/share/seabios", "/usr/lib/ipxe/qemu")


def pkgversion(version, key):
    """What qemu --version shows in parentheses."""
    return f"Debian {version}, pmctest tcg-pmu {key}"


def fetch(archive, package, version, work, log):
    """apt-get source in WORK: the tree with Debian's series applied."""
    tree = archive.source(package, version, work, log)
    if tree is None:
        raise BuildError(f"apt-get source {package}={version} failed")
    return tree


def configure(tree, flags, version, key, log):
    """The build folder, configured; qemu --version names the build."""
    build = os.path.join(os.path.dirname(tree), "build")
    os.makedirs(build)
    run_logged([os.path.join(tree, "configure"), *flags,
                f"--with-pkgversion={pkgversion(version, key)}"],
               build, log, "configure failed")
    return build


QEMU_PMU = Emulator(
    name="qemu-pmu", title="QEMU with the TCG PMU", package="qemu",
    # the release whose QEMU the patch series is written against (7.2):
    # bookworm's, whatever this machine's own release, so that a Debian
    # 13 host builds the same 7.2 a Debian 12 host does
    release="bookworm", upstream="7.2", binary="qemu-system-x86_64",
    # x86_64-softmmu alone; the dfsg tarball has no edk2 blobs, so their
    # unpacking is off (--disable-install-blobs, as Debian's own build)
    configure_flags=("--target-list=x86_64-softmmu", "--disable-install-blobs",
                     "--disable-docs", "--disable-werror", "--disable-strip"),
    fetch=fetch, configure=configure, build_tool="ninja",
    build_time="4-6 minutes",
    wrapper_args=tuple(w for d in DEBIAN_ROMS for w in ("-L", d)))
