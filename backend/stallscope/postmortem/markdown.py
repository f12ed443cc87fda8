"""The postmortem as Markdown (CommonMark with GitHub tables), paste-ready for a postmortem template.

Texts the console wrote (findings, names, frames) are escaped, so `__schedule` stays a name and
never turns bold; texts people wrote (summary, root cause, remediation) are kept as written, since
people write them in Markdown. Images are linked as `images/<name>`, beside the file in the zip.
"""

from __future__ import annotations

import re

from stallscope.postmortem.model import FindingSection, Report
from stallscope.postmortem.when import relative, span, utc

SPECIAL = re.compile(r"([\\`*_\[\]<>#|!~])")


def md(text: str) -> str:
    """One line of console text, Markdown characters escaped, line breaks folded into spaces."""
    return SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _link(label: str, url: str | None) -> str:
    return f"[{label}]({url.replace(')', '%29').replace(' ', '%20')})" if url else ""


def _free(text: str, empty: str) -> str:
    return text.strip() if text.strip() else f"_{empty}_"


def render(report: Report) -> str:
    out: list[str] = []
    add = out.append
    add(f"# Postmortem: {md(report.title)} (incident #{report.incident_id})")
    add("")
    add(
        f"Written by Stallscope at {utc(report.generated_at)} from "
        f"{_link('the incident', report.incident_link)}. "
        f"Times are UTC; T+ counts from the incident's start, {utc(report.started_at)}."
    )
    add("")
    add("## Summary")
    add("")
    add("| | |")
    add("|---|---|")
    add(f"| Severity | {report.severity} |")
    add(f"| Status | {report.status} |")
    add(f"| Started | {utc(report.started_at)} |")
    add(f"| Hosts | {md(', '.join(report.hosts)) or 'none'} |")
    if report.time_range:
        first, last = report.time_range
        covered = span((last - first).total_seconds())
        add(f"| Captures cover | {utc(first)} to {utc(last)} ({covered}) |")
    add(f"| Confirmed findings | {len(report.confirmed)} |")
    add("")
    add(_free(report.summary, "No summary written."))
    add("")
    if report.captures:
        add("### Captures")
        add("")
        for c in report.captures:
            when = f"{utc(c.start)} to {utc(c.end)}" if c.start and c.end else "no timed records"
            samples = f", {c.samples:,} samples" if c.samples else ""
            add(f"- {md(c.filename)} on {md(c.host) or 'no host'}: {when}{samples}")
        add("")
    add("## Status history")
    add("")
    add("| When (UTC) | | Status | By |")
    add("|---|---|---|---|")
    for step in report.status_history:
        by = md(step.who) if step.who else ""
        add(f"| {utc(step.at)} | {relative(step.at, report.started_at)} | {step.status} | {by} |")
    add("")
    add("## Root cause")
    add("")
    add(_free(report.root_cause, "Not written yet."))
    add("")
    add("## Remediation")
    add("")
    add(_free(report.remediation, "Not written yet."))
    add("")
    add("## Timeline")
    add("")
    add("| When (UTC) | | What |")
    add("|---|---|---|")
    for entry in report.timeline:
        add(f"| {utc(entry.at)} | {relative(entry.at, report.started_at)} | {md(entry.text)} |")
    add("")
    add("## Confirmed findings")
    add("")
    if not report.confirmed:
        add("_No finding has been confirmed._")
        add("")
    for section in report.confirmed:
        out.extend(_finding(section))
    if report.others:
        add("## Other findings (not confirmed)")
        add("")
        add("What the findings engine also reported, not confirmed by anyone: one line each.")
        add("")
        for other in report.others:
            judged = f" Dismissed: {md(other.note) or 'no note'}." if other.verdict == "dismissed" else ""
            add(f"- **{md(other.title)}** ({other.severity}): {md(other.summary)}{judged}")
        add("")
    return "\n".join(out)


def _finding(section: FindingSection) -> list[str]:
    out = [
        f"### {section.number}. {md(section.title)}",
        "",
        f"{section.severity}, confidence {section.confidence:.2f}, on {md(', '.join(section.hosts))}. "
        f"{md(section.judged)}.",
        "",
        md(section.summary),
        "",
    ]
    if section.note:
        out += [f"> {md(section.note)}", ""]
    out += ["**Evidence**", ""]
    for e in section.evidence:
        view = f" ({_link('view', e.link)})" if e.link else ""
        out.append(f"- {md(e.label)}: {md(e.text)}{view}")
    out.append("")
    if section.baseline:
        out += [f"**Baseline:** {md(section.baseline)}", ""]
    if section.next_checks:
        out += ["**Next checks**", ""] + [f"- {md(c)}" for c in section.next_checks] + [""]
    if section.remediation:
        out += [f"**Remediation:** {md(section.remediation)}", ""]
    if section.link:
        out += [f"{_link('Open this view in Stallscope', section.link)}", ""]
    for image in section.images:
        out += [f"![{md(image.caption)}](images/{image.name})", ""]
    return out
