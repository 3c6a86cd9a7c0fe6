"""Why the counting Bochs (tests/bochs-pmu/) is not there."""
import os


def bochs_pmu_unavailable(binary):
    """The reason, in words a user can act on: the one make's build wrote
    beside the binary (no network, no apt), or that it is not built."""
    try:
        with open(os.path.join(os.path.dirname(binary), "unavailable")) as f:
            why = f.read().strip()
    except OSError:
        why = ""
    if why:
        return f"no counting Bochs: {why}"
    return (f"{binary} is not built (make bochs-pmu: Debian's Bochs 3.0 "
            "source with tests/bochs-pmu/patches)")
