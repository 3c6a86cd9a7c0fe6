"""Debian's archive through a sources list of our own that names its
release, whatever this machine's own release is: apt-get update, download
and source with Dir::Etc::SourceList, SourceParts, Dir::State::Lists and
Dir::Cache pointed at a folder of the cache. Only the mirror's address
comes from this machine's apt sources (deb.debian.org where they name no
Debian archive); its apt configuration and package lists are not touched.

A release is the suites a Debian release's packages come from: bookworm is
bookworm, bookworm-updates and bookworm-security (where the kernels and
Xen's security builds are), trixie likewise, trixie-backports alone."""
import fcntl
import glob
import os
import re
import subprocess
import time

from .apt_sources import machine_sources

DEFAULT_HOST = "http://deb.debian.org"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
# release: (archive, suite) in apt's order; archive is the path under the
# mirror's host (debian, debian-security)
RELEASES = {
    "bookworm": [("debian", "bookworm"), ("debian", "bookworm-updates"),
                 ("debian-security", "bookworm-security")],
    "trixie": [("debian", "trixie"), ("debian", "trixie-updates"),
               ("debian-security", "trixie-security")],
    "trixie-backports": [("debian", "trixie-backports")],
}
# the package lists are refreshed when older than this
FRESH_SECONDS = 6 * 3600


def mirror_host():
    """The scheme and host of the machine's Debian mirror ("http://host"):
    of its first source whose path ends in /debian."""
    for source in machine_sources():
        m = re.match(r"^(https?://[^/]+)(/.*)?/debian/?$", source.uri)
        if m:
            return m.group(1) + (m.group(2) or "")
    return DEFAULT_HOST


def newer(a, b):
    return subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0


class Archive:
    """One release's packages (types "deb" and, with sources, "deb-src")
    through a private list in ROOT/apt-RELEASE/."""

    def __init__(self, root, release, sources=False):
        if release not in RELEASES:
            raise ValueError(f"no release {release!r}: {', '.join(RELEASES)}")
        self.release = release
        self.types = ("deb", "deb-src") if sources else ("deb",)
        self.where = os.path.join(root, f"apt-{release}" + ("-src" if sources else ""))
        self.list = os.path.join(self.where, "sources.list")
        self.lists = os.path.join(self.where, "lists")
        self.error = None

    def lines(self):
        host = mirror_host()
        signed = f"[signed-by={KEYRING}] " if os.path.exists(KEYRING) else ""
        return [f"{kind} {signed}{host}/{archive} {suite} main"
                for archive, suite in RELEASES[self.release] for kind in self.types]

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

    def update(self, force=False):
        """Refresh the package lists (once in FRESH_SECONDS unless force):
        None, or why it failed."""
        os.makedirs(os.path.join(self.lists, "partial"), exist_ok=True)
        os.makedirs(os.path.join(self.where, "cache", "archives", "partial"),
                    exist_ok=True)
        stamp = os.path.join(self.where, "updated")
        with open(os.path.join(self.where, "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            text = "\n".join(self.lines()) + "\n"
            same = os.path.exists(self.list) and open(self.list).read() == text
            if same and not force and os.path.exists(stamp) and \
                    time.time() - os.path.getmtime(stamp) < FRESH_SECONDS:
                return None
            with open(self.list, "w") as f:
                f.write(text)
            p = self.run("apt-get", ["update", "-qq"])
            # apt-get update exits 0 where an index could not be fetched
            # (no network), with a warning: that is a failure here too
            failed = [l for l in p.stderr.splitlines()
                      if l.startswith(("E:", "W: Failed to fetch"))]
            if p.returncode or failed:
                return (f"apt-get update of {self.release}'s lists failed: " +
                        (failed or p.stderr.strip().splitlines() or ["?"])[-1])
            open(stamp, "w").close()
        return None

    def download(self, spec, into):
        """apt-get download spec (PACKAGE or PACKAGE=VERSION) into the
        folder: the .deb's path, or None with apt's complaint in error."""
        for attempt in range(2):
            why = self.update(force=attempt > 0)
            if why:
                self.error = why
                return None
            before = set(glob.glob(os.path.join(into, "*.deb")))
            p = self.run("apt-get", ["download", "-q", spec], cwd=into)
            new = set(glob.glob(os.path.join(into, "*.deb"))) - before
            if p.returncode == 0 and new:
                return new.pop()
            self.error = (p.stderr.strip().splitlines() or ["no .deb"])[-1]
        return None

    def candidate(self, package):
        out = self.run("apt-cache", ["policy", package]).stdout
        m = re.search(r"^\s*Candidate:\s*(\S+)", out, re.M)
        return m.group(1) if m and m.group(1) != "(none)" else None

    def newest_of(self, series):
        """(package, version) of the newest package whose whole name
        matches the regular expression series, or None."""
        why = self.update()
        if why:
            self.error = why
            return None
        out = self.run("apt-cache", ["search", "--names-only", f"^{series}$"]).stdout
        best = None
        for name in sorted(set(l.split(" ", 1)[0] for l in out.splitlines())):
            version = self.candidate(name)
            if version and (best is None or newer(version, best[1])):
                best = (name, version)
        return best

    def source_versions(self, package):
        out = self.run("apt-cache", ["showsrc", package]).stdout
        found, name = set(), None
        for line in out.splitlines():
            if line.startswith("Package:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("Version:") and name == package:
                found.add(line.split(":", 1)[1].strip())
        return found

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
