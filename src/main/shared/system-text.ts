/**
 * Adding to the system prompt the way every provider accepts.
 */

/**
 * Appends a block to the last system entry (a new entry would become a second
 * system message, which single-system providers reject), once.
 *
 * @param system - `output.system` of `experimental.chat.system.transform`.
 * @param block - the text to add.
 * @returns whether it was added (false when it is already there).
 */
export function appendToSystem(system: string[], block: string): boolean {
  if (system.some((entry) => entry.includes(block))) return false;
  if (system.length === 0) system.push(block);
  else system[system.length - 1] = `${system[system.length - 1]}\n\n${block}`;
  return true;
}
