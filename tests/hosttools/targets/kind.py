"""What every kind of target is: what it needs built, whether it can boot
here (and why not), how it boots, and where its lines come from.

A kind is a subclass of Kind, bound to one target (its row of table.py)
and the programs of this run (Programs). boot() gives a Stream: its
lines() are the run's serial lines, the one stream that
cli/target_run.py feeds to the one Judge, and its outcome(judge), after
the last line, how the boot ended (hosttools/judge/outcome.py)."""
import dataclasses
import os
import shutil
import typing

from ..judge import ending
from ..judge.outcome import Outcome
from ..judge.tap import EXIT_ERROR


@dataclasses.dataclass(frozen=True)
class Programs:
    """The kernel, the emulators and the images a run boots (tests/run's
    options), whichever kinds use them: build is where make put the
    images it fetched and built (kvm-NAME/, xen-VERSION/), xen the Xen
    images of your own by version (tests/run --xen [VERSION=]PATH), in
    place of Debian's."""
    elf: str
    qemu: str = "qemu-system-x86_64"
    qemu_pmu: str = ""
    bochs: str = "bochs"
    bochs_pmu: str = ""
    vmms: typing.Mapping = dataclasses.field(default_factory=dict)
    xen: typing.Mapping = dataclasses.field(default_factory=dict)
    build: str = "build"


@dataclasses.dataclass(frozen=True)
class Launch:
    """What one boot is given: the kernel command line, the seconds it may
    take, the scratch directory of this tests/run and its ISO maker, where
    Xen's whole console goes (or None), whether to keep the scratch files,
    and note(text), which writes "# run: text" into the run's log."""
    cmdline: str
    timeout: float
    workdir: str
    isos: typing.Any
    note: typing.Callable
    console_log: typing.Optional[str] = None
    keep: bool = False


class Kind:
    """A kind of target, bound to one target and the run's programs."""

    NAME = None             # the kind's name in table.py's rows
    boots_here = True       # False: the run happened elsewhere (LAVA)
    # True once judged() found that another machine than the target's ran
    # it: its results say nothing of the target's expectation file
    foreign = False
    # True: its boot writes the emulator's whole console to
    # Launch.console_log (Xen's, beside the kernel's lines)
    keeps_console = False

    def __init__(self, target, programs):
        self.target = target
        self.programs = programs

    def images(self):
        """The make targets this target needs built (make images)."""
        return []

    def images_missing(self):
        """What make images should have made for this target and did not,
        or None. An image make could not have (no network: the fetch said
        why, beside it) is not missing: the target is unavailable with
        that reason."""
        return None

    def why_not(self):
        """Why this target cannot boot here, in words a user can act on,
        or None; the checks all kinds share come after the kind's own."""
        return None

    def host(self):
        """What the results depend on ("QEMU 10.0", "Bochs 3.0": the words
        of an expectation file's "# host:" line), as the emulator binary
        says of itself before the boot, or None where only the boot tells
        (the target's own expectation file is read then)."""
        return None

    def availability(self):
        """(True, "") or (False, why not)."""
        why = self.why_not()
        if not why and self.target.route == "iso" and not shutil.which("grub-mkrescue"):
            why = ("grub-mkrescue not found "
                   "(Debian: grub-common grub-pc-bin xorriso mtools)")
        if not why and not os.path.exists(self.programs.elf):
            why = f"{self.programs.elf} does not exist (run make)"
        return (False, why) if why else (True, "")

    def boot(self, launch):
        """The Stream of one boot."""
        raise NotImplementedError

    def judged(self, run):
        """A problem the kind finds once the run is judged (a LAVA job's
        results against its TAP), or None."""
        return None


class ProcessStream:
    """The Stream of an emulator booted as a process here (QEMU, Xen
    under QEMU, nested KVM, a VMM): source is its ProcessLines
    (hosttools/boot/process.py). finish(judge, outcome) is the kind's
    last word on the outcome (what its emulator said of a stopped guest).
    """

    def __init__(self, source, outcome, waited_for="exit"):
        self.source = source
        self.result = outcome
        self.waited_for = waited_for

    def lines(self):
        return self.source.lines()

    def outcome(self, judge):
        """The outcome's status and problem from how the boot ended: a
        guest that hung gives no status; otherwise the kernel's status,
        with what the verdict found wrong, or the kernel's Bail out!
        line where the run ended without a status (exit=reset)."""
        end, o = self.source.ending, self.result
        status, problem = ending.verdict(end, judge.tap, judge.lines)
        if end.start_error:
            o.problem = end.start_error
        elif end.timed_out:
            o.problem = (f"the guest hung: no {self.waited_for} within "
                         f"{self.source.timeout:g} s")
        elif problem:
            o.problem = problem
        elif status == EXIT_ERROR and judge.bailed:
            o.problem = judge.bailed
        if not end.timed_out and not end.start_error and status in (0, 1, 2):
            o.status = status
        self.finish(judge, o)
        return o

    def finish(self, judge, outcome):
        pass


def new_outcome(emulator, host=""):
    o = Outcome()
    o.emulator, o.host = emulator, host
    return o
