"""The kinds "bochs" and "bochs-pmu": Debian's Bochs, or the counting Bochs
3.0 (tests/bochs-pmu/, docs/counting-bochs.md), boots pmctest's GRUB ISO.

Parameters: cpu (the cpu: model=, bochs -help cpu), bochs_cpu (more cpu:
options, e.g. "ignore_bad_msrs=1"; unknown MSRs #GP unless it says so)
and megs (the memory in MiB, 64 unless said). The target's cpus is the
cpu: count=."""
import os
import shutil
import tempfile

from ..boot.bochs import (BANNER_MISSING, BOCHS_ROMS, BOCHS_VGA_ROMS,
                          bochs_banner, bochs_lines, bochs_models,
                          bochs_named, bochs_problem, bochs_release,
                          bochsrc_text, first_existing)
from .kind import Kind, new_outcome


def bochs_why_not(bochs, model, debian=True):
    """Why this Bochs cannot run a model here, or None; debian: it takes
    the ROM images of Debian's bochsbios and vgabios."""
    if not shutil.which(bochs):
        return (f"{bochs} not found "
                "(Debian: bochs bochsbios vgabios bochs-term)")
    if debian and not first_existing(BOCHS_ROMS):
        return "no Bochs BIOS image (Debian: bochsbios)"
    if debian and not first_existing(BOCHS_VGA_ROMS):
        return "no VGA BIOS image (Debian: vgabios)"
    models = bochs_models(bochs)
    if models and model not in models:
        return f"this Bochs has no cpu model {model}"
    return None


class BochsStream:
    """The Stream of one Bochs run: its COM1 file's lines, and an outcome
    from the kernel's exit line or what stopped Bochs. release: what the
    binary says of itself ("Bochs 3.0"), where the run's output holds no
    banner (Bochs 3.0's, stopped by the runner, has none)."""

    def __init__(self, source, keep, release=None):
        self.source = source
        self.keep = keep
        self.release = release
        self.l1_notes = lambda: []

    def lines(self):
        return self.source.lines()

    def outcome(self, judge):
        banner = bochs_banner(self.source.out_path)
        if banner == BANNER_MISSING and self.release:
            banner = self.release
        o = new_outcome(bochs_named(self.source.out_path, banner), banner)
        o.status = self.source.status
        if o.status is None or self.source.restarted or self.source.ending.start_error:
            o.problem = bochs_problem(self.source, bool(judge.lines))
        o.notes += self.l1_notes()
        if self.keep:
            o.notes.append(f"Bochs files kept in {self.source.workdir}")
        return o


def bochs_stream(target, bochs, launch, iso, com2=None, l1_line=None):
    """The BochsStream of target's model, CPUs and options booting iso in
    a scratch directory of its own; com2: the file of a nested L1's
    console, whose lines l1_line turns into lines of the stream."""
    p = target.params
    work = tempfile.mkdtemp(prefix=target.name + "-", dir=launch.workdir)
    rc = bochsrc_text(p["cpu"], target.cpus, p.get("bochs_cpu", ""),
                      p.get("megs", 64), iso, os.path.join(work, "com1.txt"),
                      os.path.join(work, "bochs.log"),
                      com2 and os.path.join(work, com2))
    source = bochs_lines(bochs, work, rc, launch.timeout,
                         com2 and os.path.join(work, com2), l1_line)
    return BochsStream(source, launch.keep, bochs_release(bochs))


class Bochs(Kind):
    NAME = "bochs"

    @property
    def binary(self):
        return self.programs.bochs

    def why_not(self):
        return bochs_why_not(self.binary, self.target.params["cpu"],
                             self.binary == "bochs")

    def host(self):
        """"Bochs 2.7": the banner the binary prints as it quits (the same
        words the boot's banner gives), or None where it printed none."""
        return bochs_release(self.binary)

    def boot(self, launch):
        return bochs_stream(self.target, self.binary, launch,
                            launch.isos.iso(launch.cmdline))


class CountingBochs(Bochs):
    """The kind "bochs-pmu": the same boots on the counting Bochs 3.0,
    which make builds into a cache outside the clone (make bochs-pmu)."""

    NAME = "bochs-pmu"

    @property
    def binary(self):
        return self.programs.bochs_pmu

    def images(self):
        return ["bochs-pmu"]

    def why_not(self):
        return counting_bochs_why_not(self.binary) or \
            bochs_why_not(self.binary, self.target.params["cpu"])

    def images_missing(self):
        return counting_bochs_missing(self.binary)


def counting_bochs_missing(binary):
    """Where make's build neither made the counting Bochs nor said why it
    could not: what is missing."""
    if os.access(binary, os.X_OK) or os.path.exists(
            os.path.join(os.path.dirname(binary), "unavailable")):
        return None
    return f"{binary} was not built, and nothing says why"


def counting_bochs_why_not(binary):
    """Why the counting Bochs cannot run, or None: the reason make's build
    wrote beside the binary (no network, no apt), or that it is not
    built."""
    if os.access(binary, os.X_OK):
        return None
    try:
        with open(os.path.join(os.path.dirname(binary), "unavailable")) as f:
            why = f.read().strip()
    except OSError:
        why = ""
    if why:
        return f"no counting Bochs: {why}"
    return (f"{binary} is not built (make bochs-pmu: Debian's Bochs 3.0 "
            "source with tests/bochs-pmu/patches)")
