import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';
import type { ConvertPlan, ConvertRequest } from '../lib/api/convert';
import type { RunSummary } from '../lib/api/history';
import { ExportDialog } from './ExportDialog';
import { RenderUnder } from './RenderUnder';
import { ExportStore } from './store';

afterEach(() => removeFakeBackend());

const targets = [
  { agent: 'claude-code', title: 'Claude Code', hosted: true },
  { agent: 'codex', title: 'Codex', hosted: false },
  { agent: 'gemini-cli', title: 'Gemini CLI', hosted: true },
];
const choices = { sources: [{ folder: '.', agent: 'claude-code', title: 'Claude Code' }, { folder: 'claude-guard', agent: 'claude-code', title: 'Claude Code' }], targets };
const hooksText = '{\n  "hooks": {\n    "PreToolUse": []\n  }\n}\n';
const plan = (req: ConvertRequest, over: Partial<ConvertPlan> = {}): ConvertPlan => ({
  source: req.source, from: 'claude-code', to: req.to, layout: 'project', dir: `/skills/${req.source}-${req.to}`, dir_rel: `${req.source}-${req.to}`,
  written: 3, left: 1, source_diagnostics: [], hosted: false, unsaved: false, can_write: true, wrote: false, checked: [], conflicts: [],
  diagnostics: [{ file: 'claude-guard/skills/release/SKILL.md', line: 8, column: 11, severity: 'warning', code: 'convert-skill-scoped', message: 'not carried over to Codex: …' }],
  files: [
    { path: '.codex/hooks.json', role: 'hooks', action: 'create', mode: '0644', text: hooksText },
    { path: '.codex/hooks/guard.sh', role: 'script', action: 'create', mode: '0755', from: 'claude-guard/hooks/guard.sh' },
  ],
  ...over,
});

