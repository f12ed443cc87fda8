"""The postmortem as one self-contained HTML page: the Markdown's content, the SVGs inline, a
little inline CSS, no script and no external request (it is read offline, or pasted)."""

from __future__ import annotations

from html import escape

from stallscope.postmortem.model import FindingSection, Image, Report
from stallscope.postmortem.when import relative, span, utc

STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:1240px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;
vertical-align:top}th{background:#f4f4f4}.free{white-space:pre-wrap}.muted{color:#666}
figure{margin:1em 0}figcaption{color:#555;font-size:13px}svg{max-width:100%;height:auto}
blockquote{border-left:3px solid #ccc;margin:.5em 0;padding:.1em .8em;color:#444}code{font-size:13px}
"""


def e(text: str) -> str:
    return escape(text, quote=True)


def _link(label: str, url: str | None) -> str:
    return f'<a href="{e(url)}">{e(label)}</a>' if url else ""


def _free(text: str, empty: str) -> str:
    return f'<p class="free">{e(text.strip())}</p>' if text.strip() else f'<p class="muted">{e(empty)}</p>'


def _inline(image: Image) -> str:
    """The SVG file as an element of the page (its XML declaration dropped)."""
    svg = image.svg.decode("utf-8")
    if svg.startswith("<?xml"):
        svg = svg.split("?>", 1)[1].lstrip()
    return f"<figure>{svg}<figcaption>{e(image.caption)}</figcaption></figure>"


def render(report: Report) -> str:
    out: list[str] = []
    add = out.append
    title = f"Postmortem: {report.title} (incident #{report.incident_id})"
    add(f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>')
    add(f"<style>{STYLE}</style></head><body>")
    add(f"<h1>{e(title)}</h1>")
    add(
        f'<p class="muted">Written by Stallscope at {utc(report.generated_at)} from '
        f"{_link('the incident', report.incident_link)}. Times are UTC; T+ counts from the incident's "
        f"start, {utc(report.started_at)}.</p>"
    )
    add("<h2>Summary</h2><table>")
    rows = [
        ("Severity", report.severity),
        ("Status", report.status),
        ("Started", utc(report.started_at)),
        ("Hosts", ", ".join(report.hosts) or "none"),
    ]
    if report.time_range:
        first, last = report.time_range
        rows.append(
            ("Captures cover", f"{utc(first)} to {utc(last)} ({span((last - first).total_seconds())})")
        )
    rows.append(("Confirmed findings", str(len(report.confirmed))))
    out += [f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rows]
    add("</table>")
    add(_free(report.summary, "No summary written."))
    if report.captures:
        add("<h3>Captures</h3><ul>")
        for c in report.captures:
            when = f"{utc(c.start)} to {utc(c.end)}" if c.start and c.end else "no timed records"
            samples = f", {c.samples:,} samples" if c.samples else ""
            add(f"<li><code>{e(c.filename)}</code> on {e(c.host) or 'no host'}: {when}{samples}</li>")
        add("</ul>")
    add("<h2>Status history</h2><table><tr><th>When (UTC)</th><th></th><th>Status</th><th>By</th></tr>")
    for step in report.status_history:
        add(
            f"<tr><td>{utc(step.at)}</td><td>{relative(step.at, report.started_at)}</td>"
            f"<td>{e(step.status)}</td><td>{e(step.who or '')}</td></tr>"
        )
    add("</table>")
    add("<h2>Root cause</h2>" + _free(report.root_cause, "Not written yet."))
    add("<h2>Remediation</h2>" + _free(report.remediation, "Not written yet."))
    add("<h2>Timeline</h2><table><tr><th>When (UTC)</th><th></th><th>What</th></tr>")
    for entry in report.timeline:
        add(
            f"<tr><td>{utc(entry.at)}</td><td>{relative(entry.at, report.started_at)}</td>"
            f"<td>{e(entry.text)}</td></tr>"
        )
    add("</table>")
    add("<h2>Confirmed findings</h2>")
    if not report.confirmed:
        add('<p class="muted">No finding has been confirmed.</p>')
    for section in report.confirmed:
        out.extend(_finding(section))
    if report.others:
        add("<h2>Other findings (not confirmed)</h2>")
        add("<p>What the findings engine also reported, not confirmed by anyone: one line each.</p><ul>")
        for other in report.others:
            judged = f" Dismissed: {e(other.note or 'no note')}." if other.verdict == "dismissed" else ""
            head = f"<strong>{e(other.title)}</strong> ({e(other.severity)})"
            add(f"<li>{head}: {e(other.summary)}{judged}</li>")
        add("</ul>")
    add("</body></html>\n")
    return "\n".join(out)


def _finding(section: FindingSection) -> list[str]:
    out = [
        f"<h3>{section.number}. {e(section.title)}</h3>",
        f"<p>{e(section.severity)}, confidence {section.confidence:.2f}, on {e(', '.join(section.hosts))}. "
        f"{e(section.judged)}.</p>",
        f"<p>{e(section.summary)}</p>",
    ]
    if section.note:
        out.append(f"<blockquote>{e(section.note)}</blockquote>")
    out.append("<p><strong>Evidence</strong></p><ul>")
    for ev in section.evidence:
        view = f" ({_link('view', ev.link)})" if ev.link else ""
        out.append(f"<li>{e(ev.label)}: {e(ev.text)}{view}</li>")
    out.append("</ul>")
    if section.baseline:
        out.append(f"<p><strong>Baseline:</strong> {e(section.baseline)}</p>")
    if section.next_checks:
        out.append("<p><strong>Next checks</strong></p><ul>")
        out += [f"<li>{e(c)}</li>" for c in section.next_checks]
        out.append("</ul>")
    if section.remediation:
        out.append(f"<p><strong>Remediation:</strong> {e(section.remediation)}</p>")
    if section.link:
        out.append(f"<p>{_link('Open this view in Stallscope', section.link)}</p>")
    out += [_inline(image) for image in section.images]
    return out
