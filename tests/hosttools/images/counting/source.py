"""A counting emulator's Debian source through a sources list of our own
naming the release that has it (hosttools/images/archive.py): the pinned
version, or where the archive no longer has it the newest of the same
upstream series."""
import re

from ..archive import Archive, newer


class SourceArchive(Archive):
    """A release's deb and deb-src lists in ROOT/apt-RELEASE-src/, and the
    source versions of one upstream series (7.2: 1:7.2+dfsg-7+deb12u18)."""

    def __init__(self, root, release, upstream):
        super().__init__(root, release, sources=True)
        self.series = re.compile(rf"^(\d+:)?{re.escape(upstream)}[+~.-]")

    def choose(self, package, pinned):
        """The pinned version where the archive has it, else the newest of
        the upstream series; None where there is none."""
        versions = self.source_versions(package)
        if pinned in versions:
            return pinned
        best = None
        for v in versions:
            if self.series.match(v) and (best is None or newer(v, best)):
                best = v
        return best


def resolve(emulator, root, pinned, say):
    """(version, archive, why): why is None where the archive answered;
    offline, the version is the pinned one (a cached build of it still
    serves) and why says what failed; version None where the archive has
    no source of the upstream series at all."""
    archive = SourceArchive(root, emulator.release, emulator.upstream)
    why = archive.update()
    if why:
        say(f"{why}; looking for a cached build of {pinned}")
        return pinned, archive, why
    version = archive.choose(emulator.package, pinned)
    if version is None:
        return None, archive, (f"the archive has no {emulator.package} source of "
                               f"the {emulator.upstream} series in {emulator.release}")
    if version != pinned:
        say(f"{emulator.package} {pinned} is no longer in the archive; "
            f"taking {version}, the newest {emulator.upstream}")
    return version, archive, None
