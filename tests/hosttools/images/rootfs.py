"""A throwaway Debian root of a named release (bookworm, trixie): made once
by debootstrap from the release's own suites on this machine's Debian
mirror (hosttools/images/archive.py: only the mirror's address is this
machine's) and kept as a tarball in the user's cache (outside the clone,
so `make clean` keeps it), unpacked for a run, entered through a private
mount and PID namespace, and removed without ever crossing into a mount.

Safety, since this runs as root with the host's /dev bound in: every bind
is made inside `unshare --mount --pid --fork --kill-child --propagation
private`, so no mount is ever visible outside it and all of them, with
every process started inside, end when the namespace's first process does
(a SIGKILL to unshare included). A root is deleted only with
`rm --one-file-system`, and only after /proc/self/mountinfo shows nothing
mounted under it.
"""
import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time

from .. import procs
from .archive import KEYRING, RELEASES, mirror_host

# The release a root is of unless its caller names one: Debian 12, whose
# LAVA (2023.01) the lab and the LAVA steps run.
RELEASE = "bookworm"
# The releases a root can be made of (make clean-room RELEASE=...).
ROOT_RELEASES = ("bookworm", "trixie")
# Bump when the recipe below changes what a cached root holds.
RECIPE = "2"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class RootError(Exception):
    """A root that cannot be made, entered or removed: the reason."""


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pmctest", "rootfs")


def debian_sources(release):
    """The release's suites on this machine's mirror: a list of (uri,
    suites, components), one per archive (debian, debian-security)."""
    if release not in ROOT_RELEASES:
        raise RootError(f"no root of release {release!r}: {', '.join(ROOT_RELEASES)}")
    host, by_archive = mirror_host(), {}
    for archive, suite in RELEASES[release]:
        by_archive.setdefault(archive, []).append(suite)
    return [(f"{host}/{archive}", suites, ["main"]) for archive, suites in by_archive.items()]


def apt_proxy_lines():
    """This machine's apt proxy settings (Acquire::*::Proxy), as apt.conf lines."""
    try:
        out = subprocess.run(["apt-config", "dump"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line for line in out.splitlines()
            if re.match(r'Acquire::[a-z]+::Proxy(::\S+)? "', line, re.I)]


def proxy_environment():
    return {k: v for k, v in os.environ.items()
            if k.lower() in ("http_proxy", "https_proxy", "no_proxy")}


def sources_file(sources):
    """The root's own /etc/apt/sources.list.d/debian.sources."""
    stanzas = []
    for uri, suites, components in sources:
        stanzas.append(f"Types: deb\nURIs: {uri}\nSuites: {' '.join(suites)}\n"
                       f"Components: {' '.join(components)}\n"
                       f"Signed-By: {KEYRING}\n")
    return "\n".join(stanzas)


def tarball(include, release):
    """The cached root's path for these packages, and the sources it is made from."""
    sources = debian_sources(release)
    key = hashlib.sha256(repr((release, "minbase", sorted(include), sources, RECIPE))
                         .encode()).hexdigest()[:16]
    return os.path.join(cache_dir(), f"{release}-minbase-{key}.tar.gz"), sources


def build(path, release, sources, include, say):
    """debootstrap a minbase root of release with include, its apt
    sources the release's suites on this machine's mirror, its proxy this
    machine's, into the tarball path."""
    work = tempfile.mkdtemp(prefix="make-", dir=os.path.dirname(path))
    root = os.path.join(work, "root")
    try:
        # debootstrap mounts /proc and /sys in the root: in a namespace of
        # its own, so that a debootstrap that fails leaves no mount behind.
        code, out = procs.run(["unshare", "--mount", "--propagation", "private",
                               "debootstrap", "--variant=minbase",
                               f"--include={','.join(include)}", release, root,
                               sources[0][0]], timeout=1800,
                              text=True, errors="replace")
        if code != 0:
            raise RootError(f"debootstrap failed (exit {code}): "
                            + " | ".join(out.strip().splitlines()[-3:]))
        apt = os.path.join(root, "etc", "apt")
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(apt, "sources.list"))
        with open(os.path.join(apt, "sources.list.d", "debian.sources"), "w") as f:
            f.write(sources_file(sources))
        proxy = apt_proxy_lines()
        if proxy:
            with open(os.path.join(apt, "apt.conf.d", "01proxy"), "w") as f:
                f.write("\n".join(proxy) + "\n")
        # no service starts by itself in the root
        policy = os.path.join(root, "usr", "sbin", "policy-rc.d")
        with open(policy, "w") as f:
            f.write("#!/bin/sh\nexit 101\n")
        os.chmod(policy, 0o755)
        pack(root, path)
        say(f"cached {path}")
    finally:
        remove(work)


