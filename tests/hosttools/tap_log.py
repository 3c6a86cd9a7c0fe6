"""What the host tools read in the kernel's TAP 13: the
result lines, the summary comment, and the diagnostics of a result, which
sit in the YAML block under it: its keys (`message: "..."`, `context:`,
`expected:`, `observed:`) and its `diagnostics:` list (`- text: "..."`),
or for a failure that deviates as an earlier test did, the one key
`same: "EARLIER_ID: BRIEF"`; and the lines of its `list` option."""
import re

# A result: kind, number, test ID, statements, SKIP or TODO, and reason.
RESULT = re.compile(r"^(ok|not ok) (\d+) - (\S+)(?: \[([^\]]*)\])?"
                    r"(?: # (SKIP|TODO)\b ?(.*))?$")
SUMMARY_PREFIX = "# pmctest: "
SUMMARY = re.compile(r"^# pmctest: ([0-9]{1,9}) passed, ([0-9]{1,9}) failed, "
                     r"([0-9]{1,9}) skipped$")
# A line of the kernel's `list`: test ID, statements, description.
LISTED = re.compile(r"^(\S+)\s+\[([^\]]*)\]\s*(.*)$")
# A key of a YAML block with its quoted value, or with a folded one (">"),
# whose text is on the lines under it.
KEY = re.compile(r'^  ([a-z]+): "(.*)"$')
FOLDED_KEY = re.compile(r"^  ([a-z]+): >$")
# A short YAML block's one diagnostic: the earlier test that reported the
# same deviation in full, and what the check said of this one in a few
# words ("#UD at RCX=0x10000"), if it said anything the earlier test's
# report did not (without it, the earlier test's context holds here too).
SAME = re.compile(r"^same: ([^:\s]+)(?:: (.*))?$")
# Screen control that GRUB and SeaBIOS send before the kernel's first line.
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|[\x00-\x08\x0b-\x1f\x7f]")


def summary_counts(line):
    """(passed, failed, skipped) if line is the summary comment, else None."""
    m = SUMMARY.match(line)
    return tuple(int(x) for x in m.groups()) if m else None


class YamlBlock:
    """Follows the YAML blocks of a log fed line by line. A value is a
    double-quoted scalar on its line, or, where that line would be longer
    than the kernel's lines may be, a folded block scalar ("key: >"): its
    lines, more indented than the key, joined with spaces."""

    def __init__(self):
        self.inside = False
        self.in_diagnostics = False
        self.folded = None      # (prefix, key column, pieces) being read

    def feed(self, line):
        """(belongs, diagnostics): whether line is part of a YAML block, and
        the diagnostic lines it completes: "key: value" for a key, the text
        of a list item. A folded value is complete at the line after it."""
        done = []
        if self.folded:
            prefix, column, pieces = self.folded
            if line[:column + 1].strip() == "" and line.strip():
                pieces.append(line.lstrip(" "))
                return True, done
            done.append(prefix + " ".join(pieces))
            self.folded = None
        if not self.inside:
            if line == "  ---":
                self.inside = True
                return True, done
            return False, done
        if line == "  ...":
            self.inside = self.in_diagnostics = False
            return True, done
        if self.in_diagnostics and line.startswith("    - text: "):
            value = line[len("    - text: "):]
            if value == ">":
                self.folded = ("", len("    - "), [])
            elif value.startswith('"') and value.endswith('"'):
                done.append(unquote(value[1:-1]))
            return True, done
        self.in_diagnostics = line == "  diagnostics:"
        key = KEY.match(line)
        if key:
            done.append(f"{key.group(1)}: {unquote(key.group(2))}")
        key = FOLDED_KEY.match(line)
        if key:
            self.folded = (f"{key.group(1)}: ", 2, [])
        return True, done


def same_as(diagnostics):
    """(earlier test ID, brief) if the diagnostics are a short block's,
    else None."""
    for line in diagnostics:
        m = SAME.match(line)
        if m:
            return m.group(1), m.group(2) or ""
    return None


def unquote(text):
    """The string a YAML double-quoted scalar holds (the kernel escapes
    only the quote and the backslash)."""
    return re.sub(r'\\(.)', r"\1", text)
