"""LAVA 2023.01 (Debian 12's lava-dispatcher and its QEMU 7.2) in a
throwaway bookworm root, whatever this machine's release: Debian 13 ships
no LAVA dispatcher or server, so make lava, make test's LAVA steps and the
lab (tests/lava_lab.py, a layer over this one) run LAVA the same way on a
Debian 12 host and a Debian 13 host.

The root is the clean room's minbase bookworm root (rootfs.cached) with
lava-dispatcher and qemu-system-x86 installed, cached in
~/.cache/pmctest/rootfs/ as a tarball and unpacked once into a tree beside
it. A Dispatcher mounts an overlay over that tree (the cache is never
written) inside a private mount and PID namespace for each command, with
the folders the command reads and writes bound in at their own paths.
Nothing of it is installed on this machine."""
import os
import subprocess

from .. import procs
from . import rootfs
from .rootfs import RootError  # noqa: F401 (what a Dispatcher raises)

RELEASE = "bookworm"
# the clean room's root (tests/clean_room.py): one debootstrap for both
BASE_INCLUDE = ["git", "make", "ca-certificates"]
PACKAGES = ["lava-dispatcher", "qemu-system-x86"]
# sh -c INSTALL lava PACKAGE...: run once in the root, this machine's network;
# without what the packages recommend (through libguestfs that would be a
# Linux kernel: it would stay in the root, but costs minutes)
INSTALL = """set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get -q update
apt-get -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 install "$@"
apt-get clean
rm -rf /var/lib/apt/lists/*
"""
# seconds the first install may take (a bookworm root, then the layer)
INSTALL_TIMEOUT = 1800


def cached(log_path, say):
    """The LAVA root's tarball, built if not cached: (path, built now)."""
    base, built_base = rootfs.cached(BASE_INCLUDE, say, RELEASE)
    layer, built = rootfs.cached_layer(base, "lava", PACKAGES, INSTALL, log_path,
                                       say, timeout=INSTALL_TIMEOUT)
    return layer, built or built_base


def why_not():
    """Why no LAVA root can be made or entered here, or None."""
    return rootfs.need_root()


class Dispatcher:
    """LAVA's root for a run of commands (a context manager): one overlay
    over the cached tree, which every command of the run shares, removed
    when the run ends."""

    def __init__(self, log_path, say, binds=()):
        """binds: folders of this machine every command has at their own
        paths (with those its run() names)."""
        self.log_path, self.say, self.binds = log_path, say, list(binds)
        self.work = self.root = self.tree = None

    def __enter__(self):
        tarball, built = cached(self.log_path, self.say)
        if built:
            self.say(f"LAVA's root (bookworm, {' '.join(PACKAGES)}) cached: "
                     f"{os.path.basename(tarball)}")
        self.tree = rootfs.tree(tarball, self.say)
        self.work = rootfs.work_folder()
        try:
            self.root, _ = rootfs.overlay(self.work)
        except BaseException:
            rootfs.remove(self.work)
            raise
        return self

    def __exit__(self, *exc):
        rootfs.remove(self.work)
        return False

    def run(self, words, binds=(), timeout=600, env=None):
        """words run in the root with binds (folders of this machine) at
        their own paths: a CompletedProcess with its text output; status
        None where timeout ran out (all of it killed)."""
        cmd = rootfs.command_in(self.root, words, {**rootfs.proxy_environment(),
                                                   **(env or {})},
                                lower=self.tree, binds=self.binds + list(binds))
        proc = procs.start(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, errors="replace")
        timed_out = False
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            procs.kill(proc)
            out, err = proc.communicate()
        finally:
            procs.done(proc)
        return subprocess.CompletedProcess(words, None if timed_out else proc.returncode,
                                           out, err)
