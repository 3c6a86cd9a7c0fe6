"""Debian packages fetched with apt-get download from the release that has
them (a private sources list: hosttools/images/archive.py), kept in the
cache outside the clone by name and version, and unpacked with dpkg-deb:
nothing is installed on the host. A package already in the cache is not
downloaded again, so that a new clone, or one after make clean, needs no
network for it."""
import os
import shutil
import subprocess

from ..archive import Archive

# What of a kernel's packages a nested boot needs: the kernel (in boot/ up
# to 6.x, beside its modules in usr/lib/modules/VERSION/ from 7.x), and the
# directories KVM's modules and their dependencies are in (kvm_amd needs
# ccp from drivers/crypto, kvm needs irqbypass from virt/lib).
IMAGE_PARTS = ("*/vmlinuz*",)
IMAGE_PATHS = ("boot/vmlinuz-*", "usr/lib/modules/*/vmlinuz")
MODULE_PARTS = ("*/modules/*/kernel/arch/x86/kvm/*", "*/modules/*/kernel/virt/*",
                "*/modules/*/kernel/drivers/crypto/*")


class Debs:
    """The packages of one release, through the cache in ROOT/debs/."""

    def __init__(self, root, release, say):
        self.archive = Archive(root, release)
        self.folder = os.path.join(root, "debs")
        self.say = say

    def cached(self, package, version):
        path = os.path.join(self.folder, f"{package}_{version.replace(':', '%3a')}_amd64.deb")
        return path if os.path.exists(path) else None

    def fetch(self, package, version=None):
        """(the .deb's path in the cache, its version): version, or the
        candidate where none is given. ValueError says why not."""
        if version and self.cached(package, version):
            return self.cached(package, version), version
        os.makedirs(self.folder, exist_ok=True)
        spec = f"{package}={version}" if version else package
        self.say(f"apt-get download {spec} ({self.archive.release})")
        work = os.path.join(self.folder, f"partial-{os.getpid()}")
        os.makedirs(work, exist_ok=True)
        try:
            deb = self.archive.download(spec, work)
            if not deb:
                raise ValueError(f"apt-get download {spec} from "
                                 f"{self.archive.release}: {self.archive.error}")
            got = deb_version(deb)
            final = os.path.join(self.folder, f"{package}_{got.replace(':', '%3a')}_amd64.deb")
            os.replace(deb, final)
            return final, got
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def fetch_kernel(self, kernel):
        """The pinned package of kernel (a kernels.KERNELS entry), else the
        newest of its series: (deb path, package, version)."""
        try:
            deb, version = self.fetch(kernel["package"], kernel["version"])
            return deb, kernel["package"], version
        except ValueError as e:
            self.say(f"{e}; taking the newest of {kernel['series']}")
        found = self.archive.newest_of(kernel["series"])
        if not found:
            raise ValueError(f"no package of {self.archive.release} matches "
                             f"{kernel['series']}: {self.archive.error}")
        deb, version = self.fetch(*found)
        return deb, found[0], version


def deb_version(deb):
    return subprocess.run(["dpkg-deb", "-f", deb, "Version"],
                          capture_output=True, text=True).stdout.strip()


def unpack(deb, into, parts=None):
    """dpkg-deb's data of deb under into (only the tar patterns in parts,
    if given)."""
    os.makedirs(into, exist_ok=True)
    data = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                            stdout=subprocess.PIPE)
    tar = subprocess.run(["tar", "-x", "-C", into, "--wildcards"] +
                         list(parts or []), stdin=data.stdout,
                         capture_output=True, text=True)
    data.stdout.close()
    if data.wait() or tar.returncode:
        raise ValueError(f"unpacking {deb}: {tar.stderr.strip()}")
