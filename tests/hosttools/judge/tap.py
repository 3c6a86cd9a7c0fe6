"""The one verdict on a boot's serial lines, for tests/boot.py, tests/run
and the LAVA check: the kernel's TAP read line by line as strictly as
Perl's TAP::Parser reads it under `pragma +strict`, and stricter where the
kernel's own form is narrower.

Lines before the first "TAP version 13" are the firmware's and GRUB's and
are not judged (nor what firmware left on the version line's start). From there on every line must be one the kernel writes:

  TAP version 13            once (a second one: the guest started over)
  1..N                      once, N >= 1, before the first result
  ok N - ID [STATEMENTS]    N the next number: unique and in order
  ok N - ID [STATEMENTS] # SKIP reason
                            ("same as ID": the reason of the earlier ID)
  not ok N - ID [STATEMENTS]
    followed, if at all, by one YAML block: "  ---", then lines
    '  key: "text"', "  diagnostics:", '    - text: "text"' (a long
    text folded: "key: >" and its lines indented under it), then "  ..."
  # comment                 among them the one summary,
                            "# pmctest: P passed, F failed, S skipped",
                            after the last result
  Bail out! reason          the kernel gave up: status 2

The verdict then holds the plan against the results, the summary against
the results, and the kernel's exit status (when the caller knows it)
against the not ok lines. Anything else is status 2 with the reason.
"""
import re

from .patterns import CUT, LISTED, SUMMARY

TAP_VERSION = "TAP version 13"
# A line TAP::Parser takes for a result, whatever follows.
RESULT_START = re.compile(r"^(?:not )?ok\b")
# The kernel's result line: kind, number, ID, statements, SKIP reason.
# Numbers have at most 9 digits: the kernel counts in 32 bits.
KERNEL_RESULT = re.compile(r"^(ok|not ok) ([1-9][0-9]{0,8}) - ([^\s\[\]#]+) "
                           r"\[([^\]]*)\](?: # SKIP (.*))?$")
# A SKIP for the reason an earlier test gave in full (kernel/skips_said.h).
SKIP_SAME = re.compile(r"^same as ([^\s\[\]#]+)$")
PLAN = re.compile(r"^1\.\.([0-9]{1,9})$")
# A YAML double-quoted scalar as the kernel writes it: only the quote and
# the backslash escaped (the loop unrolled: linear, and fast on long text).
QUOTED = r'"([^"\\]*(?:\\["\\][^"\\]*)*)"'
YAML_KEY = re.compile(r"^  ([a-z]+): " + QUOTED + "$")
YAML_ITEM = re.compile(r"^    - text: " + QUOTED + "$")
# A value too long for its line is a folded block scalar: "key: >" (or the
# list's "- text: >"), then lines indented 4 (the list's 8) that a reader
# joins with spaces (kernel/tap_writer.c, print_value()).
FOLDED_KEY = re.compile(r"^  ([a-z]+): >$")
FOLDED_ITEM = "    - text: >"
# How much of an offending line a reason quotes.
QUOTE_CHARS = 80

EXIT_PASSED, EXIT_FAILED, EXIT_ERROR = 0, 1, 2


class Result:
    """One result line of the kernel and the diagnostics of its YAML block."""

    def __init__(self, number, test_id, statements, kind, skip_reason):
        self.number = number
        self.id = test_id
        self.statements = statements
        self.kind = kind            # pass, fail, skip (what the kernel said)
        self.skip_reason = skip_reason  # "same as ID": ID's, and whose
        self.diagnostics = []       # "key: value" and the list's texts
        self.written = []           # the same, as the block writes them
                                    # (an item's text keeps its indentation)
        self.same_as = None         # a short block's: the Result it names


class Verdict:
    """status 0 (no test failed), 1 (a test failed) or 2 (the log or the
    status is not what a completed run gives: reason says what)."""

    def __init__(self, status, reason=None):
        self.status = status
        self.reason = reason

    def __repr__(self):
        return f"Verdict({self.status}, {self.reason!r})"


def unquote(text):
    """The string a YAML double-quoted scalar holds (the kernel escapes
    only the quote and the backslash)."""
    return re.sub(r'\\(.)', r"\1", text)


