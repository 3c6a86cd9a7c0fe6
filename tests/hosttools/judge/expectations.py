"""tests/expect/TARGET: the failures a target is known for, and the tests
that stop it."""
import os
import re

from .globs import test_glob


class Expectation:
    def __init__(self, path, lineno, pattern, reason):
        self.where = f"{os.path.relpath(path)}:{lineno}"
        # '!GLOB': the target cannot run these at all (they stop the guest
        # or the emulator): the kernel is told exclude=GLOB.
        self.excluded = pattern.startswith("!")
        pattern = pattern.lstrip("!")
        self.pattern = pattern
        self.reason = reason
        # an '@cpuN' ID of an AP matches as tests= would (runner/globs.py)
        self.regex = test_glob(pattern)
        self.matched = []


HOST_LINE = "# host: "
HEADER_LINE = "# header: "


def required_header(path):
    """The lines the kernel's header must hold on this target (its
    "# header: " lines, each a whole line of the log), in order."""
    try:
        with open(path) as f:
            return [line[len(HEADER_LINE):].rstrip("\n") for line in f
                    if line.startswith(HEADER_LINE)]
    except OSError:
        return []


def recorded_host(path):
    """What the file was recorded on (its "# host: " line), or None."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(HOST_LINE):
                    return line[len(HOST_LINE):].strip()
    except OSError:
        pass
    return None


def host_suffix(host):
    """The file-name suffix of a host variant: "QEMU 10.0" -> "qemu-10.0"."""
    return re.sub(r"[^a-z0-9.]+", "-", host.lower()).strip("-.")


def expectation_file(folder, name, host):
    """The path of target file name's expectations for host (the words
    of a "# host:" line, as the kind says them before the boot): name
    itself where it was recorded on host, else the one of its host
    variants (files name.WORDS beside it: qemu-tcg-max.qemu-10.0) that
    was, else name (a run on another host then reads as one)."""
    base = os.path.join(folder, name)
    if not host or recorded_host(base) == host:
        return base
    try:
        entries = sorted(os.listdir(folder))
    except OSError:
        return base
    for entry in entries:
        path = os.path.join(folder, entry)
        if entry.startswith(name + ".") and recorded_host(path) == host:
            return path
    return base


def load_expectations(path, missing_ok=False):
    """Lines 'ID-or-GLOB  reason' (a failure the target is known for; a
    GLOB without '@' names the test on every CPU, priv.*@cpu2 on CPU 2) or
    '!ID-or-GLOB  reason' (tests that stop the target: left out of its
    runs); '#' starts a comment, the comment "# host: ..." names what
    the results were recorded on (target_run holds it against the run's
    host), and each "# header: LINE" a line the kernel's header must
    write (a mode the target's command line asks for: a run without it
    is a mismatch, so that the route cannot fall back unseen). A target that should pass everything has
    an empty file: a missing one is an error (ValueError), unless
    missing_ok (--suggest-expectations writes the first one)."""
    entries = []
    if os.path.isdir(path):
        raise ValueError(f"{path} is a directory, not an expectation file")
    if not os.path.isfile(path):
        if missing_ok:
            return entries
        what = "is a dangling link" if os.path.islink(path) else "does not exist"
        raise ValueError(f"{path} {what}: write the target's expectations "
                         "there (an empty file: it should pass everything)")
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
