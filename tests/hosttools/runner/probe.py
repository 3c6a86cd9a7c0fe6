"""The host's tools asked about themselves (versions, model lists), once per
tests/run however many targets ask."""
import subprocess
import threading

_cache = {}
_cache_lock = threading.Lock()


def cached(key, fn):
    with _cache_lock:
        if key not in _cache:
            _cache[key] = fn()
        return _cache[key]


def command_output(cmd):
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=30)
        return p.stdout.decode("utf-8", "replace")
    except (OSError, subprocess.TimeoutExpired):
        return ""
