"""The processes the host tools start (emulators, mkiso, probes) and how a
signal ends them.

Every child starts through start(), in a session of its own, so that one
kill reaches what it starts in turn (grub-mkrescue under mkiso, Bochs'
helpers). stop() marks this process as stopping before it kills: from then
on start() refuses, so a thread that was about to start an emulator when
the signal came cannot start one after the kill.
"""
import os
import signal
import subprocess
import sys
import threading

_lock = threading.RLock()       # the signal handler may interrupt a holder
_live = set()
_stopping = None                # the signal that stops this process


class Stopped(Exception):
    """start() after stop(): the process is ending on a signal."""


def start(cmd, **popen_args):
    """subprocess.Popen(cmd, ...) in a new session, unless stopping."""
    with _lock:
        if _stopping is not None:
            raise Stopped(f"stopping on signal {_stopping}")
        proc = subprocess.Popen(cmd, start_new_session=True, **popen_args)
        _live.add(proc)
        return proc


def kill(proc):
    """SIGKILL to proc's session (its process group) and proc."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def done(proc):
    """proc is over: killed if need be, reaped, and no longer tracked."""
    if proc.poll() is None:
        kill(proc)
    proc.wait()
    with _lock:
        _live.discard(proc)


def run(cmd, timeout, **popen_args):
    """(returncode, output): cmd to its end (killed after timeout seconds),
    stdout and stderr together."""
    proc = start(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                 stderr=subprocess.STDOUT, **popen_args)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(proc)
        out, _ = proc.communicate()
    finally:
        done(proc)
    return proc.returncode, out


def stop(signum):
    """No process starts from now on, and each one started is killed
    (SIGKILL: gone at once; the thread that started it reaps it)."""
    global _stopping
    with _lock:
        _stopping = signum
        live = list(_live)
    for proc in live:
        kill(proc)


def exit_on_signals():
    """SIGINT, SIGTERM and SIGHUP end this process: stop(), then
    SystemExit(128 + signal) in the main thread, whose finally clauses
    remove what the run made. A signal this process inherited as ignored
    (nohup) stays ignored."""
    def handler(signum, frame):
        stop(signum)
        sys.exit(128 + signum)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) != signal.SIG_IGN:
            signal.signal(signum, handler)