@contextlib.contextmanager
def locked(path):
    """path's lock held: one make builds a cached root at a time."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def cached(include, say, release=RELEASE):
    """The tarball of a minbase root of release with include, built if not
    cached; (path, built now)."""
    path, sources = tarball(include, release)
    with locked(path):
        if os.path.exists(path):
            return path, False
        say(f"making a minbase {release} root (debootstrap, once: cached)")
        build(path, release, sources, include, say)
        return path, True


def layer_path(base, name, packages, recipe):
    """The cached tarball of base (a cached root's tarball) with packages
    installed by the shell script recipe."""
    key = hashlib.sha256(repr((os.path.basename(base), sorted(packages), recipe))
                         .encode()).hexdigest()[:16]
    release = os.path.basename(base).split("-", 1)[0]
    return os.path.join(cache_dir(), f"{release}-{name}-{key}.tar.zst")


def cached_layer(base, name, packages, recipe, log_path, say, timeout=3600):
    """The tarball of base with recipe run in it (sh -c recipe, $@ the
    packages; this machine's network), built if not cached; (path, built
    now). The recipe's output goes to log_path."""
    path = layer_path(base, name, packages, recipe)
    with locked(path):
        if os.path.exists(path):
            return path, False
        work = work_folder()
        try:
            root = unpack(base, work)
            with open(log_path, "w") as log:
                code = run_in(root, ["sh", "-c", recipe, name, *sorted(packages)],
                              {}, log, timeout)
            if code != 0:
                state = "timed out" if code is None else f"exit {code}"
                raise RootError(f"installing the {name} layer failed ({state}; log: {log_path})")
            pack(root, path)
            say(f"cached {path}")
        finally:
            remove(work)
        return path, True


def compressor(path):
    """tar's option for the tarball path: zstd on all cores for a .tar.zst
    (a layer of a GiB or more unpacks in seconds), else gzip."""
    return ["-I", "zstd -T0"] if path.endswith(".zst") else ["-z"]


def pack(root, path):
    """root (with nothing mounted in it) into the tarball path, atomically."""
    part = path + ".part"
    try:
        code, out = procs.run(["tar", "--numeric-owner", "--one-file-system", *compressor(path),
                               "-cf", part, "-C", root, "."], timeout=1200,
                              text=True, errors="replace")
        if code != 0:
            raise RootError(f"tar failed (exit {code}): {out.strip()[-300:]}")
        os.replace(part, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(part)         # a tar that failed or was stopped


def untar(path, folder):
    code, out = procs.run(["tar", "--numeric-owner", *compressor(path), "-xpf", path,
                           "-C", folder], timeout=1200, text=True, errors="replace")
    if code != 0:
        raise RootError(f"cannot unpack {path} (exit {code}): {out.strip()[-300:]}")


def unpack(path, into):
    root = os.path.join(into, "root")
    os.mkdir(root)
    untar(path, root)
    return root


def tree(path, say):
    """The tarball path unpacked once into the cache beside it (for
    overlay roots, whose runs then unpack nothing): the folder."""
    folder = re.sub(r"\.tar\.\w+$", "", path) + ".tree"
    done = folder + ".done"
    with locked(path):
        if os.path.exists(done):
            return folder
        remove(folder)          # one a killed unpack left half-made
        os.mkdir(folder)
        try:
            untar(path, folder)
        except BaseException:   # failed, or stopped by a signal
            remove(folder)
            raise
        with open(done, "w"):
            pass
        say(f"unpacked {os.path.basename(path)} into the cache once")
    return folder


def overlay(into):
    """An overlay root in the folder into: (root, upper). The root is the
    mount point command_in(..., lower=TREE) mounts the overlay on, inside
    its namespace; what the root's processes write lands in upper, which
    is also where files are put in before (the tree is never written)."""
    parts = [os.path.join(into, name) for name in ("root", "upper", "ovl")]
    for folder in parts:
        os.mkdir(folder)
    return parts[0], parts[1]


def mounts_under(root):
    """The mount points this process sees at or under root."""
    root = os.path.realpath(root)
    points = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            point = line.split()[4].encode().decode("unicode_escape")
            if point == root or point.startswith(root + "/"):
                points.append(point)
    return points


def users(folder):
    """The PIDs whose root or working folder lies under folder."""
    folder = os.path.realpath(folder)
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        for link in ("root", "cwd"):
            try:
                where = os.readlink(f"/proc/{pid}/{link}")
            except OSError:
                continue        # gone, or a kernel thread
            if where == folder or where.startswith(folder + "/"):
                found.append(int(pid))
                break
    return found


def remove(folder, wait=30):
    """folder deleted, never across a mount: refused while one is under it,
    or while a process still runs in it after wait seconds (a namespace
    whose first process was killed ends its others a moment later)."""
    if not os.path.lexists(folder):
        return
    deadline = time.monotonic() + wait
    while users(folder) and time.monotonic() < deadline:
        time.sleep(0.2)
    running = users(folder)
    if running:
        raise RootError(f"not removing {folder}: processes still run in it: {running[:10]}")
    left = mounts_under(folder)
    if left:
        raise RootError(f"not removing {folder}: still mounted under it: {', '.join(left)}")
    # not through procs: this also runs when a signal has stopped it
    r = subprocess.run(["rm", "-rf", "--one-file-system", folder], capture_output=True,
                       text=True, errors="replace", timeout=600)
    if r.returncode != 0 or os.path.lexists(folder):
        raise RootError(f"cannot remove {folder} (exit {r.returncode}): {r.stderr.strip()[-300:]}")


# Run inside the namespaces: the root's /proc (this PID namespace's), /sys
# and /dev bound in, then the command in the root as root with a clean
# environment. "$@": net (1 in a network namespace of its own, whose
# loopback is brought up), lower (a tree: an overlay of it and the root's
# ../upper is mounted on the root; empty: the root is a plain folder, bound
# onto itself, so that its / is a mount point: unshare --propagation, as
# debootstrap's and a nested root's use it, refuses a / that is not),
# binds (folders of this machine, one a line, each bound at its own path
# in the root), root, then the command's words.
ENTER = r'''
set -e
net=$1; lower=$2; binds=$3; root=$4; shift 4
if [ "$net" = 1 ]; then ip link set lo up; fi
if [ -n "$lower" ]; then
    mount -t overlay overlay \
        -o "lowerdir=$lower,upperdir=$root/../upper,workdir=$root/../ovl" "$root"
else
    mount --bind "$root" "$root"
fi
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
printf '%s\n' "$binds" | while IFS= read -r folder; do
    if [ -n "$folder" ]; then
        mkdir -p "$root$folder"
        mount --bind "$folder" "$root$folder"
    fi
done
exec chroot "$root" "$@"
'''


def command_in(root, words, env, net=False, lower=None, binds=()):
    """The command line that runs words in root, inside new namespaces;
    net: in a network namespace of its own too (only its loopback, up);
    lower: root is overlay()'s, over this tree; binds: folders of this
    machine (absolute paths) bound at the same paths in the root."""
    binds = sorted({os.path.abspath(b) for b in binds})
    bad = [b for b in binds if "\n" in b or not os.path.isdir(b)]
    if bad:
        raise RootError(f"cannot bind {bad[0]!r} into a root: not a folder")
    assignments = [f"{k}={v}" for k, v in sorted(env.items())]
    return ["unshare", "--mount", "--pid", "--fork", "--kill-child",
            *(["--net"] if net else []),
            "--propagation", "private", "sh", "-c", ENTER, "enter", "1" if net else "0",
            lower or "", "\n".join(binds), root,
            "/usr/bin/env", "-i", f"PATH={PATH}", "HOME=/root", "LANG=C.UTF-8",
            *assignments, *words]


def run_in(root, words, env, log, timeout, net=False, lower=None):
    """words run in root (see command_in), stdout and stderr to the open file
    log; the exit status (None when timeout ran out: all of it is killed)."""
    proc = procs.start(command_in(root, words, {**proxy_environment(), **env}, net, lower),
                       stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    finally:
        procs.done(proc)


def work_folder():
    """A new folder for one unpacked root, on disk (not a tmpfs)."""
    base = os.environ.get("PMCTEST_ROOTFS_TMP", "/var/tmp")
    return tempfile.mkdtemp(prefix="pmctest-root-", dir=base)


def need_root():
    if os.geteuid() != 0:
        return "a throwaway root needs root (debootstrap, chroot, mounts): run it as root"
    missing = [t for t in ("debootstrap", "unshare", "chroot", "tar") if not shutil.which(t)]
    return f"missing: {', '.join(missing)}" if missing else None
