"""Importer for the text output of mpstat, sar and iostat (sysstat) and of `vmstat -t` (procps).

One file holds one tool's output, as the tool printed it (`mpstat -P ALL 1`, `sar -u -r -B 1`,
`iostat -x -t 1`, `vmstat -t 1`); `Average:` summaries are skipped.

Times. The tools print a date once (sysstat's first line) and a local time of day per row (mpstat,
sar), or a date and time per report (iostat -t) or per row (vmstat -t). Times of day are combined with
the date, moving to the next day when they wrap past midnight. 12-hour times (`12:28:22 AM`, en_US
locales) and 24-hour times both work; dates as the C, en_US or ISO (`S_TIME_FORMAT=ISO`) locales
print them. The zone is not in the text (except iostat's ISO stamps and vmstat's header), so times
are read as UTC and the report warns once; the capture's clock is REALTIME. The first report of
iostat (unless run with -y) and of vmstat averages the time since boot: iostat's is kept with a
warning, vmstat's rates are dropped (see those modules).

Series names are `<group>.<field>`, with the table's label column as a label:

- `cpu.{user,nice,system,iowait,irq,softirq,steal,guest,guest_nice,idle}` (`%`), labels `cpu=all|0|1…`:
  mpstat, sar -u/-P, iostat's `avg-cpu` (`cpu=all`) and vmstat's `us sy id wa st gu` (`cpu=all`).
- `disk.<field>`, label `device`: iostat -x and sar -d, e.g. `disk.reads`/`writes` (`/s`),
  `disk.read_kib`/`write_kib` (`KiB/s`), `disk.await`/`read_await`/`write_await` (`ms`),
  `disk.queue_size`, `disk.util` (`%`).
- `mem.<field>` (sar -r, `KiB` or `%`): `free`, `available`, `used`, `used_pct`, `buffers`, `cached`,
  `commit`, `commit_pct`, `active`, `inactive`, `dirty`, …
- `vm.<column>` for vmstat's own columns, named as vmstat names them: `vm.r`, `vm.b`, `vm.swpd`,
  `vm.free`, `vm.buff`, `vm.cache` (`KiB`), `vm.si`/`so` (`KiB/s`), `vm.bi`/`bo` (`blocks/s`),
  `vm.in`/`cs` (`/s`).
- `net.<field>` with `iface`; `irq.rate` with `irq` and `cpu` (sar -I, mpstat -I), `softirq.rate`
  likewise; `fs.<field>` with `filesystem` (sar -F); `softnet.<field>` with `cpu` (sar -n SOFT);
  `fc.fch_rxf`, `fc.fch_txf`, `fc.fch_rxw`, `fc.fch_txw` (`/s`) with `fchost` (sar -n FC).
- `pressure.<cpu|io|memory>.<some|full>.<avg10|avg60|avg300|interval>` (sar -q PSI, `%`), the names
  the collector's /proc sampler uses for the same files.
- Every other sar section gets a group named after it (`paging.*` for -B, `load.*` for -q, `task.*`
  for -w, `swap.*` for -S/-W, `io.*` for -b, `hugepages.*`, `kernel.*`, `sock.*`, `ip.*`, `tcp.*`, …)
  with the column made a plain word (`pgpgin/s` -> `paging.pgpgin`); a column of a section this
  importer has never seen becomes `sysstat.<column>`.

Units come from the column header (`%…` -> `%`, `…/s` -> `/s`, `kB/s` -> `KiB/s`, `kb…` -> `KiB`,
`await` -> `ms`); a `%` column whose plain name is taken gets `_pct`.
"""

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.registry import Importer
from stallscope.ingest.sysstat.detect import detect
from stallscope.ingest.sysstat.parser import parse_sysstat

IMPORTER = Importer("sysstat", detect, parse_sysstat, CaptureClock.REALTIME)

__all__ = ["IMPORTER", "detect", "parse_sysstat"]
