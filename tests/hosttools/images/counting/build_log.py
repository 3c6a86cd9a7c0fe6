"""A build's log (NAME-KEY.work/build.log in the cache): each command
written to it before it runs, with all it prints; and the error of a
build that failed, which names the log."""
import shlex
import subprocess


class BuildError(Exception):
    """The build itself failed: the message says at which step (entry.py
    adds where the log is)."""


def run_logged(cmd, cwd, log, failure):
    """cmd run in cwd, its output in log; BuildError(failure) where it
    exits other than 0."""
    log.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
    log.flush()
    if subprocess.run(cmd, cwd=cwd, stdout=log, stderr=log,
                      stdin=subprocess.DEVNULL).returncode:
        raise BuildError(failure)
