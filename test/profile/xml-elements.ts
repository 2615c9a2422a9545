/**
 * A small well-formedness check for the SVG files the profile command writes: one root element, every
 * tag closed in order, attributes quoted, no bare `<` or `&` in text. Returns the elements in document
 * order; throws with the offending place otherwise.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
}

const TOKEN = /<!--[\s\S]*?-->|<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
const ATTRIBUTE = /([\w:.-]+)="([^"<]*)"/g;
const BARE_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[\da-fA-F]+);)/;

export function xmlElements(text: string): XmlElement[] {
  const body = text.replace(/^<\?xml[^>]*\?>/, '');
  const elements: XmlElement[] = [];
  const open: string[] = [];
  let roots = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < body.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(body);
    if (!match) throw new Error(`not well-formed at ${at}: ${JSON.stringify(body.slice(at, at + 40))}`);
    const [, closing, name, attributes, selfClosing, content] = match;
    if (content !== undefined) {
      if (open.length === 0 && content.trim() !== '') throw new Error(`text outside the root at ${at}`);
      if (BARE_AMPERSAND.test(content)) throw new Error(`bare & at ${at}`);
      continue;
    }
    if (name === undefined) continue; // a comment
    if (closing) {
      if (open.pop() !== name) throw new Error(`</${name}> at ${at} closes nothing open`);
      continue;
    }
    if (open.length === 0 && ++roots > 1) throw new Error(`a second root <${name}> at ${at}`);
    const parsed: Record<string, string> = {};
    for (const [, key, value] of (attributes ?? '').matchAll(ATTRIBUTE)) {
      if (BARE_AMPERSAND.test(value as string)) throw new Error(`bare & in an attribute at ${at}`);
      parsed[key as string] = value as string;
    }
    elements.push({ name, attributes: parsed });
    if (!selfClosing) open.push(name);
  }
  if (open.length > 0) throw new Error(`unclosed <${open.join('>, <')}>`);
  if (roots !== 1) throw new Error('no root element');
  return elements;
}
