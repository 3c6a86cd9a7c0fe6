"""Debian's QEMU source package through a private list that names its
release: archive.py's "bookworm" (bookworm, -updates, -security, types deb
and deb-src), whatever this machine's own release is, so that a Debian 13
host builds the same 7.2 a Debian 12 host does. Only the mirror's address
comes from this machine's apt sources; its apt configuration and package
lists are not touched."""
import os
import re

from ..archive import Archive, newer

# The release whose QEMU the patch series is written against (7.2).
RELEASE = "bookworm"
UPSTREAM_SERIES = re.compile(r"^(\d+:)?7\.2[+~.-]")


class SourceArchive(Archive):
    """apt-get and apt-cache on the private deb-src list of RELEASE, kept
    beside the folder where (its parent: the cache's root)."""

    def __init__(self, where):
        super().__init__(os.path.dirname(where), RELEASE, sources=True)

    def versions(self, package):
        return self.source_versions(package)

    def choose(self, package, pinned):
        """The pinned version where the archive has it, else the newest of
        the same upstream series (7.2); None where there is none."""
        versions = self.versions(package)
        if pinned in versions:
            return pinned
        best = None
        for v in versions:
            if UPSTREAM_SERIES.match(v) and (best is None or newer(v, best)):
                best = v
        return best
