/**
 * Completion without doubles: VS Code's JSON support, with no schema, offers for a property's value the literals
 * the same property has elsewhere in the document (`"additionalProperties": false` in another tool makes it offer
 * `false`). The server offers `true`/`false`/`null` from the schema it knows; where VS Code offers the same literal,
 * ours is dropped, so the list shows it once. Pure module, unit-tested in test/completionDedupe.test.ts.
 */

const LITERALS = new Set(['true', 'false', 'null']);

/** The property whose value is being typed at `offset` (the text right before it is `"key": ` and maybe the start
 * of a literal), or undefined. */
export function propertyAt(text: string, offset: number): string | undefined {
  const match = /"((?:[^"\\\n]|\\.)*)"\s*:\s*[a-z]*$/.exec(text.slice(Math.max(0, offset - 400), offset));
  return match?.[1];
}

/** The literals VS Code's JSON support offers at `offset`: those the same property has elsewhere in the text. */
export function literalsOfferedByJson(text: string, offset: number): Set<string> {
  const key = propertyAt(text, offset);
  const offered = new Set<string>();
  if (key === undefined) return offered;
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`"${escaped}"\\s*:\\s*(true|false|null)\\b`, 'g');
  const here = text.lastIndexOf(`"${key}"`, offset);
  for (const match of text.matchAll(pattern)) {
    if (match.index !== here) offered.add(match[1]);
  }
  return offered;
}

/** The server's items less the literals VS Code's JSON support offers too. */
export function withoutDoubles<T extends { label: string | { label: string } }>(items: T[], offered: Set<string>): T[] {
  if (offered.size === 0) return items;
  return items.filter((item) => {
    const label = typeof item.label === 'string' ? item.label : item.label.label;
    return !(LITERALS.has(label) && offered.has(label));
  });
}
