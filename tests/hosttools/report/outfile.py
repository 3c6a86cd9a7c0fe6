"""The files tests/run writes for others to read (--junit, the report):
each is checked before the run, by making its temporary file next to it,
and written whole or not at all (the temporary file renamed over it). A
path that is not a regular file (a device, a pipe) is written in place.
What cannot be written is a ToolError: status 2 with one line."""
import os
import tempfile


class ToolError(Exception):
    """tests/run itself cannot do its job (a file it cannot write)."""


def problem(what, path, error):
    return ToolError(f"cannot write {what} {path}: {error.strerror or error}")


class OutputFile:
    def __init__(self, path, what):
        self.path = os.path.abspath(path)
        self.what = what
        self.temp = None
        try:
            if os.path.isdir(self.path):
                raise IsADirectoryError(21, "it is a directory")
            if os.path.exists(self.path) and not os.path.isfile(self.path):
                with open(self.path, "ab"):     # a device: writable at all?
                    pass
                return
            folder = os.path.dirname(self.path)
            os.makedirs(folder, exist_ok=True)
            fd, self.temp = tempfile.mkstemp(
                dir=folder, prefix=f".{os.path.basename(self.path)}.", suffix=".tmp")
            os.close(fd)
        except OSError as e:
            raise problem(what, path, e)

    def write(self, data):
        """The file's whole content (str or bytes), in place of the old."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        try:
            with open(self.temp or self.path, "wb") as f:
                f.write(data)
            if self.temp:
                os.replace(self.temp, self.path)
                self.temp = None
        except OSError as e:
            self.discard()
            raise problem(self.what, self.path, e)

    def discard(self):
        """Remove the temporary file, if it is still there."""
        if self.temp:
            try:
                os.remove(self.temp)
            except OSError:
                pass
            self.temp = None


class OutputDir:
    """A directory of files (the report), its index written last."""

    def __init__(self, path, what, index):
        self.path = path
        self.what = what
        self.index = OutputFile(os.path.join(path, index), what)

    def write(self, files, index_text):
        """files: {name: text}, each written whole; then the index."""
        for name, text in files.items():
            OutputFile(os.path.join(self.path, name), self.what).write(text)
        self.index.write(index_text)

    def discard(self):
        self.index.discard()
