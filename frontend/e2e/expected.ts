/** What the e2e expects to see, read from a folded-stacks reference file (`comm;f1;f2 weight`). */
import fs from 'node:fs';

export interface FoldedStack {
  frames: string[];
  weight: number;
}

export function readFolded(file: string): FoldedStack[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const cut = line.lastIndexOf(' ');
      return { frames: line.slice(0, cut).split(';'), weight: Number(line.slice(cut + 1)) };
    });
}

/** Process names: the first frame of every stack, in the order of their total weight. */
export function rootFrames(stacks: FoldedStack[]): string[] {
  const byComm = new Map<string, number>();
  for (const s of stacks) {
    const comm = s.frames[0] ?? '';
    byComm.set(comm, (byComm.get(comm) ?? 0) + s.weight);
  }
  return [...byComm].sort((a, b) => b[1] - a[1]).map(([comm]) => comm);
}

/** The heaviest stack: its leaf is a good search term and its first frames a good zoom target. */
export function heaviest(stacks: FoldedStack[]): FoldedStack {
  const top = [...stacks].sort((a, b) => b.weight - a.weight)[0];
  if (!top) throw new Error('empty folded file');
  return top;
}

/** Share of the weight whose stacks contain a frame matching `term` (literal, case-insensitive). */
export function matchedShare(stacks: FoldedStack[], term: string): number {
  const t = term.toLowerCase();
  let hit = 0;
  let total = 0;
  for (const s of stacks) {
    total += s.weight;
    if (s.frames.some((f) => f.toLowerCase().includes(t))) hit += s.weight;
  }
  return total > 0 ? hit / total : 0;
}
