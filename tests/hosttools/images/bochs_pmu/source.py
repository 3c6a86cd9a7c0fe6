"""Debian's Bochs 3.0 source, fetched from the release that has it
(trixie) through the counting emulators' archive
(hosttools/images/counting/source.py): its tarballs fetched with apt-get
and held to the SHA-256 of the release's Sources index, unpacked, and
Debian's quilt series applied with patch. The archive serves the tarballs
but not the .dsc, so apt-get source cannot unpack it (dpkg-source needs
the .dsc) and fails after the download; its status is not what decides."""
import hashlib
import os
import re

from ..counting.build_log import BuildError, run_logged


def checksums(archive, package, version):
    """{file name: (size, SHA-256)} of VERSION in the Sources index."""
    out = archive.run("apt-cache", ["showsrc", package]).stdout
    found, stanza = {}, []
    for block in out.split("\n\n"):
        if re.search(rf"^Package: {re.escape(package)}$", block, re.M) and \
                re.search(rf"^Version: {re.escape(version)}$", block, re.M):
            stanza = block.splitlines()
    inside = False
    for line in stanza:
        if line.startswith("Checksums-Sha256:"):
            inside = True
        elif inside and line.startswith(" "):
            digest, size, name = line.split()
            found[name] = (int(size), digest)
        else:
            inside = False
    return found


def download(archive, package, version, into, log):
    """The tarballs of VERSION in INTO, each checked against the index:
    {name: path}; BuildError names what is missing or differs."""
    want = {n: v for n, v in checksums(archive, package, version).items()
            if not n.endswith(".dsc")}
    if not any(n.endswith((".orig.tar.xz", ".orig.tar.gz")) for n in want):
        raise BuildError(f"the Sources index of {archive.release} lists no "
                         f"orig tarball of {package} {version}")
    # apt-get checks what it fetches against the index too, and fails
    # on the .dsc the archive does not serve (404)
    archive.run("apt-get", ["source", "--download-only", "-q",
                            f"{package}={version}"], cwd=into, log=log)
    paths = {}
    for name, (size, digest) in sorted(want.items()):
        path = os.path.join(into, name)
        if not os.path.isfile(path):
            raise BuildError(f"apt-get source did not fetch {name}")
        got = sha256(path)
        if got != digest or os.path.getsize(path) != size:
            raise BuildError(f"{name}: SHA-256 {got}, {os.path.getsize(path)} "
                             f"bytes; the Sources index of {archive.release} "
                             f"says {digest}, {size} bytes")
        paths[name] = path
    return paths


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def quilt_series(tree):
    """Debian's patches in debian/patches/series order, with their -p
    level (quilt's default 1)."""
    where = os.path.join(tree, "debian", "patches")
    try:
        with open(os.path.join(where, "series")) as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    patches = []
    for line in lines:
        words = line.split("#", 1)[0].split()
        if words:
            level = next((w[2:] for w in words[1:] if w.startswith("-p")), "1")
            patches.append((os.path.join(where, words[0]), level))
    return patches


def unpack(paths, into, log):
    """The orig tarball unpacked, the Debian tarball into it, and Debian's
    series applied: the tree."""
    orig = next(p for n, p in paths.items() if ".orig.tar." in n)
    debian = [p for n, p in paths.items() if ".debian.tar." in n]
    before = set(os.listdir(into))
    run_logged(["tar", "-xf", orig], into, log,
               f"tar could not unpack {os.path.basename(orig)}")
    trees = [d for d in set(os.listdir(into)) - before
             if os.path.isdir(os.path.join(into, d))]
    if len(trees) != 1:
        raise BuildError(f"{os.path.basename(orig)} holds {len(trees)} "
                         "top folders, not 1")
    tree = os.path.join(into, trees[0])
    for path in debian:
        run_logged(["tar", "-xf", path], tree, log,
                   f"tar could not unpack {os.path.basename(path)}")
    for patch, level in quilt_series(tree):
        run_logged(["patch", f"-p{level}", "--batch", "--forward", "-i", patch],
                   tree, log, f"Debian's {os.path.basename(patch)} does not apply")
    return tree


def fetch(archive, package, version, work, log):
    """The tarballs of VERSION fetched and checked in WORK, unpacked,
    Debian's series applied: the tree."""
    return unpack(download(archive, package, version, work, log), work, log)
