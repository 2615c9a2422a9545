import { describe, expect, it } from 'vitest';
import { fileTopic, isGenericConcept, termsOfMessage, type MessageTermSource } from '../../../../src/core/extraction/concepts/message-terms.js';

function source(partial: Partial<MessageTermSource>): MessageTermSource {
  return { text: '', role: 'user', order: 3, tools: [], files: [], language: 'und', ...partial };
}

const names = (hits: { name: string }[]) => hits.map((hit) => hit.name);

describe('termsOfMessage', () => {
  it('should read keyphrases of a request and the names of what it uses', () => {
    const hits = termsOfMessage(source({ text: 'Can you add a theme toggle to the navbar? It should switch the Angular app between the light theme and the dark theme, with `ThemeService` keeping the choice.' }));
    expect(names(hits)).toEqual(expect.arrayContaining(['theme-toggle', 'navbar', 'light-theme', 'themeservice']));
    expect(hits.every((hit) => hit.order === 3 && hit.role === 'user')).toBe(true);
    // Everyday words are never candidates.
    expect(names(hits)).not.toContain('app');
    expect(names(hits)).not.toContain('choice-app');
  });

  it('should read packages from install commands, import lines and the programs a command runs', () => {
    const hits = termsOfMessage(source({
      role: 'assistant',
      text: 'Installing the client:\n\n```bash\nnpm install --save-exact socket.io-client@4.7.5 @tanstack/react-query\n```\n',
      tools: [
        { tool: 'bash', input: { command: 'cd web && npx vitest run test/feed.test.ts && tmux kill-server' }, output: '', failed: false },
        { tool: 'read', input: { filePath: '/p/src/model.py' }, output: "1: from sklearn.ensemble import RandomForestClassifier\n2: import xgboost as xgb\n3: import os\n", failed: false },
        { tool: 'read', input: { filePath: '/p/src/Auth.java' }, output: '1: import org.springframework.security.core.Authentication;\n2: import java.util.List;\n', failed: false },
        { tool: 'engram_mem_search', input: {}, output: '', failed: false },
        { tool: 'apply_patch', input: {}, output: '', failed: false },
      ],
    }));
    const found = names(hits);
    expect(found).toEqual(expect.arrayContaining(['socketio-client', 'tanstack', 'vitest', 'tmux', 'sklearn', 'xgboost', 'springframework', 'engram']));
    // The shell's everyday commands, standard libraries and the host's own tools are not topics.
    for (const name of ['cd', 'npx', 'os', 'java', 'apply', 'read', 'bash']) expect(found).not.toContain(name);
  });

  it('should read no keyphrases from prose in another language, but still its technologies', () => {
    const hits = termsOfMessage(source({ text: 'El navegador se congela cuando ejecuto el proyecto con Next.js, quiero saber si es un problema del código o de mi equipo.' }));
    expect(names(hits)).toEqual(['nextjs']);
    expect(termsOfMessage(source({ text: 'The browser freezes with Next.js.', language: 'spa' })).map((hit) => hit.kind)).toEqual(['technology']);
  });

  it("should skip an assistant's prose for keyphrases but read a prior compaction summary's", () => {
    const text = 'The kill switch now stops every open order when the daily loss limit is reached.';
    expect(termsOfMessage(source({ role: 'assistant', text })).filter((hit) => hit.kind === 'keyphrase')).toEqual([]);
    expect(names(termsOfMessage(source({ role: 'assistant', text, summary: true })))).toContain('kill-switch');
  });

  it('should name the installed package a traceback frame belongs to, and the acronym leading a class name', () => {
    const found = names(termsOfMessage(source({
      role: 'assistant',
      text: 'The JWTService signs the token.',
      tools: [{ tool: 'bash', input: { command: 'python train.py' }, output: 'Traceback (most recent call last):\n  File "/home/u/app/.venv/lib/python3.12/site-packages/sklearn/base.py", line 442\n  File "/home/u/web/node_modules/@tanstack/query-core/build/index.js"', failed: true }],
    })));
    expect(found).toEqual(expect.arrayContaining(['sklearn', 'tanstack', 'jwt', 'jwtservice']));
  });

  it('should leave out error types and generic acronyms', () => {
    const found = names(termsOfMessage(source({ role: 'assistant', text: 'The RuntimeError came from the JSON API; the JWT check in the AuthFilter is fine.' })));
    expect(found).toEqual(expect.arrayContaining(['jwt', 'authfilter']));
    expect(found).not.toContain('runtimeerror');
    expect(found).not.toContain('json');
    expect(found).not.toContain('api');
  });

  it('should cap the candidates of a message and stay bounded on hostile text', () => {
    const many = Array.from({ length: 200 }, (_, index) => `Widget${index}Panel`).join(' ');
    expect(termsOfMessage(source({ text: many })).length).toBeLessThanOrEqual(24);
    const hostile = `${'Aa'.repeat(200_000)}${'.'.repeat(200_000)}x ${'`'.repeat(100_000)} npm install ${'a'.repeat(100_000)}`;
    expect(Array.isArray(termsOfMessage(source({ text: hostile, tools: [{ tool: 'bash', input: { command: 'x && '.repeat(100_000) }, output: 'import '.repeat(100_000), failed: false }] })))).toBe(true);
  });
});

