"""What the host tools read in the kernel's TAP 13: the
result lines, the summary comment, and the diagnostics of a result, which
sit in the YAML block under it: its keys (`message: "..."`, `context:`,
`expected:`, `observed:`) and its `diagnostics:` list (`- text: "..."`);
and the lines of its `list` option."""
import re

# A result: kind, number, test ID, statements, SKIP or TODO, and reason.
RESULT = re.compile(r"^(ok|not ok) (\d+) - (\S+)(?: \[([^\]]*)\])?"
                    r"(?: # (SKIP|TODO)\b ?(.*))?$")
SUMMARY_PREFIX = "# pmctest: "
SUMMARY = re.compile(r"^# pmctest: ([0-9]{1,9}) passed, ([0-9]{1,9}) failed, "
                     r"([0-9]{1,9}) skipped$")
# A line of the kernel's `list`: test ID, statements, description.
LISTED = re.compile(r"^(\S+)\s+\[([^\]]*)\]\s*(.*)$")
# A key of a YAML block with its quoted value.
KEY = re.compile(r'^  ([a-z]+): "(.*)"$')
# Screen control that GRUB and SeaBIOS send before the kernel's first line.
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|[\x00-\x08\x0b-\x1f\x7f]")


def summary_counts(line):
    """(passed, failed, skipped) if line is the summary comment, else None."""
    m = SUMMARY.match(line)
    return tuple(int(x) for x in m.groups()) if m else None


class YamlBlock:
    """Follows the YAML blocks of a log fed line by line."""

    def __init__(self):
        self.inside = False
        self.in_diagnostics = False

    def feed(self, line):
        """(belongs, diagnostic): whether line is part of a YAML block, and
        the diagnostic line it carries: "key: value" for a key, the text of
        a list item (None for the block's other lines)."""
        if not self.inside:
            if line == "  ---":
                self.inside = True
                return True, None
            return False, None
        if line == "  ...":
            self.inside = self.in_diagnostics = False
            return True, None
        if self.in_diagnostics and line.startswith('    - text: "') and line.endswith('"'):
            return True, unquote(line[len('    - text: "'):-1])
        self.in_diagnostics = line == "  diagnostics:"
        key = KEY.match(line)
        if key:
            return True, f"{key.group(1)}: {unquote(key.group(2))}"
        return True, None


def unquote(text):
    """The string a YAML double-quoted scalar holds (the kernel escapes
    only the quote and the backslash)."""
    return re.sub(r'\\(.)', r"\1", text)
