"""Build the QEMU with the TCG PMU into the cache, once per key, and point
OUT at it: OUT/qemu-system-x86_64 runs the cached binary with Debian's ROM
folders (-L), OUT/info says what it is. Where the source cannot be had (no
network, no apt) and nothing is cached, OUT/unavailable says why and the
targets that need it are unavailable with that reason."""
import json
import os
import shlex
import shutil
import subprocess
import time

from . import cache, recipe
from .apt_source import SourceArchive


class BuildError(Exception):
    """The build itself failed: the message names the log."""


def resolve(root, pinned, say):
    """(version, archive, why): why is None where the archive answered;
    offline, the version is the pinned one (a cached build of it still
    serves) and why says what failed; version None where the archive has
    no 7.2 source at all."""
    archive = SourceArchive(os.path.join(root, "apt"))
    why = archive.update()
    if why:
        say(f"{why}; looking for a cached build of {pinned}")
        return pinned, archive, why
    version = archive.choose(recipe.PACKAGE, pinned)
    if version is None:
        return None, archive, (f"the archive has no {recipe.PACKAGE} source "
                               "of the 7.2 series")
    if version != pinned:
        say(f"{recipe.PACKAGE} {pinned} is no longer in the archive; "
            f"taking {version}, the newest 7.2")
    return version, archive, None


def run_logged(cmd, cwd, log):
    log.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
    log.flush()
    return subprocess.run(cmd, cwd=cwd, stdout=log, stderr=log,
                          stdin=subprocess.DEVNULL).returncode == 0


def build_entry(archive, version, key, path, say):
    """Fetch, patch, configure, build; the entry renamed into place."""
    work = path + ".work"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    log_path = os.path.join(work, "build.log")
    started = time.monotonic()
    with open(log_path, "w") as log:
        say(f"fetching Debian's {recipe.PACKAGE} {version} source")
        tree = archive.source(recipe.PACKAGE, version, work, log)
        if tree is None:
            raise BuildError(f"apt-get source {recipe.PACKAGE}={version} "
                             f"failed (see {log_path})")
        for patch in recipe.series():
            if not run_logged(["patch", "-p1", "--batch", "--forward", "-i",
                               patch], tree, log):
                raise BuildError(f"{os.path.basename(patch)} does not apply "
                                 f"to {version} (see {log_path})")
        build = os.path.join(work, "build")
        os.makedirs(build)
        say(f"configuring ({' '.join(recipe.CONFIGURE)})")
        configure = [os.path.join(tree, "configure")] + recipe.CONFIGURE + \
            [f"--with-pkgversion={recipe.pkgversion(version, key)}"]
        if not run_logged(configure, build, log):
            raise BuildError(f"configure failed (see {log_path})")
        say(f"building {recipe.BINARY} on {os.cpu_count()} cores "
            "(about 4-6 minutes on 2)")
        if not run_logged(["ninja", f"-j{os.cpu_count() or 1}",
                           recipe.BINARY], build, log):
            raise BuildError(f"the build failed (see {log_path})")
    seconds = round(time.monotonic() - started)
    staging = path + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "bin"))
    shutil.copy2(os.path.join(build, recipe.BINARY),
                 os.path.join(staging, "bin", recipe.BINARY))
    info = dict(source=f"{recipe.PACKAGE} {version}", key=key,
                patches=[os.path.basename(p) for p in recipe.series()],
                configure=recipe.CONFIGURE, build_seconds=seconds)
    with open(os.path.join(staging, "info"), "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    os.rename(staging, path)
    shutil.rmtree(work, ignore_errors=True)
    say(f"built in {seconds} s: {path}")


def point_out_at(path, out):
    """OUT/qemu-system-x86_64: the cached binary with Debian's ROMs."""
    binary = os.path.join(path, "bin", recipe.BINARY)
    roms = " ".join(f"-L {shlex.quote(d)}" for d in recipe.DEBIAN_ROMS)
    wrapper = os.path.join(out, recipe.BINARY)
    with open(wrapper + ".tmp", "w") as f:
        f.write("#!/bin/sh\n# The QEMU with the TCG PMU (tests/qemu-pmu/), "
                "cached; Debian's ROM folders.\n"
                f"exec {shlex.quote(binary)} {roms} \"$@\"\n")
    os.chmod(wrapper + ".tmp", 0o755)
    os.rename(wrapper + ".tmp", wrapper)
    shutil.copyfile(os.path.join(path, "info"), os.path.join(out, "info"))


def build(pinned, root, out, say):
    """0: OUT points at a build (or says why there is none, where the
    source cannot be had); raises BuildError where a build fails."""
    os.makedirs(out, exist_ok=True)
    for name in (recipe.BINARY, "info", "unavailable"):
        if os.path.lexists(os.path.join(out, name)):
            os.unlink(os.path.join(out, name))
    version, archive, why = resolve(root, pinned, say)
    path = cache.entry(root, recipe.cache_key(version)) if version else None
    if path and not cache.complete(path, recipe.BINARY) and not why:
        key = recipe.cache_key(version)
        with cache.locked(root, key, say):
            if not cache.complete(path, recipe.BINARY):
                build_entry(archive, version, key, path, say)
    if path and cache.complete(path, recipe.BINARY):
        point_out_at(path, out)
        say(f"{os.path.join(out, recipe.BINARY)}: {recipe.PACKAGE} {version} "
            f"with the TCG PMU ({os.path.basename(path)})")
        return 0
    with open(os.path.join(out, "unavailable"), "w") as f:
        f.write(why + "\n")
    say(f"no QEMU with the TCG PMU: {why}")
    return 0
