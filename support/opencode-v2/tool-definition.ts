/**
 * A plugin tool's definition and input checked as the host decodes them
 * (`packages/schema/src/tool.ts` @0f131b3): a name, a description, a JSON
 * Schema object as `input` (the form the plugin uses of the three `add`
 * takes) and an `execute` function. Misuse throws with what is wrong, as the
 * host's decoding would refuse it.
 */
import type { V2ToolDefinition } from '../../src/main/host/v2/opencode-v2.js';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @param definition - what the plugin passed to `add`.
 * @returns the definition, typed.
 * @throws Error naming the first field that is wrong.
 */
export function checkToolDefinition(definition: unknown): V2ToolDefinition {
  if (!isObject(definition)) throw new Error('a tool definition must be an object');
  const { name, description, input, execute } = definition;
  if (typeof name !== 'string' || !NAME.test(name)) throw new Error(`tool name must match ${NAME}, not ${JSON.stringify(name)}`);
  if (typeof description !== 'string' || description.trim() === '') throw new Error(`tool ${name}: description must be a non-empty string`);
  if (typeof execute !== 'function') throw new Error(`tool ${name}: execute must be a function`);
  if (!isObject(input) || input['type'] !== 'object' || !isObject(input['properties'])) throw new Error(`tool ${name}: input must be a JSON Schema object with properties`);
  const properties = input['properties'];
  for (const [key, schema] of Object.entries(properties)) {
    if (!isObject(schema) || typeof schema['type'] !== 'string') throw new Error(`tool ${name}: input.properties.${key} must be a schema with a type`);
  }
  const required = input['required'];
  if (required !== undefined && (!Array.isArray(required) || required.some((key) => typeof key !== 'string' || !(key in properties)))) {
    throw new Error(`tool ${name}: input.required must list properties of input`);
  }
  return definition as unknown as V2ToolDefinition;
}

/**
 * Checks a call's input against a tool's schema, as the host does before it calls `execute`.
 *
 * @param definition - the tool.
 * @param input - the model's arguments.
 * @throws Error naming the argument that is missing or of the wrong type.
 */
export function checkToolInput(definition: V2ToolDefinition, input: Record<string, unknown>): void {
  for (const key of definition.input.required ?? []) {
    if (!(key in input)) throw new Error(`${definition.name}: missing required argument ${key}`);
  }
  for (const [key, value] of Object.entries(input)) {
    const schema = definition.input.properties[key];
    if (!schema) {
      if (definition.input.additionalProperties === false) throw new Error(`${definition.name}: unknown argument ${key}`);
      continue;
    }
    if (schema.type === 'string' && typeof value !== 'string') throw new Error(`${definition.name}: argument ${key} must be a string`);
  }
}
