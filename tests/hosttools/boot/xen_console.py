"""Xen's serial console read back: the lines a guest wrote to port E9H,
which Xen prints after the domain's prefix "(d0) ", and Xen's own "(XEN) "
lines.

Xen (4.17 and 4.20) prints what an HVM or PVH guest writes to E9H a line
at a time (hvm_print_line() in xen/arch/x86/hvm/hvm.c): at a newline, or
when 199 characters are buffered, whichever comes first; it drops any character but
printable ASCII, newline and tab, and prints only with guest_loglvl=all. A
guest line longer than 198 characters arrives in pieces of 199 (a line of
exactly 199 is followed by an empty piece, its newline): a piece of 199
characters is joined with the next. pmctest's own lines are never that
long (kernel/console.h); other guests' may be.
"""
import re

PIECE = 199     # DOMAIN_PBUF_SIZE - 1 in Xen 4.17 and 4.20
GUEST = re.compile(r"^\(d(\d+)\)(?: (.*))?$")
XEN = re.compile(r"^\(XEN\) ?(.*)$")
BANNER = re.compile(r"^Xen version \S+")
# Xen has given up on the guest or on the machine: nothing more will come.
FATAL = re.compile(r"^(Panic on CPU \d+:|Hardware Dom\d+ (crashed|halted|"
                   r"shutdown)|Domain \d+ crashed)")


def version_words(banner):
    """Xen's version in a few words: its banner up to the end of its first
    parenthesised group ("Xen version 4.20.4 (Debian
    4.20.4+63-g7abfd2bce2-0+deb13u1)" of "Xen version 4.20.4 (Debian
    4.20.4+63-g7abfd2bce2-0+deb13u1) (pkg-xen-devel@...)
    (x86_64-linux-gnu-gcc ...) debug=n ..."), without the compiler and the build's date; a
    build of your own names its builder there ("(user@host)")."""
    m = re.match(r"^Xen version \S+(?: \([^()]*\))?", banner)
    return m.group(0) if m else banner


class XenConsole:
    """Fed Xen's console line by line: gives back the guest's lines,
    rejoined; keeps Xen's own lines, its version banner, its "VPMU" lines
    and the line that says Xen stopped, if any."""

    def __init__(self, domain=0, on_xen_line=None):
        self.domain = str(domain)
        # called with each line of Xen's own; the lines it returns are
        # comments for the kernel's log (take_comments)
        self.on_xen_line = on_xen_line
        self.comments = []
        self.lines = []         # the whole console, as it came
        self.xen_lines = []
        self.version = None     # "Xen version 4.17.7 (...) ..."
        self.vpmu = []          # "VPMU: version 0.1", "VPMU: Unsupported ..."
        self.fatal = None
        self.pending = None

    def feed(self, line):
        """The guest's lines this console line completes (none or one)."""
        self.lines.append(line)
        guest = GUEST.match(line)
        if guest and guest.group(1) == self.domain:
            piece = guest.group(2) or ""
            text = (self.pending or "") + piece
            if len(piece) == PIECE:     # Xen's buffer was full: more follows
                self.pending = text
                return []
            self.pending = None
            return [text]
        xen = XEN.match(line)
        text = xen.group(1) if xen else line
        self.xen_lines.append(text)
        if xen and BANNER.match(text) and not self.version:
            self.version = text
        if xen and text.startswith("VPMU"):
            self.vpmu.append(text)
        if xen and FATAL.match(text) and not self.fatal:
            self.fatal = text
        if self.on_xen_line:
            self.comments += self.on_xen_line(text)
        return []

    def take_comments(self):
        """The comments on_xen_line gave since the last call."""
        taken, self.comments = self.comments, []
        return taken

    def finish(self):
        """A guest line still waiting for its next piece, if any."""
        rest, self.pending = self.pending, None
        return [rest] if rest is not None else []


def guest_lines(lines, domain=0):
    """The guest's lines of a whole Xen console log."""
    console = XenConsole(domain)
    out = [text for line in lines for text in console.feed(line)]
    return out + console.finish()


def is_xen_console(lines):
    """Whether a log is Xen's console rather than the guest's own."""
    return any(XEN.match(line) for line in lines[:50]) and \
        any(GUEST.match(line) for line in lines)
