"""tests/expect/TARGET: the failures a target is known for, and the tests
that stop it."""
import os

from .globs import glob_regex


class Expectation:
    def __init__(self, path, lineno, pattern, reason):
        self.where = f"{os.path.relpath(path)}:{lineno}"
        # '!GLOB': the target cannot run these at all (they stop the guest
        # or the emulator): the kernel is told exclude=GLOB.
        self.excluded = pattern.startswith("!")
        pattern = pattern.lstrip("!")
        self.pattern = pattern
        self.reason = reason
        self.regex = glob_regex(pattern)
        self.matched = []


def load_expectations(path):
    """Lines 'ID-or-GLOB  reason' (a failure the target is known for) or
    '!ID-or-GLOB  reason' (tests that stop the target: left out of its
    runs); '#' starts a comment; no file means no expectations."""
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                raise ValueError(f"{path}:{n}: '{parts[0]}' has no reason; "
                                 "write 'ID  reason from the diagnostic'")
            entries.append(Expectation(path, n, parts[0], parts[1]))
    return entries
