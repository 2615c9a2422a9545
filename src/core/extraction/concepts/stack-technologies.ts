/**
 * The stack a session works in, from evidence every project of that stack
 * leaves: the extensions and manifests of the files it edits and reads, and
 * the build tools its shell commands run. A Go service is rarely called "Go"
 * in its own session, but its `.go` files, its `go.mod` and its `go build`
 * say so in every turn.
 *
 * Names are maenifold concepts, spelled so that a plain English word does not
 * stand for the language (`golang`, not `go`), and a
 * language and its platform are one topic (`.cs` and `dotnet build` are `dotnet`).
 */
import { packageRoot } from './named-technologies.js';

/** File extensions that only one language, framework or tool uses. */
const BY_EXTENSION: Readonly<Record<string, readonly string[]>> = {
  go: ['golang'],
  rs: ['rust'],
  py: ['python'],
  pyi: ['python'],
  ipynb: ['python', 'jupyter'],
  java: ['java'],
  kt: ['kotlin'],
  kts: ['kotlin'],
  swift: ['swift'],
  rb: ['ruby'],
  php: ['php'],
  cs: ['dotnet'],
  csproj: ['dotnet'],
  sln: ['dotnet'],
  fs: ['fsharp'],
  fsproj: ['fsharp'],
  tf: ['terraform'],
  ts: ['typescript'],
  mts: ['typescript'],
  tsx: ['typescript', 'react'],
  jsx: ['react'],
  vue: ['vue'],
  svelte: ['svelte'],
  astro: ['astro'],
  scss: ['scss'],
  sass: ['scss'],
  dart: ['dart'],
  ex: ['elixir'],
  exs: ['elixir'],
  lua: ['lua'],
  zig: ['zig'],
  hs: ['haskell'],
  scala: ['scala'],
  clj: ['clojure'],
  cpp: ['cpp'],
  cc: ['cpp'],
  hpp: ['cpp'],
  proto: ['protobuf'],
  graphql: ['graphql'],
  gql: ['graphql'],
  prisma: ['prisma'],
  sol: ['solidity'],
  bats: ['bats'],
  service: ['systemd'],
  timer: ['systemd'],
};

/** Manifests and configuration files whose name tells the stack, lowercase. */
const BY_FILE_NAME: Readonly<Record<string, readonly string[]>> = {
  'go.mod': ['golang'],
  'go.sum': ['golang'],
  'cargo.toml': ['rust'],
  'pyproject.toml': ['python'],
  'requirements.txt': ['python'],
  'setup.py': ['python'],
  'pom.xml': ['maven'],
  'build.gradle': ['gradle'],
  'build.gradle.kts': ['gradle'],
  gemfile: ['ruby'],
  'composer.json': ['php'],
  dockerfile: ['docker'],
  'docker-compose.yml': ['docker'],
  'docker-compose.yaml': ['docker'],
  'compose.yml': ['docker'],
  'compose.yaml': ['docker'],
  'chart.yaml': ['helm'],
  'kustomization.yaml': ['kubernetes'],
  'angular.json': ['angular'],
  'tsconfig.json': ['typescript'],
  'ansible.cfg': ['ansible'],
  '.gitlab-ci.yml': ['gitlab-ci'],
};

/** Config files named `<tool>.config.<ext>`: the tool is the stack (`tailwind.config.js`). */
const CONFIGURED_TOOLS: Readonly<Record<string, string>> = {
  tailwind: 'tailwindcss',
  next: 'nextjs',
  vite: 'vite',
  nuxt: 'nuxt',
  svelte: 'svelte',
  astro: 'astro',
  playwright: 'playwright',
  vitest: 'vitest',
  jest: 'jest',
};

/** Folders whose files belong to one tool, wherever they sit: `.github/workflows/deploy.yml` is GitHub Actions. */
const BY_FOLDER: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?:^|\/)\.github\/workflows\/[^/]+\.ya?ml$/, 'github-actions'],
  // An Ansible role's parts (`roles/ntp/tasks/main.yml`), a playbook, or YAML under an `ansible` folder.
  [/(?:^|\/)roles\/[^/]+\/(?:tasks|handlers|defaults|vars|meta)\/[^/]+\.ya?ml$|(?:^|\/)[^/]*playbook[^/]*\.ya?ml$|(?:^|\/)ansible\/(?:[^/]+\/){0,4}[^/]+\.ya?ml$/i, 'ansible'],
  [/(?:^|\/)(?:k8s|kubernetes|manifests)\/(?:[^/]+\/){0,4}[^/]+\.ya?ml$/i, 'kubernetes'],
  [/(?:^|\/)(?:etc\/)?systemd\/system\/[^/]+$/, 'systemd'],
];

