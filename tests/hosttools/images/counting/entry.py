"""A counting emulator's cache entry built: in NAME-KEY.work/ the source
fetched and configured (the emulator's steps) around our patch series,
BINARY built with the emulator's build tool, then bin/BINARY and info
staged in NAME-KEY.tmp/ and renamed into place whole. Where the build
fails, the work folder stays with its build.log."""
import json
import os
import shutil
import time

from . import recipe
from .build_log import BuildError, run_logged


def build_binary(emulator, archive, version, key, work, log, say):
    """Fetch, patch, configure and build in WORK: the built binary."""
    say(f"fetching Debian's {emulator.package} {version} source ({emulator.release})")
    tree = emulator.fetch(archive, emulator.package, version, work, log)
    for patch in recipe.series(emulator.patches):
        run_logged(["patch", "-p1", "--batch", "--forward", "-i", patch], tree, log,
                   f"{os.path.basename(patch)} does not apply to {version}")
    say(f"configuring ({' '.join(emulator.configure_flags)})")
    where = emulator.configure(tree, emulator.configure_flags, version, key, log)
    jobs = os.cpu_count() or 1
    say(f"building {emulator.binary} on {jobs} cores (about "
        f"{emulator.build_time} on 2)")
    run_logged([emulator.build_tool, f"-j{jobs}", emulator.binary], where, log,
               "the build failed")
    return os.path.join(where, emulator.binary)


def build_entry(emulator, archive, version, key, path, say):
    """The entry PATH of KEY, renamed into place whole; BuildError names
    the log where a step fails."""
    work = path + ".work"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    log_path = os.path.join(work, "build.log")
    started = time.monotonic()
    with open(log_path, "w") as log:
        try:
            binary = build_binary(emulator, archive, version, key, work, log, say)
        except BuildError as e:
            raise BuildError(f"{e} (see {log_path})") from None
    seconds = round(time.monotonic() - started)
    staging = path + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "bin"))
    shutil.copy2(binary, os.path.join(staging, "bin", emulator.binary))
    info = dict(source=f"{emulator.package} {version} ({emulator.release})", key=key,
                patches=[os.path.basename(p) for p in recipe.series(emulator.patches)],
                configure=list(emulator.configure_flags), build_seconds=seconds)
    with open(os.path.join(staging, "info"), "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    os.rename(staging, path)
    shutil.rmtree(work, ignore_errors=True)
    say(f"built in {seconds} s: {path}")
