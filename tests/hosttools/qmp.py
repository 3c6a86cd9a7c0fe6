"""QEMU's machine protocol (QMP) over a unix socket: commands in order."""
import json
import socket


def qmp(path, commands, timeout=20):
    """Run QMP commands [(name, arguments)] in order; their answers."""
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(path)
        s.settimeout(timeout)
        f = s.makefile("rwb")
        json.loads(f.readline())        # the greeting
        answers = []
        for name, arguments in [("qmp_capabilities", {})] + commands:
            f.write(json.dumps({"execute": name, "arguments": arguments}).encode() + b"\n")
            f.flush()
            while True:
                msg = json.loads(f.readline())
                if "return" in msg or "error" in msg:
                    answers.append(msg)
                    break
        return answers[1:]
