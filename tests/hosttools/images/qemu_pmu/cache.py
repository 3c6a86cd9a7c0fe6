"""The QEMU with the TCG PMU's entries in the cache (hosttools/images/
cache.py): qemu-pmu-KEY/, holding bin/ and info."""
import os

from .. import cache


def entry(root, key):
    return os.path.join(root, f"qemu-pmu-{key}")


def complete(path, binary):
    return os.access(os.path.join(path, "bin", binary), os.X_OK) and \
        os.path.isfile(os.path.join(path, "info"))


def locked(root, key, say):
    """Held while building KEY; waits, saying so, for another build."""
    return cache.locked(root, f"qemu-pmu-{key}", say)
