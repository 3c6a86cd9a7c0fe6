"""Command-line parsing shared by the host commands: an error is one line
on stderr and status 2, and numbers are checked for what they mean."""
import argparse
import math
import sys


class Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{self.prog}: {message} (status 2; {self.prog} --help says how)",
              file=sys.stderr)
        sys.exit(2)


def seconds(text):
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds")
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            f"{text!r}: seconds must be a positive, finite number")
    return value


def count(least):
    """An integer of at least least."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        if value < least:
            raise argparse.ArgumentTypeError(f"{text!r}: at least {least}")
        return value
    return parse
