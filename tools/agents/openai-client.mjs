// The official OpenAI client against a capture endpoint (make test-agents): a streamed call
// with tools that is answered with a tool call, then the tool's result sent back, unstreamed.
// Usage: node openai-client.mjs BASE_URL   (prints what the client received, as JSON)
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: `${process.argv[2]}/v1`, apiKey: 'sk-client-key-never-stored', maxRetries: 0 });
const tools = [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const messages = [{ role: 'system', content: 'You are careful.' }, { role: 'user', content: 'What does main.go do?' }];

const models = await client.models.list();
const stream = await client.chat.completions.create({ model: 'gpt-test', messages, tools, stream: true, stream_options: { include_usage: true } });
const calls = [];
let usage = null;
let finish = null;
for await (const chunk of stream) {
  if (chunk.usage) usage = chunk.usage;
  for (const choice of chunk.choices) {
    finish = choice.finish_reason ?? finish;
    for (const tc of choice.delta.tool_calls ?? []) {
      calls[tc.index] ??= { id: '', name: '', arguments: '' };
      if (tc.id) calls[tc.index].id = tc.id;
      if (tc.function?.name) calls[tc.index].name += tc.function.name;
      if (tc.function?.arguments) calls[tc.index].arguments += tc.function.arguments;
    }
  }
}
messages.push({ role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) });
messages.push({ role: 'tool', tool_call_id: calls[0].id, content: 'package main // prints hello' });
const second = await client.chat.completions.create({ model: 'gpt-test', messages, tools });
console.log(JSON.stringify({ calls, finish, usage, answer: second.choices[0].message.content, models: models.data.map((m) => m.id) }));
