"""This machine's apt sources, read from its deb822 files
(/etc/apt/sources.list.d/*.sources) and its one-line lists (sources.list,
sources.list.d/*.list), for one thing only: the address of its Debian
mirror (archive.mirror_host), which the private sources lists of
archive.py, the throwaway roots and the counting QEMU's source use with
suites of their own naming. Only read: the machine's apt configuration is
never changed."""
import collections
import glob
import os
import re

ETC_APT = "/etc/apt"

Source = collections.namedtuple("Source", "uri suites components signed_by")


def deb822_stanzas(text):
    """The stanzas of a deb822 file as dicts (field names lower-case,
    continuation lines joined)."""
    stanzas, fields, key = [], {}, None
    for line in text.splitlines() + [""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if fields:
                stanzas.append(fields)
            fields, key = {}, None
        elif line[0] in " \t" and key:
            fields[key] += "\n" + line.strip()
        elif ":" in line:
            key, value = line.split(":", 1)
            key = key.strip().lower()
            fields[key] = value.strip()
    return stanzas


def from_deb822(text):
    for s in deb822_stanzas(text):
        if "deb" not in s.get("types", "").split() or \
                s.get("enabled", "yes").lower() == "no":
            continue
        signed = s.get("signed-by", "")
        signed = signed if signed.startswith("/") and "\n" not in signed else ""
        for uri in s.get("uris", "").split():
            yield Source(uri, s.get("suites", "").split(),
                         s.get("components", "").split(), signed)


ONE_LINE = re.compile(r"^\s*deb\s+(?:\[([^]]*)\]\s+)?(\S+)\s+(\S+)\s*(.*)$")


def from_one_line(text):
    for line in text.splitlines():
        m = ONE_LINE.match(line)
        if m:
            options = dict(o.split("=", 1) for o in (m[1] or "").split() if "=" in o)
            yield Source(m[2], [m[3]], m[4].split(), options.get("signed-by", ""))


def machine_sources(etc=ETC_APT):
    """Every enabled binary (`deb`) source of this machine, in apt's order."""
    found = []
    for path in sorted(glob.glob(os.path.join(etc, "sources.list.d", "*.sources"))):
        with open(path) as f:
            found += from_deb822(f.read())
    for path in [os.path.join(etc, "sources.list")] + \
            sorted(glob.glob(os.path.join(etc, "sources.list.d", "*.list"))):
        try:
            with open(path) as f:
                found += from_one_line(f.read())
        except OSError:
            continue
    return found
