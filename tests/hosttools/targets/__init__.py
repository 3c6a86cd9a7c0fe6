"""The targets tests/run boots pmctest on, and their kinds: the one place
that knows a kind by its name. A row of the table (table.py) names its
kind; select() binds it to the kind's class, which says what the target
needs, whether it can boot here, how it boots and where its lines come
from (kind.py).

  target   a target as data: name, kind, route, the kind's parameters
  table    the targets, one row each
  kind     what every kind is: Kind, the programs a run boots, a Launch
  qemu     Debian's QEMU ("qemu"), and the QEMU with the TCG PMU ("qemu-pmu")
  bochs    Debian's Bochs ("bochs"), and the counting Bochs 3.0 ("bochs-pmu")
  nested   Linux KVM nested in QEMU or Bochs ("nested")
  xen      Xen under QEMU, pmctest its PVH dom0 ("xen")
  xen_bochs  Xen in the counting Bochs 3.0, pmctest its PVH dom0 ("xen-bochs")
  vmm      crosvm, Firecracker, Cloud Hypervisor on KVM ("vmm")
  lava     a finished LAVA job, judged as its target's boot ("lava")
"""
import os

from .bochs import Bochs, CountingBochs
from .kind import Launch, Programs
from .lava import lava_kind
from .nested import Nested
from .qemu import CountingQemu, Qemu
from .table import TARGETS
from .vmm import VMMS, Vmm
from .xen import Xen
from .xen_bochs import XenBochs

KINDS = {kind.NAME: kind for kind in (Qemu, CountingQemu, Bochs, CountingBochs,
                                      Nested, Xen, XenBochs, Vmm)}

__all__ = ["KINDS", "TARGETS", "VMMS", "Launch", "Programs", "by_name",
           "select", "lava_kind", "images", "images_missing", "lava_target",
           "lava_device_target", "bare_target", "console_logs"]


def by_name(name):
    """The target named name, or None."""
    return next((t for t in TARGETS if t.name == name), None)


def select(target, programs):
    """The kind of target (a row, or a name), bound to the run's programs."""
    if isinstance(target, str):
        target = by_name(target)
    return KINDS[target.kind](target, programs)


def images(names=None):
    """The make targets the targets need built (all targets', or those
    named): make images builds them."""
    programs = Programs(elf="")
    wanted = []
    for t in TARGETS:
        if names is None or t.name in names:
            for image in select(t, programs).images():
                if image not in wanted:
                    wanted.append(image)
    return wanted


def images_missing(programs):
    """(target name, what is missing) for each target make images should
    have made the images of and did not."""
    found = []
    for t in TARGETS:
        missing = select(t, programs).images_missing()
        if missing:
            found.append((t.name, missing))
    return found


def lava_target(cpu, route, cpus=1):
    """The target a LAVA job of QEMU TCG on pc with SeaBIOS (LAVA's qemu
    device type) is, or None."""
    return next((t for t in TARGETS if t.kind == "qemu" and
                 t.params["accel"] == "tcg" and t.params["cpu"] == cpu and
                 t.route == route and t.params["machine"] == "" and
                 t.params["firmware"] == "bios" and t.cpus == cpus), None)


def lava_device_target(name):
    """The target named name where LAVA's qemu device type runs it (QEMU
    TCG on pc with SeaBIOS, one CPU, by PVH or the ISO), and a lab job of
    its -cpu and route names it; else None."""
    t = by_name(name)
    if t is None or t.kind != "qemu" or t.route not in ("pvh", "iso"):
        return None
    return t if lava_target(t.params["cpu"], t.route, t.cpus) is t else None


def bare_target(target):
    """The target of the bare emulator a target is compared with (a Xen
    target's bare: QEMU TCG, or the counting Bochs), or None."""
    bare = target.params.get("bare")
    return by_name(bare) if bare else None


def console_logs(log_dir):
    """Where tests/run --all --log-dir LOG_DIR keeps the whole console of
    each target whose kind keeps one (Xen's): LOG_DIR/TARGET.console.log,
    beside its TAP log."""
    return [os.path.join(log_dir, f"{t.name}.console.log") for t in TARGETS
            if KINDS[t.kind].keeps_console]
