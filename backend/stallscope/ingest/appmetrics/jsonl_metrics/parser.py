"""Stream JSON-lines application metrics into points (the rules are in `reader`).

Lines that repeat the layout of the first line take the fast path (`template`): one regular
expression per line and the values converted, no decoder call; the lines it cannot vouch for are
decoded and read the general way, one by one. When the template fails often in a chunk, the next
chunk learns one again from its first line; a chunk with no template (or text that is not ASCII) is
decoded a chunk at a time (`jsonlines`) and read the general way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, count
from typing import BinaryIO

from stallscope.ingest.appmetrics.common import drop, empty, text_lines
from stallscope.ingest.appmetrics.jsonl_metrics.reader import ObjectReader
from stallscope.ingest.appmetrics.jsonl_metrics.template import ReadLine, Template, learn
from stallscope.ingest.appmetrics.jsonlines import decode_lines
from stallscope.ingest.json_text import loads
from stallscope.ingest.model import MetricPoint, MetricRow, ParseReport
from stallscope.ingest.text_lines import TextLines

_MAX_MISSES = 64
"""Lines of a chunk the template may fail before the next chunk learns one again."""

Numbered = list[tuple[int, bytes]]


def parse_jsonl(
    stream: BinaryIO, report: ParseReport, time_column: str | None = None
) -> Iterator[MetricPoint | MetricRow]:
    """Yield the records of JSON-lines metrics read from `stream`, filling `report` as it goes:
    points, and a row for each wide line the fast path reads. `time_column` names the time key."""
    # Chunks of lines, each line's records: two levels of iterables, and no generator step per line.
    return chain.from_iterable(chain.from_iterable(_chunks(stream, report, time_column)))


def _chunks(
    stream: BinaryIO, report: ParseReport, time_column: str | None
) -> Iterator[Iterable[Iterable[MetricPoint | MetricRow]]]:
    objects = ObjectReader(report, time_column)
    reader = text_lines(stream)
    template: Template | None = None
    seen_any = False

    def general(raw: bytes, line: int) -> list[MetricPoint]:
        return [point for points in _general([(line, raw)], reader, objects) for point in points]

    for chunk in reader.chunks():
        start = reader.number - len(chunk) + 1
        seen_any = seen_any or any(map(bytes.strip, chunk))
        if template is None or template.misses > _MAX_MISSES:
            template = _learn(chunk, objects, general)  # a new layout, perhaps
        # The template reads ASCII only: other text may not be UTF-8, which the general way refuses.
        if template is None or not b"".join(chunk).isascii():
            yield _general(
                [(start + i, line) for i, line in enumerate(chunk) if line.strip()], reader, objects
            )
            continue
        template.misses = 0
        yield map(template.read, chunk, count(start))
    if not seen_any:
        raise empty()


def _learn(chunk: list[bytes], objects: ObjectReader, general: ReadLine) -> Template | None:
    """A template from the chunk's first line with any text, if it is a JSON object."""
    raw = next((line for line in chunk if line.strip()), None)
    if raw is None or not raw.isascii():
        return None
    try:
        obj = loads(raw)
    except ValueError:
        return None
    return learn(raw, obj, objects, general) if type(obj) is dict else None


def _general(numbered: Numbered, reader: TextLines, objects: ObjectReader) -> Iterator[list[MetricPoint]]:
    """Points of each line, decoded the general way (several lines in one call when they allow)."""
    for line, obj in decode_lines(numbered, reader, objects.report):
        if type(obj) is not dict:
            drop(objects.report, line, "not a JSON object")
            continue
        yield objects.points(obj, line)
