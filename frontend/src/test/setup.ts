import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import fileKinds from '../fixtures/file-kinds.json';
import { setFileKinds } from '../lib/api/configs';

afterEach(() => cleanup());

// waitFor and findBy* only bound a wait that is failing anyway: CI shares 2 cores
// with builds, so the 1 s default fails good tests there.
configure({ asyncUtilTimeout: 20_000 });

// jsdom has no layout: CodeMirror measures text ranges, give it empty rects.
if (typeof Range !== 'undefined') {
  const empty = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) } as DOMRect;
  if (!Range.prototype.getClientRects) {
    Range.prototype.getClientRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  }
  if (!Range.prototype.getBoundingClientRect) Range.prototype.getBoundingClientRect = () => empty;
}

// The backend's file kinds (its hook-system registry), as the app reads them at start
// (app/services/bind TestFileKinds writes the fixture).
setFileKinds(fileKinds);
