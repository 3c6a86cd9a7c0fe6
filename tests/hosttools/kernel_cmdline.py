"""The kernel command line as the kernel parses it (kernel/cmdline.c and
the length kernel/main.c copies), so that the host refuses before booting,
with the kernel's own words, a line the kernel would refuse. make test
holds the two parsers against each other (tests/host/cmdline_check.c).
The limits are the kernel's, read from its headers."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def c_number(header, name):
    """The number header (a path of the tree) #defines as name."""
    text = (ROOT / header).read_text()
    return int(re.search(rf"^#define\s+{name}\s+(\d+)\b", text, re.M).group(1))


KERNEL_CMDLINE_MAX = c_number("kernel/cmdline_limits.h", "CMDLINE_MAX")
MAX_PATTERNS = c_number("kernel/cmdline_limits.h", "CMDLINE_PATTERNS_MAX")
CPUS_MAX = c_number("kernel/cpus.h", "CPUS_MAX")
PATTERN_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789._-*?@")
OPTIONS = ("list", "verbose", "timing")
CONSOLES = ("com1", "e9")
# key=value options of one word out of a set: the kernel's words when the
# value is none of them
CHOICES = {
    "exit": (("debug", "reset", "triple"), "not debug, reset or triple"),
    "apic": (("xapic", "x2apic"), "not xapic or x2apic"),
}


def pattern_problem(key, value, given):
    if given:
        return f"{key}= given twice (join the patterns with commas)"
    if value == "":
        return f"{key}= needs at least one pattern"
    patterns = value.split(",")
    for i, pattern in enumerate(patterns):
        bad = next((c for c in pattern if c not in PATTERN_CHARS), None)
        if bad is not None:
            return (f"{key}={value}: '{bad}' is not allowed in a pattern "
                    "(use a-z 0-9 . _ - * ? @)")
        if pattern == "":
            return f"{key}={value}: empty pattern"
        if i == MAX_PATTERNS:
            return f"{key}=: more than {MAX_PATTERNS} patterns"
    return None


def cpus_problem(value, given):
    """cpus=all or cpus=N[-M][,N[-M]]...: the CPUs of the per-CPU part."""
    if given:
        return "cpus= given twice (join the CPUs with commas)"
    if value == "all":
        return None
    for item in value.split(","):
        first, dash, last = item.partition("-")
        for number in (first, last) if dash else (first,):
            if not number.isdigit() or not number.isascii():
                return (f"cpus={value}: not all, nor CPU numbers and ranges "
                        "(e.g. cpus=0,2-3)")
            if int(number) >= CPUS_MAX:
                return f"cpus={value}: pmctest runs CPUs 0-{CPUS_MAX - 1}"
        if dash and "-" in last:
            return f"cpus={value}: '-' is not allowed (use all, or numbers, '-' and ',')"
        if dash and int(last) < int(first):
            return f"cpus={value}: the range {first}-{last} runs backwards"
    return None


def console_problem(value, given):
    if given:
        return "console= given twice (join the ports with commas)"
    for port in value.split(","):
        if port not in CONSOLES:
            return f"console=: '{port}' is not a console (com1, e9, or com1,e9)"
    return None


def choice_problem(key, value, given):
    if given:
        return f"{key}= given twice"
    values, words = CHOICES[key]
    if value not in values:
        return f"{key}={value}: {words}"
    return None


def cmdline_problem(cmdline):
    """Why the kernel would refuse cmdline (a str), in its words, or None.
    A tab, which the kernel would take as a space, is refused too: the
    loaders do not all pass one on."""
    data = cmdline.encode("utf-8", "surrogateescape")
    if len(data) > KERNEL_CMDLINE_MAX:
        return (f"the kernel command line is {len(data)} bytes, more than "
                f"the {KERNEL_CMDLINE_MAX} the kernel takes")
    for i, c in enumerate(data):
        if c < 0x20 or c >= 0x7f:
            return (f"the kernel command line holds byte 0x{c:02x} at offset "
                    f"{i}: only printable ASCII reaches the kernel intact")
    given = set()
    for word in cmdline.split(" "):
        if word == "" or word in OPTIONS:
            continue
        key, eq, value = word.partition("=")
        if eq and key == "console":
            problem = console_problem(value, key in given)
            if problem:
                return problem
            given.add(key)
            continue
        if eq and key == "cpus":
            problem = cpus_problem(value, key in given)
            if problem:
                return problem
            given.add(key)
            continue
        if eq and key in CHOICES:
            problem = choice_problem(key, value, key in given)
            if problem:
                return problem
            given.add(key)
            continue
        if eq and key in ("tests", "exclude"):
            problem = pattern_problem(key, value, key in given)
            if problem:
                return problem
            given.add(key)
            continue
        return (f"unknown option '{word}' (known: tests=GLOB[,GLOB], "
                "exclude=GLOB[,GLOB], cpus=all|N[-M][,N[-M]], "
                "console=com1|e9|com1,e9, list, verbose, timing, "
                "exit=debug|reset|triple, apic=xapic|x2apic)")
    return None
