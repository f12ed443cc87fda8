/** A collector snapshot document as readable sections. Pure; the content is untrusted. */

export interface SnapshotEntry {
  key: string;
  value: string;
}

export interface SnapshotSection {
  name: string;
  /** Set when the collector could not read this section. */
  error: string | null;
  /** A plain text section (a file's content) has one entry with key "". */
  entries: SnapshotEntry[];
}

export interface Snapshot {
  host: string | null;
  takenAtNs: number | null;
  version: number | null;
  /** Which take of a text snapshot (0-based), and its label (start, end…); null for the collector's. */
  take: { index: number; label: string | null } | null;
  sections: SnapshotSection[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const valueText = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v, null, 2);
};

function section(name: string, v: unknown): SnapshotSection {
  if (v === null || v === undefined) return { name, error: 'read failed (no data)', entries: [] };
  if (isObj(v)) {
    const err = v.error;
    if (typeof err === 'string' && Object.keys(v).length <= 2) return { name, error: err, entries: [] };
    return { name, error: null, entries: Object.entries(v).map(([key, val]) => ({ key, value: valueText(val) })) };
  }
  if (Array.isArray(v)) return { name, error: null, entries: v.map((val, i) => ({ key: String(i), value: valueText(val) })) };
  return { name, error: null, entries: [{ key: '', value: valueText(v) }] };
}

export function readSnapshot(content: unknown): Snapshot {
  const o = isObj(content) ? content : {};
  const sections = isObj(o.sections) ? Object.entries(o.sections).map(([k, v]) => section(k, v)) : [];
  sections.sort((a, b) => a.name.localeCompare(b.name));
  // What a text snapshot could not map is kept as text, one block per section of the file.
  if (isObj(o.text_sections)) {
    for (const [name, text] of Object.entries(o.text_sections)) sections.push({ name: `text: ${name}`, error: null, entries: [{ key: '', value: valueText(text) }] });
  }
  const take = isObj(o.take) && typeof o.take.index === 'number' ? { index: o.take.index, label: typeof o.take.label === 'string' ? o.take.label : null } : null;
  return {
    host: typeof o.host === 'string' ? o.host : null,
    takenAtNs: typeof o.taken_at_ns === 'number' ? o.taken_at_ns : null,
    version: typeof o.version === 'number' ? o.version : null,
    take,
    sections,
  };
}

/** Sections whose name matches keep every entry; others keep matching entries, or go. */
export function filterSections(sections: readonly SnapshotSection[], text: string): SnapshotSection[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...sections];
  const out: SnapshotSection[] = [];
  for (const s of sections) {
    if (s.name.toLowerCase().includes(needle) || (s.error ?? '').toLowerCase().includes(needle)) {
      out.push(s);
      continue;
    }
    const entries = s.entries.filter((e) => e.key.toLowerCase().includes(needle) || e.value.toLowerCase().includes(needle));
    if (entries.length > 0) out.push({ ...s, entries });
  }
  return out;
}