def quote(line):
    """The start of line, for a reason, and how much more it had (with what
    the line splitter cut from a very long one)."""
    text = line[:QUOTE_CHARS]
    more = len(line) - len(text)
    cut = CUT.search(line)
    return repr(text) + (f" (and {more} more characters" if more else "") + (
        f"; {cut.group(1)} more bytes were cut from it as it came" if cut else "") + (
        ")" if more else "")


class TapReader:
    """Reads one boot's serial lines as they come (feed), then gives the
    verdict (finish). Each line costs time linear in its length."""

    def __init__(self):
        self.started = False        # the TAP version line came
        self.plan = None
        self.results = []
        self.summary = None         # (passed, failed, skipped)
        self.bailed = None          # the Bail out! line
        self.restarted = False      # a second TAP version line came
        self.problem = None         # the first line that breaks the form
        self.count = 0              # lines fed
        self._yaml = None           # None, "open" (after ---), "diagnostics"
        self._fold = None           # a folded value: (prefix, indent, lines)
        self._after_result = False  # the line before was a result line
        self._skipped = {}          # test ID: the reason it was skipped for

    def _break(self, why):
        if self.problem is None:
            self.problem = f"line {self.count}: {why}"
        return "error"

    def feed(self, line):
        """Takes one line (no newline); returns what it was: "preamble",
        "version", "plan", "result", "yaml", "comment", "summary", "bail"
        or "error"."""
        self.count += 1
        after_result, self._after_result = self._after_result, False
        if not self.started:
            # firmware may leave its last line open: SeaBIOS's "Booting
            # from ROM.." and the version line come as one line
            if line.endswith(TAP_VERSION):
                self.started = True
                return "version"
            return "preamble"
        if self._yaml:
            return self._yaml_line(line)
        if line == "  ---":
            if not after_result:
                return self._break("a YAML block that follows no result line")
            self._yaml = "open"
            return "yaml"
        if line == TAP_VERSION:
            self.restarted = True
            return self._break("a second 'TAP version' line: the guest started over")
        if self.bailed:
            return self._break(f"{quote(line)} after the Bail out! line")
        if RESULT_START.match(line):
            return self._result(line)
        m = PLAN.match(line)
        if m:
            if self.plan is not None:
                return self._break(f"a second plan {quote(line)}")
            if self.results:
                return self._break("the plan after the first result")
            self.plan = int(m.group(1))
            if self.plan == 0:
                return self._break("the plan 1..0: a run with no test")
            return "plan"
        if line.startswith("#"):
            counts = SUMMARY.match(line)
            if counts:
                if self.summary is not None:
                    return self._break("a second summary line")
                self.summary = tuple(int(x) for x in counts.groups())
                return "summary"
            return "comment"
        if line.startswith("Bail out!"):
            self.bailed = line
            return "bail"
        return self._break(f"not a line of TAP: {quote(line)}")

    def _result(self, line):
        m = KERNEL_RESULT.match(line)
        if not m:
            return self._break(f"a result line that does not parse: {quote(line)}")
        status, number, test_id, statements, skip = m.groups()
        number = int(number)
        if self.plan is None:
            return self._break("a result before the plan")
        if self.summary is not None:
            return self._break("a result after the summary line")
        if number != len(self.results) + 1:
            return self._break(f"test number {number} where "
                               f"{len(self.results) + 1} was due")
        if number > self.plan:
            return self._break(f"result {number} beyond the plan 1..{self.plan}")
        if skip is not None and status != "ok":
            return self._break(f"a not ok line marked SKIP: {quote(line)}")
        kind = "skip" if skip is not None else "pass" if status == "ok" else "fail"
        self.results.append(Result(number, test_id, statements, kind,
                                   self._skip_reason(skip or "")))
        if kind == "skip":
            self._skipped.setdefault(test_id, self.results[-1].skip_reason)
        self._after_result = True
        return "result"

    def _skip_reason(self, reason):
        """The reason itself: for "same as ID", the reason ID was skipped
        for, naming ID; as written where no earlier SKIP has that ID."""
        m = SKIP_SAME.match(reason)
        earlier = self._skipped.get(m.group(1)) if m else None
        if earlier is None:
            return reason
        return f"{earlier} (as for {m.group(1)})"

    def _yaml_line(self, line):
        if self._fold:
            prefix, indent, pieces = self._fold
            # Its text starts after the indentation: a line whose text
            # starts with white space (a tab, U+0085, U+2028) is not the
            # kernel's, and Perl's YAMLish reader takes the indentation from
            # it (str.isspace() holds for all Perl's \s does, and more).
            if len(line) > indent and line[:indent] == " " * indent and \
                    not line[indent].isspace():
                pieces.append(line[indent:])
                return "yaml"
            self._fold = None
            self._diagnostic(prefix + " ".join(pieces), strip=False)
            if not pieces:
                self._yaml = None
                return self._break("a folded value (>) with no line of text")
        if line == "  ...":
            self._yaml = None
            return "yaml"
        if line == "  diagnostics:":
            self._yaml = "diagnostics"
            return "yaml"
        if self._yaml == "diagnostics":
            item = YAML_ITEM.match(line)
            if item:
                self._diagnostic(unquote(item.group(1)))
                return "yaml"
            if line == FOLDED_ITEM:
                self._fold = ("", 8, [])
                return "yaml"
        key = YAML_KEY.match(line)
        if key:
            self._yaml = "open"
            self._diagnostic(f"{key.group(1)}: {unquote(key.group(2))}")
            return "yaml"
        key = FOLDED_KEY.match(line)
        if key:
            self._yaml = "open"
            self._fold = (f"{key.group(1)}: ", 4, [])
            return "yaml"
        self._yaml = None
        return self._break(f"not a line of the kernel's YAML block: {quote(line)}")

    def _diagnostic(self, text, strip=True):
        """A diagnostic of the last result, as written and as judged."""
        result = self.results[-1]
        result.written.append(text)
        result.diagnostics.append(text.strip() if strip else text)

    def counts(self):
        """(passed, failed, skipped) of the results read."""
        kinds = [r.kind for r in self.results]
        return kinds.count("pass"), kinds.count("fail"), kinds.count("skip")

    def finish(self, status):
        """The verdict, given the kernel's exit status (None: not known)."""
        if self.bailed:
            return Verdict(EXIT_ERROR, self.bailed)
        if status == EXIT_ERROR:
            return Verdict(EXIT_ERROR, "the kernel reported a harness error "
                                       "(exit status 2)")
        if not self.started:
            return Verdict(EXIT_ERROR, "no 'TAP version 13' line" if self.count
                           else "no output on the serial console")
        if self.problem:
            return Verdict(EXIT_ERROR, "the TAP breaks its form at " + self.problem)
        if self._yaml:
            return Verdict(EXIT_ERROR, "truncated TAP: a YAML block not closed")
        if self.plan is None:
            return Verdict(EXIT_ERROR, "no plan (1..N) line")
        if len(self.results) != self.plan:
            return Verdict(EXIT_ERROR, f"truncated TAP: plan 1..{self.plan} but "
                                       f"{len(self.results)} results")
        if self.summary is None:
            return Verdict(EXIT_ERROR, "truncated TAP: no summary line")
        counts = self.counts()
        if self.summary != counts:
            return Verdict(EXIT_ERROR, "the summary says {} passed, {} failed, "
                           "{} skipped; the results: {} passed, {} failed, {} "
                           "skipped".format(*self.summary, *counts))
        failed = EXIT_FAILED if counts[1] else EXIT_PASSED
        if status is not None and status != failed:
            return Verdict(EXIT_ERROR, f"the kernel's exit status {status} does "
                                       f"not match its {counts[1]} not ok lines")
        return Verdict(failed)


LISTING_END = re.compile(r"^# pmctest: ([0-9]{1,9}) tests$")


def is_listing(lines):
    """Whether lines end with the kernel's complete `list` output: N test
    lines and "# pmctest: N tests" (the `list` option writes no TAP)."""
    m = LISTING_END.match(lines[-1]) if lines else None
    if not m or int(m.group(1)) >= len(lines):
        return False
    n = int(m.group(1))
    return all(LISTED.match(line) for line in lines[len(lines) - 1 - n:-1])


def read(lines):
    """A TapReader that has read a whole log (a list of lines): its results
    with their diagnostics, and the first line that broke the form."""
    reader = TapReader()
    for line in lines:
        reader.feed(line)
    return reader


def verdict(lines, status):
    """The verdict on a whole log (a list of lines)."""
    return read(lines).finish(status)
