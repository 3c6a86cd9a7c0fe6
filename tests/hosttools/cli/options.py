"""tests/run's options as one immutable value: read once from its command
line, never patched on the way (a run's own selection lives in its
TargetRun)."""
import dataclasses
import os
import re
import typing

from ..targets import VMMS, Programs


@dataclasses.dataclass(frozen=True)
class Options:
    programs: Programs
    tests: str = ""             # --tests: tests= for every boot
    kernel_args: str = ""       # --kernel-args
    subset: bool = False        # --subset: each slow target's selection
    timeout: typing.Optional[float] = None
    suggest: bool = False       # --suggest-expectations
    max_stops: int = 40
    include_excluded: bool = False
    expect_dir: str = ""
    keep: bool = False          # --keep: the scratch files stay
    log: typing.Optional[str] = None
    log_dir: typing.Optional[str] = None
    all: bool = False
    junit: typing.Optional[str] = None
    report: typing.Optional[str] = None

    def console_log(self, name):
        """Where a Xen target's whole console goes: beside its TAP log, if
        it has one."""
        if self.log_dir and self.all:
            return os.path.join(self.log_dir, name + ".console.log")
        if self.log:
            return re.sub(r"(\.log)?$", ".console.log", self.log, count=1)
        return None


def options_of(args):
    """The Options of tests/run's parsed arguments."""
    programs = Programs(
        elf=args.elf, qemu=args.qemu, qemu_pmu=args.qemu_pmu, bochs=args.bochs,
        bochs_pmu=args.bochs_pmu,
        vmms={name: getattr(args, name.replace("-", "_")) for name in VMMS},
        xen=args.xen, build=args.build)
    fields = {f.name for f in dataclasses.fields(Options)} - {"programs"}
    given = {name: getattr(args, name) for name in fields if hasattr(args, name)}
    given["keep"] = args.keep_bochs
    return Options(programs=programs, **given)
