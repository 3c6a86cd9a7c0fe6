"""Build a counting emulator into the cache, once per key, and point OUT
at it: OUT/BINARY runs the cached binary, OUT/info says what it is. Where
the source cannot be had (no network, no apt) and nothing is cached,
OUT/unavailable says why and the targets that need it are unavailable
with that reason."""
import os

from .. import cache
from .entry import build_entry
from .recipe import cache_key
from .source import resolve
from .wrapper import point_out_at


def build(emulator, pinned, root, out, say):
    """0: OUT points at a build (or says why there is none, where the
    source cannot be had); raises build_log.BuildError where a build
    fails."""
    os.makedirs(out, exist_ok=True)
    for name in (emulator.binary, "info", "unavailable"):
        if os.path.lexists(os.path.join(out, name)):
            os.unlink(os.path.join(out, name))
    version, archive, why = resolve(emulator, root, pinned, say)
    key = cache_key(emulator, version) if version else None
    path = cache.entry(root, key, emulator.name) if version else None
    if path and not cache.complete(path, emulator.binary) and not why:
        with cache.locked(root, os.path.basename(path), say):
            if not cache.complete(path, emulator.binary):
                build_entry(emulator, archive, version, key, path, say)
    if path and cache.complete(path, emulator.binary):
        point_out_at(emulator, path, out)
        say(f"{os.path.join(out, emulator.binary)}: the {emulator.title}, "
            f"{emulator.package} {version} ({os.path.basename(path)})")
        return 0
    with open(os.path.join(out, "unavailable"), "w") as f:
        f.write(why + "\n")
    say(f"no {emulator.title}: {why}")
    return 0
