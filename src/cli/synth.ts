/**
 * `npm run synth -- --size 10MB`: writes a synthetic session export to stdout
 * (or to `--out FILE`), to try the plugin or the preview on a session of any size.
 */
import { synthCommand, synthUsage } from './synth-command.js';
import { invocationDir, runCli } from './run-cli.js';

runCli('synth', (argv) => synthCommand(argv, { usage: synthUsage('npm run --silent synth --'), base: invocationDir() }));