/** Longest path read: a path longer than this is not a project file. */
const MAX_PATH_CHARS = 400;

/**
 * The stack a file's path shows: by extension, manifest name, `<tool>.config.*` or the tool's folder.
 *
 * @param path - a working-set path (`/` separators).
 */
export function stackOfPath(path: string): readonly string[] {
  if (path.length > MAX_PATH_CHARS) return [];
  const normalized = path.replaceAll('\\', '/');
  const name = (normalized.slice(normalized.lastIndexOf('/') + 1)).toLowerCase();
  const named = BY_FILE_NAME[name];
  if (named) return named;
  for (const [folder, stack] of BY_FOLDER) if (folder.test(normalized)) return [stack];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [];
  const configured = /^([a-z]+)\.config\.[a-z]+$/.exec(name);
  const tool = configured ? CONFIGURED_TOOLS[configured[1] ?? ''] : undefined;
  if (tool) return [tool];
  return BY_EXTENSION[name.slice(dot + 1)] ?? [];
}

/** Build tools and service managers whose use says what the project is built with. */
const BY_PROGRAM: Readonly<Record<string, string>> = {
  go: 'golang',
  cargo: 'rust',
  rustc: 'rust',
  dotnet: 'dotnet',
  mvn: 'maven',
  mvnw: 'maven',
  gradle: 'gradle',
  gradlew: 'gradle',
  terraform: 'terraform',
  tofu: 'terraform',
  ansible: 'ansible',
  'ansible-playbook': 'ansible',
  'ansible-galaxy': 'ansible',
  docker: 'docker',
  'docker-compose': 'docker',
  podman: 'docker',
  kubectl: 'kubernetes',
  helm: 'helm',
  systemctl: 'systemd',
  journalctl: 'systemd',
  pip: 'python',
  pip3: 'python',
  poetry: 'python',
  uv: 'python',
  flutter: 'flutter',
  swift: 'swift',
  cmake: 'cmake',
  xcodebuild: 'xcode',
};

/** A framework's own command line, run through its language's interpreter (`php artisan migrate`). */
const BY_PROGRAM_ARGUMENT: Readonly<Record<string, string>> = {
  'php artisan': 'laravel',
};

// `go version`, `docker --help`: asking a tool about itself is no use of it.
const SELF_QUERIES = new Set(['version', '--version', '-v', '-V', 'help', '--help', '-h', 'env']);

/**
 * The stack a command's programs show (`go build` → `golang`, `systemctl restart` → `systemd`,
 * `php artisan migrate` → `laravel`).
 *
 * @param invocations - each program run with its arguments, as `commandsRun` gives them.
 */
export function stackOfCommands(invocations: readonly (readonly string[])[]): string[] {
  const found: string[] = [];
  for (const [program = '', argument = ''] of invocations) {
    const stack = BY_PROGRAM[program.toLowerCase()] ?? BY_PROGRAM_ARGUMENT[`${program.toLowerCase()} ${argument}`];
    if (stack && !SELF_QUERIES.has(argument) && !found.includes(stack)) found.push(stack);
  }
  return found;
}

// `"react": "^18.2.0"` in a package manifest (read with line numbers or not): a dependency and its version.
const NPM_DEPENDENCY = /^[ \t\d:|+-]*"(@?[\w./-]{1,80})"[ \t]*:[ \t]*"(?:[~^<>=]{0,2}\d|latest\b|workspace:|npm:)/gm;
// Keys of a manifest that carry a version but name no dependency.
const NOT_DEPENDENCIES = new Set(['version', 'node', 'npm', 'pnpm', 'yarn', 'bun']);
/** Dependencies read from one manifest: the first few, as a manifest lists them alphabetically. */
const MAX_DEPENDENCIES = 8;
/** Characters of a manifest read. */
const MAX_MANIFEST_CHARS = 4_000;

/**
 * The packages a `package.json` depends on, as its text (a read, an edit's new text) shows them.
 *
 * @param path - the file's path: only a `package.json` is read.
 * @param text - its text or part of it.
 */
export function manifestDependencies(path: string, text: string): string[] {
  if (!path.endsWith('package.json') || !text.includes('"')) return [];
  const found: string[] = [];
  for (const match of text.slice(0, MAX_MANIFEST_CHARS).matchAll(NPM_DEPENDENCY)) {
    const root = packageRoot(match[1] ?? '');
    if (root && !NOT_DEPENDENCIES.has(root) && !found.includes(root)) found.push(root);
    if (found.length >= MAX_DEPENDENCIES) break;
  }
  return found;
}
