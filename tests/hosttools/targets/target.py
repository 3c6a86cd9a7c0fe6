"""A target as data: one row of the table (table.py), naming its kind
(hosttools/targets/, KINDS) and that kind's parameters."""
import dataclasses
import types


@dataclasses.dataclass(frozen=True)
class Target:
    """One configuration of one kind, booted once per run; one JUnit
    testsuite.

    name     what --target takes
    kind     the kind of target (KINDS in hosttools/targets/__init__.py)
    route    "iso" (GRUB from a CD, Multiboot2), "pvh" (the ELF by PVH) or
             "elf" (the ELF's own choice: e_entry in long mode with
             boot_params, or its PVH note)
    about    one line for --list-targets
    expect   the expectation file under tests/expect/; route variants of
             one CPU share their base target's file, and the
             stale-expectation check keeps that sharing honest
    timeout  seconds of wall clock before the guest counts as hung
    cpus     the vCPUs (the kernel starts those the firmware tables list)
    subset   the tests make test runs (tests/run --subset): every group,
             fewer cases, for a slow target ("": the default suite)
    explicit not booted by --all unless --only names it (slow)
    kernel_args  words every boot of the target adds to the kernel
             command line, e.g. "apic=x2apic" (before --kernel-args)
    params   the kind's own parameters (each kind's module says which)

    Nothing here knows what a target gets wrong: that is tests/expect/."""

    name: str
    kind: str
    route: str
    about: str
    expect: str
    timeout: float = 120
    cpus: int = 1
    subset: str = ""
    explicit: bool = False
    kernel_args: str = ""
    params: types.MappingProxyType = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({}))

    def __post_init__(self):
        # frozen all the way down: the parameters cannot be patched either
        object.__setattr__(self, "params", types.MappingProxyType(dict(self.params)))

    def param(self, key, default=None):
        return self.params.get(key, default)

    def renamed(self, name, about):
        """The same target under another name (a LAVA job of it)."""
        return dataclasses.replace(self, name=name, about=about)

    def properties(self):
        """What JUnit's testsuite says of it: the kind, the route, the
        parameters that are words, the line about it and its file."""
        props = {"kind": self.kind, "route": self.route}
        for key, value in self.params.items():
            if isinstance(value, tuple) and all(isinstance(w, str) for w in value):
                value = " ".join(value)
            if isinstance(value, (str, int)) and not isinstance(value, bool) \
                    and value != "":
                props[key] = str(value)
        props.update(about=self.about, expect=self.expect)
        return props
