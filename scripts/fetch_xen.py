#!/usr/bin/env python3
"""Fetch Xen for tests/run's xen-* targets: Debian's hypervisor package,
downloaded with apt-get download (never installed: nothing of it reaches
the host's /boot), unpacked into OUT, and its gzipped ELF decompressed to
OUT/xen.

  fetch_xen.py --package NAME --pinned VERSION --out DIR

The pinned version first; where the archive no longer has it, the newest
it has, and OUT/package says both, so that tests/run reports results that
differ as a changed Xen. Where neither can be had (no network, no apt),
OUT/unavailable says why, and the xen-* targets are unavailable with that
reason. Exit status 0 either way: make test goes on without them.
"""
import argparse
import glob
import gzip
import os
import shutil
import subprocess
import sys


def run(cmd, cwd, log):
    log.write("$ " + " ".join(cmd) + "\n")
    log.flush()
    return subprocess.run(cmd, cwd=cwd, stdout=log, stderr=log,
                          stdin=subprocess.DEVNULL).returncode == 0


def download(package, pinned, out, log):
    """The .deb's path, or None."""
    if not shutil.which("apt-get"):
        return None, "apt-get not found (the Xen targets need Debian's package)"
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    pinned_spec = f"{package}={pinned}"
    # The pinned version; then, the package lists refreshed once (they may
    # be missing or older than the pin), the pinned again; then the newest.
    steps = [[pinned_spec], sudo + ["apt-get", "update", "-qq"],
             [pinned_spec], [package]]
    for step in steps:
        if step[0] != package and not step[0].startswith(package + "="):
            run(step, out, log)
            continue
        for old in glob.glob(os.path.join(out, "*.deb")):
            os.unlink(old)
        if run(["apt-get", "download"] + step, out, log):
            debs = glob.glob(os.path.join(out, f"{package}_*.deb"))
            if debs:
                return debs[0], None
    return None, (f"apt-get download {package} failed (see "
                  f"{os.path.join(out, 'fetch.log')})")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--package", required=True)
    p.add_argument("--pinned", required=True)
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)
    for name in ("package", "unavailable", "xen"):
        if os.path.exists(os.path.join(a.out, name)):
            os.unlink(os.path.join(a.out, name))
    with open(os.path.join(a.out, "fetch.log"), "w") as log:
        deb, why = download(a.package, a.pinned, a.out, log)
        if deb:
            version = subprocess.run(["dpkg-deb", "-f", deb, "Version"],
                                     capture_output=True, text=True).stdout.strip()
            tree = os.path.join(a.out, "pkg")
            shutil.rmtree(tree, ignore_errors=True)
            if not run(["dpkg-deb", "-x", deb, tree], a.out, log):
                deb, why = None, f"dpkg-deb -x {deb} failed"
    if not deb:
        with open(os.path.join(a.out, "unavailable"), "w") as f:
            f.write(why + "\n")
        print(f"pmctest: no Xen for the xen-* targets: {why}", file=sys.stderr)
        return 0
    images = sorted(glob.glob(os.path.join(tree, "boot", "xen-*.gz")))
    if not images:
        with open(os.path.join(a.out, "unavailable"), "w") as f:
            f.write(f"{os.path.basename(deb)} holds no boot/xen-*.gz\n")
        return 0
    with gzip.open(images[0]) as src, open(os.path.join(a.out, "xen.tmp"), "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.rename(os.path.join(a.out, "xen.tmp"), os.path.join(a.out, "xen"))
    with open(os.path.join(a.out, "package"), "w") as f:
        f.write(f"{a.package} {a.pinned} {version}\n")
    if version != a.pinned:
        print(f"pmctest: {a.package} {a.pinned} is no longer in the archive; "
              f"fetched {version}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
