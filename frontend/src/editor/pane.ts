// Which skill's editor is open beside the simulator (it takes the skills panel's place), the
// config file it opens on, and the requests to start a new hook there.
import { Store } from '../lib/store';
import type { HookInfo } from '../lib/api';

export interface EditorPaneState {
  /** the skill being edited (a folder hook of a folder without skills: ""), or null: the skills panel */
  editing: string | null;
  /** the config file (and line) to open on: an executable hook's source */
  openConfig?: { file: string; line?: number };
  /** grows with each "new hook" request (the editor starts one for each) */
  newHookRequest: number;
  /** grows with each "new hook file" request (the editor opens its offer of new files) */
  newFileRequest: number;
}

export class EditorPaneStore extends Store<EditorPaneState> {
  constructor() { super({ editing: null, newHookRequest: 0, newFileRequest: 0 }); }

  // an editor mounts on the requests made for it: one opened or closed later must not repeat them
  edit = (skill: string) => this.patch({ editing: skill, newHookRequest: 0, newFileRequest: 0 });
  close = () => this.patch({ editing: null, openConfig: undefined, newHookRequest: 0, newFileRequest: 0 });
  /** The offer of an agent's new hook file: in the editor open now, else the folder's. */
  newFile = () => this.set((s) => ({ ...s, editing: s.editing ?? '', newFileRequest: s.newFileRequest + 1 }));
  newHook = (skill: string) => this.set((s) => ({ ...s, editing: skill, newHookRequest: s.newHookRequest + 1 }));
  /** An executable hook's "file:line": its skill's editor on that config (a folder hook: beside
   *  the first skill; a folder without skills, a Claude Code project: the folder's editor). */
  openExecHook = (h: HookInfo, firstSkill: string | undefined) => {
    const at = h.source.lastIndexOf(':');
    const file = at > 0 ? h.source.slice(0, at) : h.source;
    const line = at > 0 ? Number(h.source.slice(at + 1)) || undefined : undefined;
    this.patch({ openConfig: { file, line }, editing: h.skill || firstSkill || '' });
  };
}
