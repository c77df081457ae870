// Every piece of text in the report comes from user input (names, messages, images): escape it all.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML/SVG element content and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** Formats a number for SVG coordinates (two decimals, no exponent). */
export const num = (n: number): string => (Math.round(n * 100) / 100).toFixed(2).replace(/\.?0+$/, '');
