"""The cache of built emulators, outside the clone (make clean keeps it):
${XDG_CACHE_HOME:-$HOME/.cache}/pmctest/NAME-KEY/ (NAME qemu-pmu or
bochs-pmu), holding bin/ and info. An entry appears whole (renamed into
place) or not at all, and a lock file per key makes a second build of the
same key wait for the first instead of racing it."""
import contextlib
import fcntl
import os


def default_root():
    base = os.environ.get("XDG_CACHE_HOME") or \
        os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pmctest")


def entry(root, key, name="qemu-pmu"):
    return os.path.join(root, f"{name}-{key}")


def complete(path, binary):
    return os.access(os.path.join(path, "bin", binary), os.X_OK) and \
        os.path.isfile(os.path.join(path, "info"))


@contextlib.contextmanager
def locked(root, key, say, name="qemu-pmu"):
    """Held while building KEY; waits, saying so, for another build."""
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, f"{name}-{key}.lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say(f"another build of {name}-{key} is running: waiting for it")
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield
