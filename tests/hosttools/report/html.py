"""--report DIR: a conformance report a person reads at a glance, one
self-contained HTML page (inline SVG, no script, nothing fetched) with, per
target: the privilege matrix (mode x CPL x CR4.PCE x case) coloured by
verdict, the statements of docs/spec.md with their pass / deviates / known
/ skipped counts, the verdicts of each CPU's tests where the run had APs
(their IDs end in "@cpuN"), and the findings; each target's TAP log
beside it.
matrix-TARGET.svg holds the matrix alone (the report check,
hosttools/checks/report.py, renders it and checks its cells)."""
import html
import os

from .spec_doc import statements as spec_statements

from ..judge.xmltext import MESSAGE_CHARS, xml_text
from ..judge.judge import reason_of

COLORS = {"pass": "#2e7d32", "deviates": "#c62828", "known": "#ef6c00",
          "skip": "#9e9e9e", "stale": "#6a1b9a", "none": "#ffffff"}
KIND = {"pass": "pass", "unexpected": "deviates", "todo": "known",
        "skip": "skip", "stale": "stale"}

# The privilege matrix: rows are execution contexts, columns CR4.PCE x case.
ROWS = ([("long", c) for c in range(4)] + [("compat", c) for c in range(4)] +
        [("prot32", c) for c in range(4)] + [("prot16", c) for c in range(4)] +
        [("v86", None), ("real", None)])
CASES = ("valid", "invalid", "anyecx", "rcxhigh", "fullecx")
CELL, LEFT, TOP = 16, 92, 40


def priv_id(mode, cpl, pce, case):
    where = f"cpl{cpl}." if cpl is not None else ""
    return f"priv.{mode}.{where}pce{pce}.{case}"


def cell_origin(row, pce, case):
    """Top-left corner of a matrix cell, in SVG pixels."""
    col = pce * (len(CASES) + 1) + CASES.index(case)
    return LEFT + col * CELL, TOP + row * CELL


def kind_of(result):
    return KIND.get(result.verdict, "none")


