"""A boot that hosttools/boot.py's Boot follows (QEMU, Xen under QEMU,
nested KVM, a VMM on KVM), as the runner's targets share it: started with
its serial lines fed to the judge, and how it ended as the Outcome's status
and problem. Each target adds what its emulator says of a stopped guest."""
from ..boot import EXIT_HARNESS_ERROR, Boot


class LineSink:
    """tests/boot.py's Boot writes each serial line to a log object."""

    def __init__(self, feed):
        self.feed = feed

    def write(self, text):
        for line in text.rstrip("\n").split("\n"):
            self.feed(line)

    def flush(self):
        pass


def start(cmd, timeout, judge, outcome, emulator, **boot_args):
    """The Boot of cmd, its serial lines fed to judge; None where the
    emulator did not start, the outcome's problem saying so."""
    try:
        return Boot(cmd, timeout, False, LineSink(judge.feed), **boot_args)
    except OSError as e:
        outcome.problem = f"{emulator} failed to start: {e}"
        return None


def judge_end(boot, judge, outcome, timeout, waited_for="exit"):
    """The outcome's status and problem from how boot ended: a guest that
    hung gives no status; otherwise the kernel's status, with what the
    verdict (hosttools/boot.py) found wrong, or the kernel's Bail out!
    line where the run ended without a status (exit=reset)."""
    status, problem = boot.verdict()
    if boot.timed_out:
        outcome.problem = f"the guest hung: no {waited_for} within {timeout:g} s"
    elif problem:
        outcome.problem = problem
    elif status == EXIT_HARNESS_ERROR and judge.bailed:
        outcome.problem = judge.bailed
    if not boot.timed_out and status in (0, 1, 2):
        outcome.status = status
