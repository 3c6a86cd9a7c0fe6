"""Bytes from an emulator cut into lines, in time linear in their length
whatever comes: a line without a newline is kept as its pieces and joined
once, and a line longer than MAX_LINE keeps its first MAX_LINE bytes and a
marker that says how many were cut (no line the kernel writes comes near).
"""

import re

MAX_LINE = 1 << 20
# The mark a cut line ends with, and the pattern that finds it.
CUT_MARK = b" [pmctest: %d more bytes of this line cut]"
CUT = re.compile(r" \[pmctest: ([0-9]+) more bytes of this line cut\]$")


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
