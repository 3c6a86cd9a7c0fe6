"""Bytes from an emulator cut into lines, in time linear in their length
whatever comes: a line without a newline is kept as its pieces and joined
once, and a line longer than MAX_LINE keeps its first MAX_LINE bytes and a
marker that says how many were cut (no line the kernel writes comes near).
"""

from ..judge.patterns import CONTROL, CUT_MARK
from ..judge.tap import TAP_VERSION

MAX_LINE = 1 << 20


class LineSplitter:
    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self._pieces = []
        self._kept = 0          # bytes of the current line in _pieces
        self._cut = 0           # bytes of the current line dropped

    def _take(self, piece):
        room = self.limit - self._kept
        if len(piece) > room:
            self._cut += len(piece) - room
            piece = piece[:room]
        if piece:
            self._pieces.append(piece)
            self._kept += len(piece)

    def _line(self):
        line = b"".join(self._pieces)
        if self._cut:
            line += CUT_MARK % self._cut
        self._pieces, self._kept, self._cut = [], 0, 0
        return line

    def feed(self, data):
        """The lines data completes (bytes, no newline)."""
        lines = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            self._take(data[start:end])
            lines.append(self._line())
            start = end + 1
        if start < len(data):
            self._take(data[start:])
        return lines

    def rest(self):
        """The last line if it had no newline, else None."""
        if not self._pieces and not self._cut:
            return None
        return self._line()


class SerialLines:
    """A serial console's lines as the kernel wrote them: the screen codes
    GRUB and SeaBIOS send taken out, and the lines before the kernel's
    "TAP version 13" (the firmware's, GRUB's, or the whole of a `list`
    boot) kept apart as the preamble, each also handed to preamble_line if
    given. take(line) gives the lines of the kernel's TAP that line holds:
    none, the line, or (firmware that left its last line open) the
    version line split off what came before it on the same line."""

    def __init__(self, preamble_line=None):
        self.preamble = []
        self.started = False
        self.preamble_line = preamble_line

    def take(self, raw):
        line = CONTROL.sub("", raw)
        if self.started:
            return [line]
        if line.endswith(TAP_VERSION):
            before = line[:-len(TAP_VERSION)]
            if before:
                self._keep(before)
            self.started = True
            return [TAP_VERSION]
        self._keep(line)
        return []

    def _keep(self, line):
        self.preamble.append(line)
        if self.preamble_line:
            self.preamble_line(line)
