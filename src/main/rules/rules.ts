/**
 * Project rules: markdown files in the global rules folder
 * (`$XDG_CONFIG_HOME/opencode/rules`, default `~/.config/opencode/rules`) and
 * the project's (`.opencode/rules`), each with optional YAML frontmatter:
 * `globs` makes a rule conditional on a working-set path matching one of
 * them; `description` names it. A folder is read again only when it changed.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import picomatch from 'picomatch';
import { parse as parseYaml } from 'yaml';
import type { Logger } from '../shared/logger.js';

/** Rule files larger than this are skipped. */
export const MAX_RULE_BYTES = 64 * 1024;
/** Rule files read per folder at most. */
export const MAX_RULE_FILES = 100;
/** A folder is checked for changes at most this often. */
export const RULES_RECHECK_MS = 2_000;

/** One rule. */
export interface Rule {
  /** Where it came from, for logs and the injected heading. */
  file: string;
  name: string;
  description: string | null;
  /** Empty for a rule that always applies. */
  globs: string[];
  body: string;
  matches(path: string): boolean;
}

/** Rules of both folders, cached. */
export interface RuleSet {
  /** The rules, read again where a folder changed. */
  load(): Promise<Rule[]>;
  /** The rules that apply to a working set. */
  applicable(rules: readonly Rule[], workingSet: readonly string[]): Rule[];
}

/** The folders rules are read from. */
export function ruleFolders(env: NodeJS.ProcessEnv, worktree: string): string[] {
  const config = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return [join(config, 'opencode', 'rules'), join(worktree, '.opencode', 'rules')];
}

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Parses one rule file's text. Throws with a message naming the problem.
 *
 * @param file - its path.
 * @param text - its content.
 */
export function parseRule(file: string, text: string): Rule {
  const match = FRONTMATTER.exec(text);
  let meta: Record<string, unknown> = {};
  if (match) {
    const parsed: unknown = parseYaml(match[1] ?? '');
    if (parsed !== null && parsed !== undefined) {
      if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('frontmatter is not a mapping');
      meta = parsed as Record<string, unknown>;
    }
  }
  const rawGlobs = meta['globs'];
  const globs = rawGlobs === undefined || rawGlobs === null ? [] : Array.isArray(rawGlobs) ? rawGlobs : [rawGlobs];
  if (!globs.every((glob): glob is string => typeof glob === 'string' && glob.trim() !== '')) throw new Error('globs must be a string or a list of strings');
  const description = typeof meta['description'] === 'string' ? meta['description'] : null;
  const body = (match ? text.slice(match[0].length) : text).trim();
  const matcher = globs.length > 0 ? picomatch(globs, { dot: true }) : null;
  return {
    file,
    name: basename(file, '.md'),
    description,
    globs,
    body,
    matches: (path) => matcher === null || matcher(path) || matcher(basename(path)),
  };
}

interface FolderCache {
  checkedAt: number;
  signature: string;
  rules: Rule[];
}

/**
 * @param folders - from {@link ruleFolders}.
 * @param logger - one line per skipped file.
 * @param now - the clock, for tests.
 */
export function createRuleSet(folders: readonly string[], logger: Logger, now: () => number = Date.now): RuleSet {
  const caches = new Map<string, FolderCache>();

  async function signatureOf(folder: string): Promise<{ signature: string; files: string[] }> {
    let names: string[];
    try {
      names = (await readdir(folder)).filter((name) => name.endsWith('.md')).sort().slice(0, MAX_RULE_FILES);
    } catch {
      return { signature: 'absent', files: [] };
    }
    const parts: string[] = [];
    for (const name of names) {
      try {
        const info = await stat(join(folder, name));
        parts.push(`${name}:${info.size}:${info.mtimeMs}`);
      } catch {
        parts.push(`${name}:gone`);
      }
    }
    return { signature: parts.join('|'), files: names.map((name) => join(folder, name)) };
  }

  async function readFolder(files: readonly string[]): Promise<Rule[]> {
    const rules: Rule[] = [];
    for (const file of files) {
      try {
        const info = await stat(file);
        if (!info.isFile()) continue;
        if (info.size > MAX_RULE_BYTES) {
          logger.warn(`rules: skipped ${file}: ${info.size} bytes, more than ${MAX_RULE_BYTES}`);
          continue;
        }
        const rule = parseRule(file, await readFile(file, 'utf8'));
        if (rule.body) rules.push(rule);
      } catch (error) {
        logger.warn(`rules: skipped ${file}: ${(error as Error)?.message?.split('\n')[0] ?? String(error)}`);
      }
    }
    return rules;
  }

  async function folderRules(folder: string): Promise<Rule[]> {
    const cached = caches.get(folder);
    if (cached && now() - cached.checkedAt < RULES_RECHECK_MS) return cached.rules;
    const { signature, files } = await signatureOf(folder);
    if (cached && cached.signature === signature) {
      cached.checkedAt = now();
      return cached.rules;
    }
    const rules = await readFolder(files);
    if (rules.length > 0 || cached) logger.info(`rules: ${rules.length} from ${folder}`);
    caches.set(folder, { checkedAt: now(), signature, rules });
    return rules;
  }

  return {
    async load() {
      const all: Rule[] = [];
      for (const folder of folders) all.push(...(await folderRules(folder)));
      return all;
    },
    applicable(rules, workingSet) {
      return rules.filter((rule) => rule.globs.length === 0 || workingSet.some((path) => rule.matches(path)));
    },
  };
}

/** The block appended to the system text. */
export function renderRules(rules: readonly Rule[], maxChars: number): { text: string; included: number } {
  if (rules.length === 0) return { text: '', included: 0 };
  let text = '## Project rules\n\nFollow these rules of this project and its user.';
  let included = 0;
  for (const rule of rules) {
    const entry = `\n\n### ${rule.description ?? rule.name}\n\n${rule.body}`;
    if (text.length + entry.length > maxChars) break;
    text += entry;
    included++;
  }
  return included === 0 ? { text: '', included: 0 } : { text, included };
}
