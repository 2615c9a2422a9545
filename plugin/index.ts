/**
 * The folder entry: OpenCode 2.x loads a local plugin by naming its folder
 * (`{ "package": "/path/to/opencode-maenifold/plugin" }`, or `…/dist/plugin`
 * of an installed package) and runs that folder's index. The same single
 * default export as maenifold.ts, which 1.x configurations name directly.
 */
export { default } from './maenifold.js';