describe('ExportDialog', () => {
  it('converts as you choose, shows what cannot carry over at its position and the files, and writes only on confirm', async () => {
    const PlanConversion = vi.fn((req: ConvertRequest) => Promise.resolve(plan(req)));
    const WriteConversion = vi.fn((req: ConvertRequest) => Promise.resolve(plan(req, { wrote: true })));
    fakeBackend({ Studio: { ConvertChoices: vi.fn().mockResolvedValue(choices), PlanConversion, WriteConversion } });
    const onWritten = vi.fn();
    render(<ExportDialog to="codex" prefer="claude-guard/scenarios/release.yaml" onClose={() => {}} onWritten={onWritten} />);
    const diags = await screen.findByTestId('export-diagnostics');
    expect(PlanConversion).toHaveBeenLastCalledWith({ source: 'claude-guard', to: 'codex', layout: '', dir: '', force: false });
    expect(within(diags).getByText('claude-guard/skills/release/SKILL.md:8:11')).toBeTruthy();
    expect(screen.getByTestId('export-summary').textContent).toContain('not checked');
    expect(screen.getByTestId('export-preview').textContent).toBe(hooksText);
    expect(within(screen.getByTestId('export-files')).getByText('.codex/hooks/guard.sh')).toBeTruthy();
    expect(WriteConversion).not.toHaveBeenCalled();

    // another agent: converted again
    await act(async () => { fireEvent.change(screen.getByTestId('export-to'), { target: { value: 'gemini-cli' } }); });
    expect(PlanConversion).toHaveBeenLastCalledWith(expect.objectContaining({ to: 'gemini-cli' }));

    const write = screen.getByTestId('export-write') as HTMLButtonElement;
    expect(write.textContent).toBe('Write 2 file(s)');
    await act(async () => { fireEvent.click(write); });
    expect(WriteConversion).toHaveBeenCalledWith(expect.objectContaining({ to: 'gemini-cli', force: false }));
    expect(onWritten).toHaveBeenCalledWith(expect.objectContaining({ wrote: true }), 'Gemini CLI');
  });

  it('never writes over a file in the way until asked to replace it', async () => {
    const conflict = { file: '.codex/hooks/guard.sh', line: 0, column: 0, severity: 'error' as const, code: 'convert-exists', message: 'exists with other content' };
    const PlanConversion = vi.fn((req: ConvertRequest) => Promise.resolve(req.force ? plan(req) : plan(req, { can_write: false, conflicts: [conflict] })));
    fakeBackend({ Studio: { ConvertChoices: vi.fn().mockResolvedValue(choices), PlanConversion, WriteConversion: vi.fn() } });
    render(<ExportDialog to="codex" prefer="claude-guard/scenarios/release.yaml" onClose={() => {}} onWritten={() => {}} />);
    const conflicts = await screen.findByTestId('export-conflicts');
    expect(conflicts.textContent).toContain('.codex/hooks/guard.sh');
    expect((screen.getByTestId('export-write') as HTMLButtonElement).disabled).toBe(true);
    await act(async () => { fireEvent.click(screen.getByTestId('export-force')); });
    expect(PlanConversion).toHaveBeenLastCalledWith(expect.objectContaining({ force: true }));
    await waitFor(() => expect((screen.getByTestId('export-write') as HTMLButtonElement).disabled).toBe(false));
    // nothing in the way once replacing: the choice stays on screen, to be undone
    expect((screen.getByTestId('export-force') as HTMLInputElement).checked).toBe(true);
  });

  it('says plainly when a converted hook would not work there, and writes nothing', async () => {
    const never = { file: 'claude-guard/hooks/edits.sh', line: 2, column: 23, severity: 'error' as const, code: 'convert-tool-name', message: 'Codex names the tool "Edit" "apply_patch"' };
    const PlanConversion = vi.fn((req: ConvertRequest) => Promise.resolve(plan(req, { hosted: true, can_write: false, diagnostics: [never] })));
    fakeBackend({ Studio: { ConvertChoices: vi.fn().mockResolvedValue(choices), PlanConversion, WriteConversion: vi.fn() } });
    render(<ExportDialog to="codex" prefer="claude-guard/scenarios/release.yaml" onClose={() => {}} onWritten={() => {}} />);
    expect((await screen.findByTestId('export-diagnostics')).textContent).toContain('claude-guard/hooks/edits.sh:2:23');
    const summary = screen.getByTestId('export-summary').textContent;
    expect(summary).toContain('1 hook(s) would not do in Codex what they do in Claude Code');
    expect(summary).not.toContain('accepts it');
    expect((screen.getByTestId('export-write') as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows what the target's validator says of the written files, at their paths", async () => {
    const untrusted = { file: '.codex/hooks.json', line: 7, column: 11, severity: 'warning' as const, code: 'codex-untrusted', message: 'Codex skips this hook until you trust it' };
    const PlanConversion = vi.fn((req: ConvertRequest) => Promise.resolve(plan(req, { hosted: true, checked: [untrusted] })));
    fakeBackend({ Studio: { ConvertChoices: vi.fn().mockResolvedValue(choices), PlanConversion } });
    render(<ExportDialog to="codex" prefer="claude-guard/scenarios/release.yaml" onClose={() => {}} onWritten={() => {}} />);
    expect((await screen.findByTestId('export-checked')).textContent).toContain('.codex/hooks.json:7:11');
    expect(screen.getByTestId('export-summary').textContent).toContain("Codex's validator accepts it");
    expect((screen.getByTestId('export-write') as HTMLButtonElement).disabled).toBe(false); // a warning does not stop the write
  });

  it('says where the error is when the source cannot be converted', async () => {
    fakeBackend({ Studio: { ConvertChoices: vi.fn().mockResolvedValue(choices), PlanConversion: vi.fn().mockRejectedValue('1 error(s) in claude-guard\'s Claude Code hooks') } });
    render(<ExportDialog to="" onClose={() => {}} onWritten={() => {}} />);
    expect((await screen.findByRole('alert')).textContent).toContain('claude-guard');
    expect((screen.getByTestId('export-write') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('ExportStore', () => {
  it('opens for an agent and closes', () => {
    const s = new ExportStore();
    s.open('codex');
    expect(s.get()).toEqual({ open: true, to: 'codex' });
    s.close();
    expect(s.get().open).toBe(false);
  });
});

describe('RenderUnder', () => {
  it('runs the scenario under another hosted agent and hands back the new run', async () => {
    const RenderUnderFn = vi.fn().mockResolvedValue(43);
    fakeBackend({ Studio: { ConvertChoices: vi.fn().mockResolvedValue(choices), RenderUnder: RenderUnderFn } });
    const run = { id: 7, scenario: 'release', scenario_file: 'claude-guard/scenarios/release.yaml', agent: 'claude-code@2.1.332' } as RunSummary;
    const onRendered = vi.fn();
    render(<RenderUnder run={run} onRendered={onRendered} onError={() => {}} />);
    const pick = await screen.findByTestId('render-under') as HTMLSelectElement;
    expect([...pick.options].map((o) => [o.value, o.disabled])).toEqual([['', false], ['codex', true], ['gemini-cli', false]]);
    await act(async () => { fireEvent.change(pick, { target: { value: 'gemini-cli' } }); });
    expect(RenderUnderFn).toHaveBeenCalledWith('claude-guard/scenarios/release.yaml', 'gemini-cli');
    expect(onRendered).toHaveBeenCalledWith(43);
  });
});