describe('termsOfMessage stack', () => {
  it("should name the stack of a message's files and build commands, and mark programs only run", () => {
    const hits = termsOfMessage(source({
      role: 'assistant',
      tools: [{ tool: 'bash', input: { command: "go test ./... && sudo tee /etc/app.env <<'END'\nMODE=prod\nEND\njq -r .id out.json" }, output: '', failed: false }],
      files: [{ path: 'internal/store/cache.go', tool: 'edit', order: 3, action: 'edit' }],
    }));
    expect(hits.filter((hit) => hit.kind === 'stack').map((hit) => hit.name)).toEqual(['golang']);
    expect(hits.filter((hit) => hit.kind === 'command').map((hit) => hit.name)).toEqual(['jq']);
  });

  it('should name the dependency an edit of the package manifest sets', () => {
    const hits = termsOfMessage(source({
      role: 'assistant',
      tools: [{ tool: 'edit', input: { filePath: '/p/package.json', oldString: '"next": "16.0.1"', newString: '"next": "15.2.4"' }, output: '', failed: false }],
    }));
    expect(names(hits)).toContain('nextjs');
  });
});

describe('fileTopic', () => {
  it('should give the same topic for a path asked again', () => {
    expect(fileTopic('src/session/SessionManager.ts')).toBe('session-manager');
    expect(fileTopic('src/session/SessionManager.ts')).toBe('session-manager');
    expect(fileTopic('src/index.ts')).toBeNull();
    expect(fileTopic('src/index.ts')).toBeNull();
  });

  it("should name a file's topic by its stem, or by its folder when the stem is generic", () => {
    expect(fileTopic('src/app/theme-toggle/theme-toggle.component.ts')).toBe('theme-toggle');
    expect(fileTopic('churros/widgets/popup_manager.py')).toBe('popup-manager');
    expect(fileTopic('src/main/java/app/SessionManager.java')).toBe('session-manager');
    expect(fileTopic('src/components/kill-switch/index.tsx')).toBe('kill-switch');
    expect(fileTopic('src/app/page.tsx')).toBeNull();
    expect(fileTopic('package.json')).toBeNull();
    expect(fileTopic('src/pages/ConfiguraciónÚnica.tsx')).toBe('configuración-única');
  });
});

describe('isGenericConcept', () => {
  it('should tell everyday words from topics', () => {
    for (const name of ['file', 'function', 'error', 'code', 'test', 'fix', 'issue', 'compaction', 'maenifold', 'the', 'x', '2024', 'test-file']) expect(isGenericConcept(name)).toBe(true);
    for (const name of ['websocket', 'kill-switch', 'theme-toggle', 'jwt', 'api-routes-proxy']) expect(isGenericConcept(name)).toBe(false);
  });

  it("should leave out the words of the conversation's mechanics: speakers, replies, the host's tools and model ids", () => {
    for (const name of ['decided', 'reply', 'fake', 'assistant', 'user', 'session', 'message', 'summary', 'compaction', 'bash', 'edit', 'read', 'write', 'grep', 'glob', 'task', 'todowrite', 'apply-patch', 'webfetch', 'assistant-reply', 'fake-session']) expect(isGenericConcept(name)).toBe(true);
    for (const name of ['gpt-4o', 'gpt4', 'claude-sonnet-4-5', 'claude', 'gemini-25-pro', 'glm-47', 'qwen3-coder', 'qwen-25', 'sonnet', 'opus', 'o3-mini']) expect(isGenericConcept(name)).toBe(true);
    // A model family the work uses, or a library named after one, is a topic.
    for (const name of ['glm', 'llama-cpp', 'gemini', 'bash-completion', 'edit-form']) expect(isGenericConcept(name)).toBe(false);
  });

  it("should leave the conversation's mechanics out of the terms of a message", () => {
    const found = names(termsOfMessage(source({
      text: 'The assistant decided to reply with a fake summary; switch the model to `claude-sonnet-4` or `gpt-4o` and use `todowrite`. The WebSocket reconnect is the real topic.',
      tools: [{ tool: 'webfetch', input: { url: 'https://x.test' }, output: '', failed: false }],
    })));
    expect(found).toContain('websocket');
    for (const name of ['assistant', 'decided', 'reply', 'fake', 'summary', 'claude-sonnet-4', 'gpt-4o', 'todowrite', 'webfetch', 'fake-summary']) expect(found).not.toContain(name);
  });

  it('should leave out the hosts code lives on, but not a product of theirs', () => {
    for (const name of ['github', 'gitlab', 'github-repo']) expect(isGenericConcept(name)).toBe(true);
    expect(isGenericConcept('github-actions')).toBe(false);
  });

  it('should tell contractions written without an apostrophe and function words of other languages from topics', () => {
    for (const name of ['dont', 'whats', 'sin', 'solo', 'para', 'nicht', 'avec']) expect(isGenericConcept(name)).toBe(true);
  });
});
