"""The cache of what make images builds, outside the clone (make clean
keeps it, a new clone reuses it): ${XDG_CACHE_HOME:-$HOME/.cache}/pmctest/.
An entry appears whole (renamed into place) or not at all, and a lock file
per entry makes a second build of it wait for the first instead of racing
it."""
import contextlib
import fcntl
import hashlib
import os

OS_RELEASE = "/etc/os-release"


def default_root():
    base = os.environ.get("XDG_CACHE_HOME") or \
        os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pmctest")


def build_host():
    """The system a binary is built on, for the key of a build linked
    against its libraries: os-release's ID, VERSION_ID and
    VERSION_CODENAME ("debian 12 bookworm"), so that a cache carried over
    an upgrade (Debian 12 to 13) builds again rather than hand on a
    binary whose libraries are gone. "unknown" without the file."""
    fields = {}
    try:
        with open(OS_RELEASE, errors="replace") as f:
            for line in f:
                name, _, value = line.strip().partition("=")
                fields[name] = value.strip('"\'')
    except OSError:
        return "unknown"
    return " ".join(fields.get(k, "") for k in ("ID", "VERSION_ID", "VERSION_CODENAME"))


def build_key(source, files, settings):
    """16 hex digits of SHA-256 over what a build of ours depends on: the
    source line, each file (name, size, bytes), each setting line, and the
    system it is built on (build_host())."""
    h = hashlib.sha256()
    h.update(f"{source}\n".encode())
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        h.update(f"{os.path.basename(path)} {len(data)}\n".encode() + data)
    for line in settings + [f"host {build_host()}"]:
        h.update(f"{line}\n".encode())
    return h.hexdigest()[:16]


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
