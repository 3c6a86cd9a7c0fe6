"""The cache of what make images builds, outside the clone (make clean
keeps it, a new clone reuses it): ${XDG_CACHE_HOME:-$HOME/.cache}/pmctest/.
An entry appears whole (renamed into place) or not at all, and a lock file
per entry makes a second build of it wait for the first instead of racing
it."""
import contextlib
import fcntl
import os


def default_root():
    base = os.environ.get("XDG_CACHE_HOME") or \
        os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pmctest")


def entry(root, key, name):
    """The cache entry of the build named name with this key."""
    return os.path.join(root, f"{name}-{key}")


def complete(path, binary):
    """Whether an entry holds its binary (bin/) and its info."""
    return os.access(os.path.join(path, "bin", binary), os.X_OK) and \
        os.path.isfile(os.path.join(path, "info"))


@contextlib.contextmanager
def locked(root, name, say):
    """Held while building the entry name; waits, saying so, for another
    build of it."""
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, f"{name}.lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say(f"another build of {name} is running: waiting for it")
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield
