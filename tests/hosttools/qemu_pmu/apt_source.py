"""Debian's source package through a deb-src list of our own, written
from this machine's apt sources (deb822 .sources files and the one-line
sources.list): apt-get update and apt-get source with Dir::Etc::SourceList,
SourceParts and Dir::State::Lists pointed at it. The machine's apt
configuration and package lists are not touched."""
import glob
import os
import re
import subprocess

from ..apt_sources import ETC_APT, machine_sources

UPSTREAM_SERIES = re.compile(r"^(\d+:)?7\.2[+~.-]")


def deb_src_lines():
    """One deb-src line for each suite the machine's apt takes binary
    packages from."""
    lines = []
    for source in machine_sources():
        option = f"[signed-by={source.signed_by}] " if source.signed_by else ""
        for suite in source.suites:
            lines.append(f"deb-src {option}{source.uri} {suite} "
                         f"{' '.join(source.components)}".rstrip())
    return lines


class SourceArchive:
    """apt-get and apt-cache on the private list in DIR (its package lists
    in DIR/lists): the deb-src lines of lines() (by default those of the
    machine's suites) and versions of the upstream series."""

    series = UPSTREAM_SERIES

    def __init__(self, where):
        self.where = where
        self.list = os.path.join(where, "sources.list")
        self.lists = os.path.join(where, "lists")

    def options(self):
        return ["-o", f"Dir::Etc::SourceList={self.list}",
                "-o", "Dir::Etc::SourceParts=/dev/null",
                "-o", f"Dir::State::Lists={self.lists}",
                "-o", f"Dir::Cache={os.path.join(self.where, 'cache')}"]

    def run(self, tool, args, cwd=None, log=None):
        cmd = [tool] + self.options() + args
        if log:
            log.write("$ " + " ".join(cmd) + "\n")
            log.flush()
            return subprocess.run(cmd, cwd=cwd, stdout=log, stderr=log,
                                  stdin=subprocess.DEVNULL)
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)

    def lines(self):
        return deb_src_lines()

    def update(self):
        """Refresh the deb-src lists: None, or why it failed."""
        lines = self.lines()
        if not lines:
            return (f"no Debian archive in {ETC_APT}/sources.list or "
                    f"{ETC_APT}/sources.list.d/ to take the source from")
        os.makedirs(os.path.join(self.lists, "partial"), exist_ok=True)
        os.makedirs(os.path.join(self.where, "cache", "archives", "partial"),
                    exist_ok=True)
        with open(self.list, "w") as f:
            f.write("\n".join(lines) + "\n")
        p = self.run("apt-get", ["update", "-qq"])
        if p.returncode:
            return "apt-get update of the deb-src lists failed: " + \
                (p.stderr.strip().splitlines() or ["?"])[-1]
        return None

    def versions(self, package):
        out = self.run("apt-cache", ["showsrc", package]).stdout
        found, name = set(), None
        for line in out.splitlines():
            if line.startswith("Package:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("Version:") and name == package:
                found.add(line.split(":", 1)[1].strip())
        return found

    def choose(self, package, pinned):
        """The pinned version where the archive has it, else the newest of
        the same upstream series (7.2 for QEMU); None where there is none."""
        versions = self.versions(package)
        if pinned in versions:
            return pinned
        best = None
        for v in versions:
            if self.series.match(v) and (best is None or newer(v, best)):
                best = v
        return best

    def source(self, package, version, into, log):
        """apt-get source: the unpacked tree with Debian's patch series
        applied (dpkg-source -x), or None."""
        p = self.run("apt-get", ["source", "-q", f"{package}={version}"],
                     cwd=into, log=log)
        if p.returncode:
            return None
        trees = [d for d in glob.glob(os.path.join(into, f"{package}-*"))
                 if os.path.isdir(d)]
        return trees[0] if len(trees) == 1 else None


def newer(a, b):
    return subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0
