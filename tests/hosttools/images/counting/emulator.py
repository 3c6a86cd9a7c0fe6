"""What one counting emulator tells the build the two share: its names,
the Debian source it is built from, its own steps (fetch, configure) and
what its wrapper passes. hosttools/images/qemu_pmu/build.py and
bochs_pmu/build.py each make one."""
import inspect
import os
from dataclasses import dataclass
from typing import Callable

from ... import TESTS


@dataclass(frozen=True)
class Emulator:
    """One counting emulator, as the shared build (build.py) takes it."""

    # the cache entry's prefix (NAME-KEY/) and the messages': qemu-pmu
    name: str
    # what the messages call it: "QEMU with the TCG PMU"
    title: str
    # Debian's source package, the release (hosttools/images/archive.py)
    # whose source is built, and its upstream series taken where the
    # pinned version is gone: qemu, bookworm, 7.2
    package: str
    release: str
    upstream: str
    # the program built, cached as bin/BINARY and run as OUT/BINARY
    binary: str
    # its configure flags (OUT/info and the cache key)
    configure_flags: tuple
    # (archive, package, version, work, log): the unpacked tree, Debian's
    # patch series applied; raises build_log.BuildError
    fetch: Callable
    # (tree, configure_flags, version, key, log): the patched tree
    # configured, the build (version, key) named where the binary shows
    # it; the folder to build in; raises build_log.BuildError
    configure: Callable
    # what builds BINARY in that folder (ninja, make), and how long that
    # takes on 2 cores ("4-6 minutes")
    build_tool: str
    build_time: str
    # the other settings the cache key names ("CXXFLAGS -O2")
    settings: tuple = ()
    # what OUT/BINARY passes the binary before the caller's arguments
    wrapper_args: tuple = ()

    @property
    def patches(self):
        """The folder of our patches, tests/NAME/patches/ (its file series
        gives their order)."""
        return os.path.join(TESTS, self.name, "patches")

    @property
    def modules(self):
        """The folder of its own modules, where its steps are: part of the
        cache key."""
        return os.path.dirname(os.path.abspath(inspect.getfile(self.configure)))
