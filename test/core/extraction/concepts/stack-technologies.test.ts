import { describe, expect, it } from 'vitest';
import { manifestDependencies, stackOfCommands, stackOfPath } from '../../../../src/core/extraction/concepts/stack-technologies.js';

describe('stackOfPath', () => {
  it('should name the stack by extension, manifest and config file', () => {
    expect(stackOfPath('internal/api/router.go')).toEqual(['golang']);
    expect(stackOfPath('Billing.Api/Services/InvoiceService.cs')).toEqual(['dotnet']);
    expect(stackOfPath('web/src/components/Menu.tsx')).toEqual(['typescript', 'react']);
    expect(stackOfPath('Cargo.toml')).toEqual(['rust']);
    expect(stackOfPath('web/tailwind.config.ts')).toEqual(['tailwindcss']);
    expect(stackOfPath('C:\\work\\shop\\pom.xml')).toEqual(['maven']);
  });

  it("should name the tool a file's folder belongs to", () => {
    expect(stackOfPath('.github/workflows/release.yml')).toEqual(['github-actions']);
    expect(stackOfPath('infra/roles/ntp/tasks/main.yml')).toEqual(['ansible']);
    expect(stackOfPath('site_playbook.yaml')).toEqual(['ansible']);
  });

  it('should name nothing for files every stack has', () => {
    for (const path of ['README.md', 'config.yml', 'Makefile', 'scripts/run.sh', 'notes.txt', 'a'.repeat(500) + '.go']) expect(stackOfPath(path)).toEqual([]);
  });
});

describe('stackOfCommands', () => {
  it('should name the stack of build tools and service managers, once each', () => {
    expect(stackOfCommands([['go', 'test', './...'], ['go', 'vet'], ['systemctl', 'restart', 'api'], ['dotnet', 'build']])).toEqual(['golang', 'systemd', 'dotnet']);
  });

  it("should name the stack of a platform's build tool and of a framework's own command line", () => {
    expect(stackOfCommands([['php', 'artisan', 'migrate:fresh'], ['xcodebuild', '-scheme', 'Vault'], ['cmake', '--build', 'build']])).toEqual(['laravel', 'xcode', 'cmake']);
    // The interpreter alone, or with a script of the project, names no framework.
    expect(stackOfCommands([['php', 'seed.php'], ['php', '-v']])).toEqual([]);
  });

  it('should not count asking a tool for its version or help', () => {
    expect(stackOfCommands([['docker', '--version'], ['cargo', 'help'], ['jq', '.name']])).toEqual([]);
  });
});

describe('manifestDependencies', () => {
  it('should read the packages a package manifest names with a version, by their product', () => {
    const text = '{\n  "version": "0.3.0",\n  "dependencies": {\n    "@tanstack/react-query": "^5.0.0",\n    "next": "15.2.4",\n    "zod": "~3.23.8"\n  },\n  "engines": { "node": ">=20" }\n}';
    expect(manifestDependencies('web/package.json', text)).toEqual(['tanstack', 'nextjs', 'zod']);
  });

  it('should read only package manifests, and a few packages of each', () => {
    expect(manifestDependencies('data.json', '"zod": "3.0.0"')).toEqual([]);
    const many = Array.from({ length: 30 }, (_, index) => `"pkg${index}": "1.0.${index}"`).join(',\n');
    expect(manifestDependencies('package.json', many)).toHaveLength(8);
  });
});
