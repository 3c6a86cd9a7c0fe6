"""Build the counting Bochs into the cache, once per key, and point OUT at
it: OUT/bochs runs the cached binary, OUT/info says what it is. Where the
source cannot be had (no network, no apt) and nothing is cached,
OUT/unavailable says why and the targets that need it are unavailable with
that reason."""
import json
import os
import re
import shlex
import shutil
import time

from .. import cache
from . import recipe
from .source import BochsArchive, SourceError, run_logged, unpack


class BuildError(Exception):
    """The build itself failed: the message names the log."""


def resolve(root, pinned, say):
    """(version, archive, why): why is None where the archive answered;
    offline, the version is the pinned one (a cached build of it still
    serves) and why says what failed; version None where the archive has
    no 3.0 source at all."""
    archive = BochsArchive(root)
    why = archive.update()
    if why:
        say(f"{why}; looking for a cached build of {pinned}")
        return pinned, archive, why
    version = archive.choose(recipe.PACKAGE, pinned)
    if version is None:
        return None, archive, (f"the archive has no {recipe.PACKAGE} source "
                               f"of the 3.0 series in {recipe.SUITE}")
    if version != pinned:
        say(f"{recipe.PACKAGE} {pinned} is no longer in the archive; "
            f"taking {version}, the newest 3.0")
    return version, archive, None


def name_release(tree, version, key):
    """Bochs prints REL_STRING under its banner: name the build there."""
    path = os.path.join(tree, "bxversion.h")
    with open(path) as f:
        text = f.read()
    text = re.sub(r'^#define REL_STRING .*$',
                  f'#define REL_STRING    "{recipe.release(version, key)}"',
                  text, flags=re.M)
    with open(path, "w") as f:
        f.write(text)


def build_tree(archive, version, key, work, log, say):
    """Fetch, check, unpack, patch, configure and build in WORK: the
    built binary."""
    say(f"fetching Debian's {recipe.PACKAGE} {version} source ({recipe.SUITE})")
    try:
        tree = unpack(archive.fetch(recipe.PACKAGE, version, work, log),
                      work, log)
    except SourceError as e:
        raise BuildError(f"{e} (see {log.name})") from None
    for patch in recipe.series():
        if not run_logged(["patch", "-p1", "--batch", "--forward", "-i",
                           patch], tree, log):
            raise BuildError(f"{os.path.basename(patch)} does not apply "
                             f"to {version} (see {log.name})")
    say(f"configuring ({' '.join(recipe.CONFIGURE)})")
    env_cmd = ["env", f"CXXFLAGS={recipe.CXXFLAGS}", f"CFLAGS={recipe.CXXFLAGS}"]
    if not run_logged(env_cmd + ["./configure"] + recipe.CONFIGURE, tree, log):
        raise BuildError(f"configure failed (see {log.name})")
    name_release(tree, version, key)
    jobs = os.cpu_count() or 1
    say(f"building {recipe.BINARY} on {jobs} cores (about 3-5 minutes on 2)")
    if not run_logged(["make", f"-j{jobs}", recipe.BINARY], tree, log):
        raise BuildError(f"the build failed (see {log.name})")
    return os.path.join(tree, recipe.BINARY)


def build_entry(archive, version, key, path, say):
    """The entry of KEY, renamed into place whole."""
    work = path + ".work"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    started = time.monotonic()
    with open(os.path.join(work, "build.log"), "w") as log:
        binary = build_tree(archive, version, key, work, log, say)
    seconds = round(time.monotonic() - started)
    staging = path + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "bin"))
    shutil.copy2(binary, os.path.join(staging, "bin", recipe.BINARY))
    info = dict(source=f"{recipe.PACKAGE} {version} ({recipe.SUITE})", key=key,
                patches=[os.path.basename(p) for p in recipe.series()],
                configure=recipe.CONFIGURE, build_seconds=seconds)
    with open(os.path.join(staging, "info"), "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    os.rename(staging, path)
    shutil.rmtree(work, ignore_errors=True)
    say(f"built in {seconds} s: {path}")


def point_out_at(path, out):
    """OUT/bochs: the cached binary."""
    binary = os.path.join(path, "bin", recipe.BINARY)
    wrapper = os.path.join(out, recipe.BINARY)
    with open(wrapper + ".tmp", "w") as f:
        f.write("#!/bin/sh\n# The counting Bochs (tests/bochs-pmu/), cached.\n"
                f"exec {shlex.quote(binary)} \"$@\"\n")
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
    key = recipe.cache_key(version) if version else None
    path = cache.entry(root, key, recipe.CACHE_NAME) if version else None
    if path and not cache.complete(path, recipe.BINARY) and not why:
        with cache.locked(root, f"{recipe.CACHE_NAME}-{key}", say):
            if not cache.complete(path, recipe.BINARY):
                build_entry(archive, version, key, path, say)
    if path and cache.complete(path, recipe.BINARY):
        point_out_at(path, out)
        say(f"{os.path.join(out, recipe.BINARY)}: {recipe.PACKAGE} {version} "
            f"with the counting PMU ({os.path.basename(path)})")
        return 0
    with open(os.path.join(out, "unavailable"), "w") as f:
        f.write(why + "\n")
    say(f"no counting Bochs: {why}")
    return 0
