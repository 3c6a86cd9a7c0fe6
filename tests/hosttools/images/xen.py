"""Debian's Xen for the xen-* targets: one hypervisor package per version
of Xen the targets run, pinned, fetched with apt-get download from the
Debian release that has it (a private sources list:
hosttools/images/archive.py), never installed, its gzipped ELF
decompressed. Each version is fetched once into the cache outside the
clone (hosttools/images/cache.py: xen-VERSION-KEY/, KEY over the pin and
this module) and copied from there into make's BUILD/xen-VERSION/: a new
clone, or one after make clean, fetches nothing again.

  BUILD/xen-VERSION/xen        the ELF QEMU boots (-kernel)
  BUILD/xen-VERSION/xen.txt    key=value lines: package, version (what
                               was fetched), pinned, release, image
  BUILD/xen-VERSION/unavailable  why it could not be had (no network,
                               no apt-get): the targets of that version
                               are unavailable with that reason

version in VERSIONS is the one the expectation files of that version's
targets were recorded on. Where the archive no longer has it, the newest
package of its series is taken, xen.txt says both, and the runner
reports a change in results as a changed Xen. Both come from a stable
release, whose Release file never expires and whose pool keeps a build
until the next point release; a machine that fetched it keeps it in the
cache. (4.20 came from sid first: sid keeps only its newest build, and a
mirror that stops following sid serves a Release file apt refuses as
expired, so a new machine could not fetch it at all.)"""
import glob
import gzip
import hashlib
import os
import re
import shutil
import tempfile

from . import cache
from .nested.debs import Debs, unpack

VERSIONS = {
    "4.17": dict(release="bookworm", package="xen-hypervisor-4.17-amd64",
                 version="4.17.7+13-g2445b30a44-0+deb12u1",
                 series=r"xen-hypervisor-4\.17-amd64"),
    "4.20": dict(release="trixie", package="xen-hypervisor-4.20-amd64",
                 version="4.20.4+63-g7abfd2bce2-0+deb13u1",
                 series=r"xen-hypervisor-4\.20-amd64"),
}
# the version an image of your own stands for where none is named
# (tests/run --xen PATH, make XEN=path): the first targets' Xen
DEFAULT_VERSION = "4.17"
INFO = "xen.txt"
UNAVAILABLE = "unavailable"
IMAGE = "xen"


def image_dir(build, version):
    """Where make puts Debian's Xen VERSION: BUILD/xen-VERSION."""
    return os.path.join(build, f"xen-{version}")


def image_path(build, version):
    return os.path.join(image_dir(build, version), IMAGE)


def own_image(text):
    """(version, path) of tests/run's --xen [VERSION=]PATH: a Xen of your
    own for the targets of VERSION (DEFAULT_VERSION where it names none).
    ValueError names the versions there are."""
    version, sep, path = text.partition("=")
    if not sep or not re.fullmatch(r"\d+\.\d+", version):
        version, path = DEFAULT_VERSION, text
    if version not in VERSIONS:
        raise ValueError(f"--xen {text}: no Xen targets of version {version!r} "
                         f"(the versions: {', '.join(VERSIONS)})")
    if not path:
        raise ValueError(f"--xen {text}: no path after {version}=")
    return version, os.path.abspath(path)


def read_info(folder):
    """xen.txt of a fetched folder as a dict, or None."""
    try:
        with open(os.path.join(folder, INFO)) as f:
            info = dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
    except OSError:
        return None
    return info if os.path.isfile(os.path.join(folder, IMAGE)) else None


def unavailable(folder):
    """Why the fetch of this folder could not be had, if it said."""
    try:
        with open(os.path.join(folder, UNAVAILABLE)) as f:
            return f.read().strip() or None
    except OSError:
        return None


def entry_key(version):
    """16 hex digits over what an entry is made of: the pin and this
    module."""
    h = hashlib.sha256(repr(sorted(VERSIONS[version].items())).encode())
    with open(os.path.abspath(__file__), "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def fetch(version, out, say, root=None):
    """Debian's Xen VERSION into out, copied from the cache (fetched there
    first where it is not): its xen.txt as a dict. Where it cannot be had,
    out/unavailable says why and ValueError is raised with it."""
    if version not in VERSIONS:
        raise ValueError(f"no Xen {version!r} is pinned: {', '.join(VERSIONS)}")
    root = root or cache.default_root()
    entry = os.path.join(root, f"xen-{version}-{entry_key(version)}")
    for name in (IMAGE, INFO, UNAVAILABLE):
        if os.path.exists(os.path.join(out, name)):
            os.unlink(os.path.join(out, name))
    try:
        if read_info(entry):
            say(f"{entry}: Xen {version}, cached")
        else:
            with cache.locked(root, os.path.basename(entry), say):
                if not read_info(entry):
                    fetch_entry(version, entry, root, say)
    except (ValueError, OSError) as e:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, UNAVAILABLE), "w") as f:
            f.write(f"{e}\n")
        raise ValueError(str(e)) from e
    # the copy appears whole or not at all: xen.txt says it is there
    shutil.rmtree(out + ".tmp", ignore_errors=True)
    shutil.copytree(entry, out + ".tmp")
    shutil.rmtree(out, ignore_errors=True)
    os.rename(out + ".tmp", out)
    return read_info(out)


def fetch_pinned(debs, pin, say):
    """The pinned package, else the newest of its series: (deb path,
    package, version)."""
    try:
        deb, version = debs.fetch(pin["package"], pin["version"])
        return deb, pin["package"], version
    except ValueError as e:
        say(f"{e}; taking the newest of {pin['series']}")
    found = debs.archive.newest_of(pin["series"])
    if not found:
        raise ValueError(f"no {pin['package']} from {pin['release']}, neither "
                         f"{pin['version']} nor the newest of its series: "
                         f"{debs.archive.error or 'no package matches ' + pin['series']}")
    deb, version = debs.fetch(*found)
    return deb, found[0], version


def fetch_entry(version, entry, root, say):
    """Fetch and unpack Xen VERSION into the cache entry (renamed into
    place whole)."""
    pin = VERSIONS[version]
    if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
        raise ValueError("apt-get or dpkg-deb not found (the Xen targets "
                         "need Debian's package)")
    work = tempfile.mkdtemp(prefix="xen-", dir=root)
    try:
        deb, package, got = fetch_pinned(Debs(root, pin["release"], say), pin, say)
        tree = os.path.join(work, "pkg")
        unpack(deb, tree, ["*/boot/xen-*.gz"])
        images = sorted(glob.glob(os.path.join(tree, "boot", "xen-*.gz")))
        if not images:
            raise ValueError(f"{os.path.basename(deb)} holds no boot/xen-*.gz")
        staging = os.path.join(work, "entry")
        os.makedirs(staging)
        with gzip.open(images[0]) as src, \
                open(os.path.join(staging, IMAGE), "wb") as dst:
            shutil.copyfileobj(src, dst)
        with open(os.path.join(staging, INFO), "w") as f:
            f.write(f"package={package}\nversion={got}\n"
                    f"pinned={pin['package']} {pin['version']}\n"
                    f"release={pin['release']}\n"
                    f"image=boot/{os.path.basename(images[0])}\n")
        if got != pin["version"]:
            say(f"{pin['package']} {pin['version']} is no longer in "
                f"{pin['release']}; fetched {package} {got}")
        os.rename(staging, entry)
    finally:
        shutil.rmtree(work, ignore_errors=True)
