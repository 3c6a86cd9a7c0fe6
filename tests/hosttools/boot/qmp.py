"""QEMU's machine protocol (QMP) over a unix socket: commands in order."""
import json
import socket


def message(f):
    """The next JSON message; ConnectionError where QEMU closed the socket,
    ValueError where the line is not JSON."""
    line = f.readline()
    if not line:
        raise ConnectionError("QEMU closed the QMP socket")
    return json.loads(line)


def qmp(path, commands, timeout=20):
    """Run QMP commands [(name, arguments)] in order; their answers.
    OSError (the socket) or ValueError (not JSON) where QEMU fails."""
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(path)
        s.settimeout(timeout)
        f = s.makefile("rwb")
        message(f)                      # the greeting
        answers = []
        for name, arguments in [("qmp_capabilities", {})] + commands:
            f.write(json.dumps({"execute": name, "arguments": arguments}).encode() + b"\n")
            f.flush()
            while True:
                msg = message(f)
                if "return" in msg or "error" in msg:
                    answers.append(msg)
                    break
        return answers[1:]
