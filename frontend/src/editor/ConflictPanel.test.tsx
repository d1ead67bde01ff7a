import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ConflictPanel } from './ConflictPanel';
import { EditorStore } from './store';
import { useEditorSnapshot } from './useEditorSnapshot';
import { typeText } from './history';
import { fakeApi } from './testApi';
import { mockHash } from '../lib/api/mockEdit';

const MD = 'demo/hooks/alpha.md';

function Harness({ store }: { store: EditorStore }) {
  const snap = useEditorSnapshot(store);
  const f = snap.files[MD];
  return f ? <ConflictPanel store={store} file={f} /> : <p>closed</p>;
}

async function conflicted(disk: Record<string, string | undefined> = {}) {
  const files: Record<string, string> = { [MD]: 'one\ntwo\nthree\n' };
  const api = fakeApi(files);
  const store = new EditorStore(api);
  await store.open(MD);
  await store.run(typeText, { text: 'one\nTWO (mine)\nthree\n' }, MD);
  // the file changes on disk meanwhile
  if ('deleted' in disk) delete files[MD]; else files[MD] = 'one\ntwo\nthree (disk)\n';
  await store.checkDisk();
  render(<Harness store={store} />);
  return { api, store, files };
}

describe('ConflictPanel', () => {
  it('a change on disk under unsaved edits shows both versions', async () => {
    const { store } = await conflicted();
    expect(store.get().files[MD]!.conflict?.kind).toBe('conflict');
    expect(screen.getByLabelText('my version').textContent).toContain('TWO (mine)');
    expect(screen.getByLabelText('version on disk').textContent).toContain('three (disk)');
  });

  it('Keep mine saves with the disk hash as base', async () => {
    const { api, store, files } = await conflicted();
    fireEvent.click(screen.getByText('Keep mine'));
    await waitFor(() => expect(api.saveFile).toHaveBeenCalledWith(MD, 'one\nTWO (mine)\nthree\n', mockHash('one\ntwo\nthree (disk)\n')));
    await waitFor(() => expect(files[MD]).toBe('one\nTWO (mine)\nthree\n'));
    expect(store.get().files[MD]!.conflict).toBeUndefined();
    expect(screen.queryByTestId('conflict')).toBeNull();
  });

  it("Take disk's drops the draft and shows the disk's text (undoable)", async () => {
    const { api, store } = await conflicted();
    fireEvent.click(screen.getByText("Take disk's"));
    await waitFor(() => expect(store.get().files[MD]!.text).toBe('one\ntwo\nthree (disk)\n'));
    expect(store.get().files[MD]!.base).toBe('one\ntwo\nthree (disk)\n');
    await waitFor(() => expect(api.discardDraft).toHaveBeenCalledWith(MD));
    act(() => store.undo(MD));
    expect(store.get().files[MD]!.text).toBe('one\nTWO (mine)\nthree\n');
  });

  it('Merge calls MergeFile with base, mine, theirs; the result is unsaved text', async () => {
    const { api, store } = await conflicted();
    fireEvent.click(screen.getByText('Merge'));
    await waitFor(() => expect(api.mergeFile).toHaveBeenCalledWith(MD, 'one\ntwo\nthree\n', 'one\nTWO (mine)\nthree\n', 'one\ntwo\nthree (disk)\n'));
    await waitFor(() => expect(store.get().files[MD]!.conflict).toBeUndefined());
    const f = store.get().files[MD]!;
    expect(f.text).toContain('TWO (mine)');
    expect(f.base).toBe('one\ntwo\nthree (disk)\n');
    expect(f.text).not.toBe(f.base);
    expect(f.mergeConflicts?.length).toBe(1); // the mock merge reports overlapping edits
  });

  it('a file deleted on disk offers Restore my version or Close', async () => {
    const { api, store, files } = await conflicted({ deleted: undefined });
    expect(store.get().files[MD]!.conflict?.kind).toBe('deleted');
    fireEvent.click(screen.getByText('Restore my version'));
    await waitFor(() => expect(files[MD]).toBe('one\nTWO (mine)\nthree\n'));
    expect(api.saveFile).toHaveBeenLastCalledWith(MD, 'one\nTWO (mine)\nthree\n', '');
  });

  it('Close on a deleted file closes it', async () => {
    const { store } = await conflicted({ deleted: undefined });
    fireEvent.click(screen.getByText('Close'));
    await screen.findByText('closed');
    expect(store.get().order).toEqual([]);
  });

  it('SaveFile answering conflict opens the panel too', async () => {
    const files: Record<string, string> = { [MD]: 'a\n' };
    const store = new EditorStore(fakeApi(files));
    await store.open(MD);
    await store.run(typeText, { text: 'mine\n' }, MD);
    files[MD] = 'theirs\n';
    expect(await store.save(MD)).toBe('conflict');
    render(<Harness store={store} />);
    expect(screen.getByLabelText('version on disk').textContent).toBe('theirs\n');
  });

  it('a change on disk without unsaved edits is followed silently', async () => {
    const files: Record<string, string> = { [MD]: 'a\n' };
    const store = new EditorStore(fakeApi(files));
    await store.open(MD);
    files[MD] = 'b\n';
    await store.checkDisk();
    expect(store.get().files[MD]).toMatchObject({ text: 'b\n', base: 'b\n' });
    expect(store.get().files[MD]!.conflict).toBeUndefined();
  });
});
