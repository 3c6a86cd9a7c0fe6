"""The QEMU with the TCG PMU's entries in the cache (hosttools/images/
cache.py): qemu-pmu-KEY/, holding bin/ and info."""
from .. import cache


def entry(root, key):
    return cache.entry(root, key, "qemu-pmu")


def complete(path, binary):
    return cache.complete(path, binary)


def locked(root, key, say):
    """Held while building KEY; waits, saying so, for another build."""
    return cache.locked(root, f"qemu-pmu-{key}", say)
