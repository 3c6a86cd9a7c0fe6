"""The JUnit file: one testsuite per target, one testcase per TAP result."""
import datetime
import os
import socket
import xml.etree.ElementTree as ET

from .judge import reason_of


def junit(runs, path):
    """One testsuite per target, one testcase per TAP result; a run that
    could not be carried out adds an errored testcase named after the boot.
    """
    root = ET.Element("testsuites", name="pmctest")
    totals = dict(tests=0, failures=0, errors=0, skipped=0)
    stamp = datetime.datetime.now().replace(microsecond=0).isoformat()
    host = socket.gethostname()
    total_time = 0.0
    for run in runs:
        name = run.target["name"]
        suite = ET.SubElement(root, "testsuite", name=name, timestamp=stamp,
                              hostname=host)
        props = ET.SubElement(suite, "properties")
        for key in ("emulator", "route", "cpu", "accel", "machine",
                    "about", "expect"):
            if run.target.get(key):
                ET.SubElement(props, "property", name=key,
                              value=str(run.target[key]))
        if run.outcome:
            ET.SubElement(props, "property", name="version",
                          value=run.outcome.emulator)
            for note in run.outcome.notes:
                ET.SubElement(props, "property", name="note", value=note)
        n = dict(tests=0, failures=0, errors=0, skipped=0)
        cls = "pmctest." + name
        for r in (run.judge.results if run.judge else []):
            case = ET.SubElement(suite, "testcase", classname=cls, name=r.id,
                                 time=f"{r.seconds:.3f}")
            n["tests"] += 1
            diag = "\n".join(r.diagnostics)
            if r.verdict == "unexpected":
                n["failures"] += 1
                el = ET.SubElement(case, "failure", type="deviation",
                                   message=reason_of(r))
                el.text = diag
            elif r.verdict == "stale":
                n["failures"] += 1
                e = r.expectation
                el = ET.SubElement(
                    case, "failure", type="stale-expectation",
                    message=f"{e.where} lists this test as failing "
                            f"({e.reason}) but it "
                            f"{'was skipped' if r.kind == 'skip' else 'passed'}")
                el.text = diag
            elif r.verdict == "todo":
                n["skipped"] += 1
                ET.SubElement(case, "skipped",
                              message="expected failure (TODO): " +
                              r.expectation.reason)
                ET.SubElement(case, "system-out").text = diag
            elif r.verdict == "skip":
                n["skipped"] += 1
                ET.SubElement(case, "skipped", message=r.skip_reason)
            elif diag:
                ET.SubElement(case, "system-out").text = diag
        for e in run.excluded:
            case = ET.SubElement(suite, "testcase", classname=cls,
                                 name=e.pattern, time="0")
            n["tests"] += 1
            n["skipped"] += 1
            ET.SubElement(case, "skipped",
                          message=f"left out on this target: {e.reason}")
        for msg in run.problems + [m for m in run.mismatches
                                   if "matches no test" in m]:
            is_error = msg in run.problems
            case = ET.SubElement(suite, "testcase", classname=cls,
                                 name="(boot)" if is_error else "(expectations)",
                                 time=f"{run.seconds:.3f}")
            n["tests"] += 1
            if is_error:
                n["errors"] += 1
                ET.SubElement(case, "error", type="harness",
                              message=msg).text = msg
            else:
                n["failures"] += 1
                ET.SubElement(case, "failure", type="stale-expectation",
                              message=msg).text = msg
        if run.judge:
            ET.SubElement(suite, "system-out").text = "\n".join(
                run.judge.lines)
        for k, v in n.items():
            suite.set(k, str(v))
            totals[k] += v
        suite.set("time", f"{run.seconds:.3f}")
        total_time += run.seconds
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", f"{total_time:.3f}")
    if hasattr(ET, "indent"):      # Python 3.9 and later
        ET.indent(root)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
