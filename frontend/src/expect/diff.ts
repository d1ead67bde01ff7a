// A minimal line diff (longest common subsequence) of an expectation's expected and actual
// sides, the same one hookctl test prints: '-' expected only, '+' actual only, ' ' both.
export interface DiffLine { op: '-' | '+' | ' '; text: string }

export function lineDiff(want: readonly string[], got: readonly string[]): DiffLine[] {
  const n = want.length, m = got.length;
  // lcs[i * (m + 1) + j]: the longest common subsequence of want[i:] and got[j:]
  const lcs = new Array<number>((n + 1) * (m + 1)).fill(0);
  const at = (i: number, j: number) => lcs[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = want[i] === got[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: DiffLine[] = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    const w = want[i], g = got[j];
    if (w !== undefined && g !== undefined && w === g) { out.push({ op: ' ', text: w }); i++; j++; }
    else if (w !== undefined && (g === undefined || at(i + 1, j) >= at(i, j + 1))) { out.push({ op: '-', text: w }); i++; }
    else if (g !== undefined) { out.push({ op: '+', text: g }); j++; }
  }
  return out;
}
