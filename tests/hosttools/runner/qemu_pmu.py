"""Why the QEMU with the TCG PMU (tests/qemu-pmu/) is not there."""
import os


def qemu_pmu_unavailable(binary):
    """The reason, in words a user can act on: the one make's build wrote
    beside the binary (no network, no apt), or that it is not built."""
    try:
        with open(os.path.join(os.path.dirname(binary), "unavailable")) as f:
            why = f.read().strip()
    except OSError:
        why = ""
    if why:
        return f"no QEMU with the TCG PMU: {why}"
    return (f"{binary} is not built (make qemu-pmu: Debian's QEMU source "
            "with tests/qemu-pmu/patches)")
