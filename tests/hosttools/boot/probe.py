"""The host's tools asked about themselves (versions, model lists), once per
tests/run however many targets ask."""
import threading

from .. import procs

_cache = {}
_cache_lock = threading.Lock()


def cached(key, fn):
    with _cache_lock:
        if key not in _cache:
            _cache[key] = fn()
        return _cache[key]


def command_output(cmd):
    try:
        _, out = procs.run(cmd, timeout=30)
        return out.decode("utf-8", "replace")
    except OSError:
        return ""