def matrix_svg(results):
    """The privilege matrix of one target as an SVG document."""
    by_id = {r.id: r for r in results}
    width = LEFT + (2 * len(CASES) + 1) * CELL + 8
    height = TOP + len(ROWS) * CELL + 8
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" font-family="sans-serif" font-size="10">',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>']
    for pce in (0, 1):
        x, _ = cell_origin(0, pce, CASES[0])
        out.append(f'<text x="{x}" y="12">CR4.PCE = {pce}</text>')
        for case in CASES:
            cx, _ = cell_origin(0, pce, case)
            out.append(f'<text x="{cx + 4}" y="{TOP - 6}">{case[0].upper()}</text>')
    for row, (mode, cpl) in enumerate(ROWS):
        _, y = cell_origin(row, 0, CASES[0])
        label = mode + (f" CPL {cpl}" if cpl is not None else "")
        out.append(f'<text x="4" y="{y + 12}">{label}</text>')
        for pce in (0, 1):
            for case in CASES:
                test_id = priv_id(mode, cpl, pce, case)
                r = by_id.get(test_id)
                kind = kind_of(r) if r else "none"
                x, y = cell_origin(row, pce, case)
                out.append(f'<rect x="{x}" y="{y}" width="{CELL - 2}" '
                           f'height="{CELL - 2}" fill="{COLORS[kind]}" '
                           f'stroke="#cccccc"><title>{test_id}: {kind}</title></rect>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def cpu_of(test_id):
    """The CPU a test ran on: N of an ID ending in "@cpuN", else 0."""
    _, at, cpu = test_id.partition("@cpu")
    return int(cpu) if at and cpu.isdigit() else 0


def cpu_table(results):
    """One row per CPU with its tests' verdicts, where there is more than
    CPU 0; the per-CPU part of an AP holds fewer tests than CPU 0's run."""
    per_cpu = {}
    for r in results:
        c = per_cpu.setdefault(cpu_of(r.id), {})
        c[kind_of(r)] = c.get(kind_of(r), 0) + 1
    if len(per_cpu) < 2:
        return ""
    kinds = ("pass", "deviates", "known", "stale", "skip")
    rows = "".join(
        f"<tr><td>CPU {cpu}</td>" + "".join(
            f'<td style="background:{COLORS[k]}33">{counts.get(k, 0)}</td>'
            if counts.get(k) else "<td>0</td>" for k in kinds) + "</tr>"
        for cpu, counts in sorted(per_cpu.items()))
    return ("<h3>Per CPU</h3><table><tr><th>CPU</th>" +
            "".join(f"<th>{k}</th>" for k in kinds) + f"</tr>{rows}</table>")


def statement_rows(results):
    """[(ID, text, anchor, {kind: count})] for the statements of the spec."""
    counts = {}
    for r in results:
        for s in r.statements.split():
            c = counts.setdefault(s, {})
            c[kind_of(r)] = c.get(kind_of(r), 0) + 1
    return [(sid, text, anchor, counts.get(sid, {}))
            for sid, text, anchor in spec_statements()]


def cell_of(counts, log):
    if not counts:
        return '<td class="untested">untested</td>'
    worst = next(k for k in ("deviates", "stale", "known", "pass", "skip")
                 if counts.get(k) or k == "skip")
    text = ", ".join(f"{counts[k]} {k}" for k in ("pass", "deviates", "known",
                                                   "stale", "skip") if counts.get(k))
    return f'<td style="background:{COLORS[worst]}33"><a href="{log}">{text}</a></td>'


def findings(run):
    rows = [r for r in run.judge.results if r.verdict in ("unexpected", "todo", "stale")]
    if not rows:
        return "<p>No deviation.</p>"
    items = "".join(
        f'<li><code>{shown(r.id)}</code> [{shown(r.statements)}]: '
        f'{"known, " if r.verdict == "todo" else ""}{shown(reason_of(r))}</li>'
        for r in rows)
    return f"<ul>{items}</ul>"


def shown(text):
    """Text from a target or the host, fit for the page and capped."""
    return html.escape(xml_text(text, MESSAGE_CHARS))


def report_files(runs):
    """({file name: text}, the text of index.html)."""
    files = {}
    ran = [r for r in runs if r.available and r.judge]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>pmctest conformance report</title><style>",
             "body{font-family:sans-serif;margin:1em 2em}table{border-collapse:collapse}",
             "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px;vertical-align:top}",
             "td.untested{color:#999}.key span{display:inline-block;width:12px;height:12px;margin:0 4px}",
             "</style></head><body><h1>pmctest conformance report</h1>",
             '<p class="key">' + "".join(
                 f'<span style="background:{c}"></span>{k}' for k, c in COLORS.items()
                 if k != "none") + "</p>"]
    for r in runs:
        if not r.available:
            parts.append(f"<p><b>{shown(r.target.name)}</b>: not available "
                         f"here ({shown(r.why_not)})</p>")
    if ran:
        parts.append("<h2>Statements</h2><table><tr><th>statement</th>" +
                     "".join(f"<th>{shown(r.target.name)}</th>" for r in ran) +
                     "</tr>")
        per_target = [statement_rows(r.judge.results) for r in ran]
        for i, (sid, text, anchor, _) in enumerate(per_target[0]):
            parts.append(f'<tr><td title="{shown(text)}">{sid}</td>' +
                         "".join(cell_of(rows[i][3], f"{r.target.name}.log")
                                 for rows, r in zip(per_target, ran)) + "</tr>")
        parts.append("</table>")
    for r in ran:
        name = r.target.name
        svg = matrix_svg(r.judge.results)
        files[f"matrix-{name}.svg"] = svg
        files[f"{name}.log"] = "".join(line + "\n" for line in r.judge.lines)
        parts.append(f"<h2>{shown(name)}</h2><p>{shown(r.target.about)}; "
                     f'{shown(r.outcome.emulator if r.outcome else "")}; '
                     f'<a href="{name}.log">TAP log</a>; expectations '
                     f'<code>{shown(os.path.basename(r.expect_path()))}</code></p>')
        parts.append("<h3>The privilege matrix</h3>" + svg)
        parts.append(cpu_table(r.judge.results))
        parts.append("<h3>Findings</h3>" + findings(r))
    parts.append("</body></html>")
    return files, "\n".join(parts) + "\n"
