/**
 * Which findings concern what a view shows: a finding concerns the view when it names one of the
 * hosts on screen, or one of the threads shown. Pure.
 */
import type { Capture } from '../../api/types';
import type { Finding, FindingThread } from './api';
import { isDismissed, orderFindings } from './ordering';

/** A thread as a view shows it: its host and pid may be unknown. */
export interface ShownThread {
  host: string | null;
  pid: number | null;
  tid: number;
  comm: string;
}

export interface ViewScope {
  hosts: readonly string[];
  threads: readonly ShownThread[];
}

export interface Relevant {
  findings: Finding[];
  /** The hosts on screen that the findings name, in the scope's order. */
  hosts: string[];
  /** The threads on screen that the findings name, when no host of theirs matched. */
  threads: ShownThread[];
}

/** Same thread when the tids match and the host and pid do wherever both sides know them. */
export function sameThread(named: FindingThread, shown: ShownThread): boolean {
  if (named.tid === null || named.tid !== shown.tid) return false;
  if (named.host && shown.host !== null && named.host !== shown.host) return false;
  if (named.pid !== null && shown.pid !== null && named.pid !== shown.pid) return false;
  return true;
}

export function relevantFindings(findings: readonly Finding[], scope: ViewScope): Relevant {
  const hosts = new Set<string>();
  const threads: ShownThread[] = [];
  const kept = orderFindings(findings).filter((f) => {
    if (isDismissed(f)) return false;
    const shared = scope.hosts.filter((h) => f.hosts.includes(h));
    for (const h of shared) hosts.add(h);
    if (shared.length > 0) return true;
    const named = scope.threads.filter((t) => f.threads.some((n) => sameThread(n, t)));
    for (const t of named) if (!threads.includes(t)) threads.push(t);
    return named.length > 0;
  });
  return { findings: kept, hosts: scope.hosts.filter((h) => hosts.has(h)), threads };
}

/**
 * A view's scope: its selected hosts, or (a selection of every host) the hosts of the threads it
 * shows, since those are the hosts on screen.
 */
export function viewScope(hosts: readonly string[], threads: readonly ShownThread[]): ViewScope {
  if (hosts.length > 0) return { hosts, threads };
  const shown: string[] = [];
  for (const t of threads) if (t.host !== null && !shown.includes(t.host)) shown.push(t.host);
  return { hosts: shown, threads };
}

/** The named hosts of some captures (a capture without a host names none), first seen first. */
export function hostsOfCaptures(captures: readonly Capture[], ids: readonly number[]): string[] {
  const hosts: string[] = [];
  for (const c of captures) if (ids.includes(c.id) && c.host !== null && !hosts.includes(c.host)) hosts.push(c.host);
  return hosts;
}

/** "2 findings concern these hosts: db-1, db-2" or "1 finding concerns these threads: query-1 (11)". */
export function relevanceText(r: Relevant): string {
  const n = r.findings.length;
  const head = n === 1 ? '1 finding concerns' : `${n} findings concern`;
  if (r.hosts.length > 0) return `${head} ${r.hosts.length === 1 ? 'this host' : 'these hosts'}: ${r.hosts.join(', ')}`;
  const names = r.threads.slice(0, 3).map((t) => `${t.comm || '?'} (${t.tid})`);
  const more = r.threads.length > 3 ? ` and ${r.threads.length - 3} more` : '';
  return `${head} ${r.threads.length === 1 ? 'this thread' : 'these threads'}: ${names.join(', ')}${more}`;
}
