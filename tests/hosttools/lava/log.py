"""A LAVA job's log read back: its records, the kernel's serial lines and
LAVA's results. Two forms are read: lava-run's output (one record a
line) and a server's log (`lavacli jobs logs --raw`: a YAML list, "- "
before each record). Each record is {"dt", "lvl", "msg"}, written by
lava_common/log.py as a one-line YAML flow mapping, mostly also JSON.

Which "target" records are the kernel's. LAVA logs the console through
one pexpect logfile (lava_dispatcher/shell.py, ShellLogger), and pexpect
writes to it what LAVA sends as well as what it reads: every line LAVA
types is a "target" record too, after its "input" record. When the job
ends, LAVA's finalize action types "poweroff" to QEMU
(lava_dispatcher/connections/serial.py, QemuSession.disconnect) after
pmctest's QEMU has exited through isa-debug-exit; the pty, its terminal
modes restored, echoes the word. LAVA reads the echo once
(listen_feedback: a "feedback" record) and closes the console, and
pexpect's close() flushes a line still partial in the logger as one more
"target" record (ShellCommand.flush). So when the echo's line end comes
after its word, the log holds "poweroff" twice as "target" against one
"input". The kernel's lines are the "target" records before LAVA's
finalize action starts: the test monitor ends on the kernel's last line
(its summary, matched with its line end, so that it is logged whole
first), and from finalize on LAVA only powers off.
"""
import json
import re

from ..judge import patterns as tap_log

# LAVA's finalize action starting ("start: 4 finalize (timeout ...)")
FINALIZE = re.compile(r"^start: [0-9.]+ finalize\b")
# how much of an offending line a message quotes
QUOTE_CHARS = 80


class LogError(ValueError):
    """The file is not a LAVA job log as a whole: what and where."""


def _quote(text):
    return repr(text[:QUOTE_CHARS] + ("..." if len(text) > QUOTE_CHARS else ""))


def _record(line):
    """The record a line holds, or None. JSON first (fast); a record JSON
    cannot read (a YAML escape such as "\\x0F") by the YAML reader."""
    text = line[2:] if line.startswith("- ") else line
    try:
        record = json.loads(text)
    except ValueError:
        try:
            import yaml
        except ImportError:
            raise LogError("a record is not JSON and Python's yaml module "
                           "is missing (Debian: python3-yaml)") from None
        try:
            record = yaml.safe_load(text)
        except yaml.YAMLError:
            return None
    if not (isinstance(record, dict) and isinstance(record.get("lvl"), str)
            and "msg" in record):
        return None
    return record["lvl"], record["msg"]


def records(text, strict=True):
    """[(level, msg)] of a log's text. strict: a line that is not a record
    is a LogError (a foreign or cut line); else it is left out (lava-run's
    stderr is read with its stdout)."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        record = _record(line)
        if record is None:
            if strict:
                raise LogError(f"line {number} is not a LAVA log record: "
                               f"{_quote(line)}")
            continue
        out.append(record)
    if strict and not out:
        raise LogError("no LAVA log records in it")
    return out


def serial_lines(recs):
    """The kernel's serial lines: the "target" records before LAVA's
    finalize action, less the lines LAVA typed (pexpect's copy of what
    it sent), with LAVA's escaping undone (it puts a backslash before
    every quote, and drops CR, ESC and empty lines) and screen codes
    taken off."""
    lines, typed = [], {}
    for level, msg in recs:
        if level == "info" and isinstance(msg, str) and FINALIZE.match(msg):
            break
        if level == "input" and isinstance(msg, str):
            key = msg.strip()
            typed[key] = typed.get(key, 0) + 1
        elif level == "target" and isinstance(msg, str):
            text = tap_log.CONTROL.sub("", msg.replace('\\"', '"'))
            if typed.get(text):
                typed[text] -= 1
            else:
                lines.append(text)
    return lines


def results(recs):
    """LAVA's result records (dicts), in log order."""
    return [msg for level, msg in recs
            if level == "results" and isinstance(msg, dict)]


def errors(recs):
    return [str(msg) for level, msg in recs if level == "error"]


def info_lines(recs):
    return [msg for level, msg in recs
            if level == "info" and isinstance(msg, str)]
