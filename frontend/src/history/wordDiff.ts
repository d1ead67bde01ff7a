// Word-level diff of two texts (LCS over words and the whitespace between them), for showing
// what changed inside a changed message. Common prefix/suffix are trimmed first; past a size
// bound the middle is reported as one removal and one insertion.
export interface Piece { text: string; op: 'same' | 'del' | 'ins' }

const MAX_CELLS = 400_000;

export function splitWords(s: string): string[] {
  return s.match(/\s+|[^\s]+/g) ?? [];
}

export function wordDiff(a: string, b: string): Piece[] {
  const x = splitWords(a), y = splitWords(b);
  let pre = 0;
  while (pre < x.length && pre < y.length && x[pre] === y[pre]) pre++;
  let suf = 0;
  while (suf < x.length - pre && suf < y.length - pre && x[x.length - 1 - suf] === y[y.length - 1 - suf]) suf++;
  const out: Piece[] = [];
  const push = (text: string, op: Piece['op']) => {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text; else out.push({ text, op });
  };
  push(x.slice(0, pre).join(''), 'same');
  const ma = x.slice(pre, x.length - suf), mb = y.slice(pre, y.length - suf);
  if (ma.length * mb.length > MAX_CELLS) {
    push(ma.join(''), 'del');
    push(mb.join(''), 'ins');
  } else {
    const w = mb.length + 1;
    const lcs = new Int32Array((ma.length + 1) * w);
    for (let i = ma.length - 1; i >= 0; i--) for (let j = mb.length - 1; j >= 0; j--) {
      lcs[i * w + j] = ma[i] === mb[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
    let i = 0, j = 0;
    while (i < ma.length && j < mb.length) {
      if (ma[i] === mb[j]) { push(ma[i]!, 'same'); i++; j++; }
      else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) push(ma[i++]!, 'del');
      else push(mb[j++]!, 'ins');
    }
    while (i < ma.length) push(ma[i++]!, 'del');
    while (j < mb.length) push(mb[j++]!, 'ins');
  }
  push(x.slice(x.length - suf).join(''), 'same');
  return out;
}
