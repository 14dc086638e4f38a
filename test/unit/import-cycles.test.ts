import { importCycles, importGraph } from './import-graph.ts';

describe('import cycles', () => {
  it('no file of the project reaches itself through static imports (type-only imports count too)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(500);
    const cycles = importCycles(graph).map((files) => files.join(' ⇄ '));
    expect(cycles).toEqual([]);
  });

  it('finds a cycle of two, a cycle of three beside a tree, and a self import', () => {
    const graph = new Map<string, string[]>([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts', 'c.ts']],
      ['c.ts', []],
      ['d.ts', ['e.ts']],
      ['e.ts', ['f.ts', 'c.ts']],
      ['f.ts', ['d.ts']],
      ['g.ts', ['g.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts'], ['d.ts', 'e.ts', 'f.ts'], ['g.ts']]);
  });
});
