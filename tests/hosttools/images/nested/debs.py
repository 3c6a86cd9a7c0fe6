"""Debian packages fetched with apt-get download and unpacked with dpkg-deb
into a directory of this build: nothing is installed on the host."""
import glob
import os
import re
import subprocess

# What of a linux-image package a nested boot needs: the kernel, and the
# directories KVM's modules and their dependencies are in (kvm_amd needs
# ccp from drivers/crypto, kvm needs irqbypass from virt/lib).
KERNEL_PARTS = ("./boot/vmlinuz-*", "*/modules/*/kernel/arch/x86/kvm/*",
                "*/modules/*/kernel/virt/*",
                "*/modules/*/kernel/drivers/crypto/*")


class Apt:
    def __init__(self, say):
        self.say = say
        self.updated = False

    def run(self, args, cwd=None):
        return subprocess.run(args, cwd=cwd, capture_output=True, text=True)

    def update_once(self):
        """apt-get update, once, where the package lists may be stale."""
        if self.updated:
            return
        self.updated = True
        sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
        self.say("apt-get update")
        self.run(sudo + ["apt-get", "update", "-qq"])

    def download(self, spec, into):
        """apt-get download spec into the directory; the .deb's path or
        None, with apt's complaint in self.error."""
        for attempt in range(2):
            before = set(glob.glob(os.path.join(into, "*.deb")))
            p = self.run(["apt-get", "download", "-q", spec], cwd=into)
            new = set(glob.glob(os.path.join(into, "*.deb"))) - before
            if p.returncode == 0 and new:
                return new.pop()
            self.error = (p.stderr.strip().splitlines() or ["no .deb"])[-1]
            if attempt == 0:
                self.update_once()
        return None

    def candidate(self, package):
        out = self.run(["apt-cache", "policy", package]).stdout
        m = re.search(r"^\s*Candidate:\s*(\S+)", out, re.M)
        return m.group(1) if m and m.group(1) != "(none)" else None

    def newest_of(self, series):
        """(package, version) of the newest package whose whole name matches
        the regular expression series, in the local package lists."""
        out = self.run(["apt-cache", "search", "--names-only",
                        f"^{series}$"]).stdout
        best = None
        for name in sorted(set(l.split(" ", 1)[0] for l in out.splitlines())):
            version = self.candidate(name)
            if version and (best is None or newer(version, best[1])):
                best = (name, version)
        return best


def newer(a, b):
    return subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0


def fetch_kernel(kernel, into, say):
    """The pinned package of kernel (kernels.KERNELS entry), else the newest
    of its series: (deb path, package, version)."""
    apt = Apt(say)
    os.makedirs(into, exist_ok=True)
    spec = f"{kernel['package']}={kernel['version']}"
    deb = apt.download(spec, into)
    if deb:
        return deb, kernel["package"], kernel["version"]
    say(f"{spec} is not to be had ({apt.error}); taking the newest of "
        f"{kernel['series']}")
    found = apt.newest_of(kernel["series"])
    if not found:
        raise ValueError(f"no package matches {kernel['series']}: "
                         f"{apt.error}")
    deb = apt.download(f"{found[0]}={found[1]}", into)
    if not deb:
        raise ValueError(f"apt-get download {found[0]}={found[1]}: {apt.error}")
    return deb, found[0], found[1]


def fetch_package(package, into, say):
    """The candidate version of package: (deb path, version)."""
    apt = Apt(say)
    os.makedirs(into, exist_ok=True)
    deb = apt.download(package, into)
    if not deb:
        raise ValueError(f"apt-get download {package}: {apt.error}")
    version = subprocess.run(["dpkg-deb", "-f", deb, "Version"],
                             capture_output=True, text=True).stdout.strip()
    return deb, version


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
