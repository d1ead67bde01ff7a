// How to start an agent against the running capture: pick the agent, and the lines to paste and
// the config file's content (where variables are not enough) come with copy buttons, beside the
// reason its hook may not run. The recipes are the backend's (app/agentdata/recipe), filled in for
// this capture's URL; "any client" is the plain Anthropic / OpenAI variables.
import { useState, type ReactNode } from 'react';
import type { Recipe } from '../lib/api/capture';

interface Props {
  recipes: Recipe[];
  /** the variables any Anthropic or OpenAI client reads */
  lines: string[];
  onCopyError: (message: string) => void;
}

const apiNames: Record<string, string> = {
  anthropic: 'the Anthropic Messages API', openai: 'the OpenAI Chat Completions API', responses: 'the OpenAI Responses API', gemini: 'the Gemini API',
};

/** Markdown code spans (`x`) as <code>. */
function ticks(text: string): ReactNode[] {
  return text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

export function AgentRecipe({ recipes, lines, onCopyError }: Props) {
  const [agent, setAgent] = useState(recipes[0]?.agent ?? '');
  const [copied, setCopied] = useState<string | null>(null);
  const recipe = recipes.find((r) => r.agent === agent);
  const copy = (key: string, text: string) => {
    navigator.clipboard?.writeText(text).then(() => setCopied(key), () => onCopyError('the clipboard is not available: select the text and copy it'));
  };
  const line = (key: string, text: string, testid: string) => (
    <div className="capture-line" key={key}>
      <code data-testid={testid}>{text}</code>
      <button type="button" className="btn sm" onClick={() => copy(key, text)} data-testid={`${testid}-copy`}>{copied === key ? 'Copied' : 'Copy'}</button>
    </div>
  );
  return (
    <div className="capture-recipe" data-testid="capture-recipe">
      <label className="capture-agent small">
        Agent{' '}
        <select className="input" value={agent} onChange={(e) => { setAgent(e.target.value); setCopied(null); }} data-testid="capture-agent">
          {recipes.map((r) => <option key={r.agent} value={r.agent}>{r.name}</option>)}
          <option value="">Any Anthropic or OpenAI client (an SDK script)</option>
        </select>
      </label>
      {!recipe && (<>
        <p className="small">Start the agent with one of these, in a terminal:</p>
        {lines.map((l, i) => line(`line-${i}`, l, `capture-line-${i}`))}
      </>)}
      {recipe && (<>
        <p className="muted small" data-testid="capture-recipe-about">
          <code>{recipe.package}</code> {recipe.version}{recipe.proprietary ? ' (proprietary)' : ''} speaks {apiNames[recipe.api] ?? recipe.api} to this capture; this recipe was run with {recipe.version}.
        </p>
        {recipe.files.map((f) => (
          <div className="capture-file" key={f.path}>
            <div className="capture-file-head">
              <span className="small">{f.merge ? 'Add to' : 'Write'} <code>{f.path}</code>{f.merge ? ' (merge with what it holds)' : ''}:</span>
              <span className="spacer" />
              <button type="button" className="btn sm" onClick={() => copy(`file-${f.path}`, f.content)} data-testid={`capture-file-copy-${f.path}`}>{copied === `file-${f.path}` ? 'Copied' : 'Copy'}</button>
            </div>
            <pre className="capture-file-text" data-testid="capture-file">{f.content}</pre>
          </div>
        ))}
        <p className="small">Then, in a terminal in the project:</p>
        {recipe.lines.map((l, i) => line(`${recipe.agent}-${i}`, l, `capture-line-${i}`))}
        <p className="small capture-hooks"><strong>Hooks:</strong> {ticks(recipe.hooks)}.</p>
        <p className="small capture-trap" data-testid="capture-trap"><strong>Hook did not run?</strong> {ticks(recipe.trap)}</p>
        {recipe.notes.map((n) => <p className="muted small" key={n}>{ticks(n)}</p>)}
      </>)}
    </div>
  );
}
