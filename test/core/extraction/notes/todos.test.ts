import { describe, expect, it } from 'vitest';
import { todoItems, todoNotes } from '../../../../src/core/extraction/notes/todos.js';
import { TODO_PREFIX } from '../../../../src/core/extraction/notes/note-ids.js';
import { liveNotes } from '../../../../src/core/extraction/pipeline/merge-prose.js';

const list = (todos: Array<{ content: string; status: string; priority?: string }>): string => JSON.stringify(todos, null, 2);

describe('todoItems', () => {
  it('should read every complete item of a list, even one cut in its middle', () => {
    const json = list([
      { content: 'Add the retry to the upload client', status: 'completed', priority: 'high' },
      { content: 'Cover the "offline" case with a test', status: 'in_progress', priority: 'high' },
      { content: 'Update the changelog', status: 'pending', priority: 'low' },
    ]);
    const cut = `${json.slice(0, json.indexOf('Update'))}`;
    expect(todoItems(json).map((item) => item.status)).toEqual(['completed', 'in_progress', 'pending']);
    expect(todoItems(cut)).toHaveLength(2);
    expect(todoItems(json)[1]?.content).toBe('Cover the "offline" case with a test');
  });

  it('should read plan steps written with `step` and ignore objects without a status', () => {
    expect(todoItems('[{"step":"Bump the schema version","status":"in_progress"},{"note":"x"}]')).toEqual([
      { content: 'Bump the schema version', status: 'in_progress' },
    ]);
  });
});

describe('todoNotes', () => {
  const call = (output: string, tool = 'todowrite') => ({ tool, input: {}, output, failed: false });

  it('should turn the open items into next notes, the one in progress first', () => {
    const notes = todoNotes(call(list([
      { content: 'Phase 1: scaffold the CLI', status: 'completed' },
      { content: 'Phase 3: package for release', status: 'pending' },
      { content: 'Phase 2: parse the config file', status: 'in_progress' },
    ])), 12);
    expect(notes.map((note) => note.text)).toEqual(['in progress: Phase 2: parse the config file', 'todo: Phase 3: package for release']);
    expect(notes.every((note) => note.type === 'next' && note.id.startsWith(TODO_PREFIX) && note.order === 12)).toBe(true);
  });

  it('should read the input when the list crossed with it, and nothing from other tools', () => {
    const input = { todos: [{ content: 'Write the migration', status: 'pending' }] };
    expect(todoNotes({ tool: 'TodoWrite', input, output: '', failed: false }, 1)[0]?.text).toBe('todo: Write the migration');
    expect(todoNotes(call(list([{ content: 'x y z', status: 'pending' }]), 'bash'), 1)).toEqual([]);
  });
});

describe('liveNotes with todo lists', () => {
  it('should keep the open items of the latest list only, and none once a later list is all done', () => {
    const first = todoNotes({ tool: 'todowrite', input: {}, output: list([{ content: 'Old step one', status: 'pending' }]), failed: false }, 2);
    const second = todoNotes({ tool: 'todowrite', input: {}, output: list([
      { content: 'Port the parser', status: 'in_progress' },
      { content: 'Delete the old parser', status: 'pending' },
    ]), failed: false }, 5);
    const done = todoNotes({ tool: 'todowrite', input: {}, output: list([{ content: 'Port the parser', status: 'completed' }]), failed: false }, 9);
    const texts = (notes: ReturnType<typeof liveNotes>) => notes.filter((note) => note.type === 'next').map((note) => note.text);
    expect(texts(liveNotes([...first, ...second]))).toEqual(['in progress: Port the parser', 'todo: Delete the old parser']);
    expect(texts(liveNotes([...first, ...second, ...done]))).toEqual([]);
  });

  it('should keep only the item in progress when the user asked for something after the list', () => {
    const todos = todoNotes({ tool: 'todowrite', input: {}, output: list([
      { content: 'Port the parser', status: 'in_progress' },
      { content: 'Delete the old parser', status: 'pending' },
    ]), failed: false }, 5);
    const request = { id: 'next:request:7', type: 'next' as const, text: 'asked: also add a flag for verbose output', order: 7, frequency: 1 };
    expect(liveNotes([...todos, request]).filter((note) => note.type === 'next').map((note) => note.text)).toEqual([
      'in progress: Port the parser',
      'asked: also add a flag for verbose output',
    ]);
  });
});
