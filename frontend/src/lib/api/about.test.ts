import { afterEach, describe, expect, it, vi } from 'vitest';
import { aboutInfo, versionLine, type AboutInfo } from './about';
import { fakeBackend, removeFakeBackend } from './fakeBackend';

const info: AboutInfo = { version: '0.3.0', commit: 'abc1234', date: '2026-11-23', goVersion: 'go1.26.0', platform: 'linux/amd64', history: true };

afterEach(() => {
  removeFakeBackend();
});

describe('about', () => {
  it('calls window.go.bind.About', async () => {
    const Info = vi.fn(async () => info);
    fakeBackend({ Studio: {}, About: { Info } });
    expect(await aboutInfo()).toEqual(info);
    expect(Info).toHaveBeenCalledOnce();
  });

  it('has nothing to say without the Go backend', async () => {
    expect(await aboutInfo()).toBeNull();
  });

  it.each([
    [info, '0.3.0 (commit abc1234, built 2026-11-23)'],
    [{ ...info, date: '' }, '0.3.0 (commit abc1234)'],
    [{ ...info, commit: '', date: '' }, '0.3.0'],
  ])('formats %o as hookctl --version does', (i, want) => {
    expect(versionLine(i)).toBe(want);
  });
});
