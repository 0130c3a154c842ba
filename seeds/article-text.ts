/**
 * Builds article content while recording where marked passages land. Offsets are JavaScript string indices,
 * i.e. UTF-16 code units, which is what the API promises; characters outside the Basic Multilingual Plane
 * (emoji, CJK Extension B) take two units each, so these offsets differ from code point offsets.
 */
export class ArticleText {
  private content = '';

  get length(): number {
    return this.content.length;
  }

  append(text: string): this {
    this.content += text;
    return this;
  }

  /** Appends `text` and returns its `[start, end)` offsets. */
  mark(text: string): { start: number; end: number } {
    const start = this.content.length;
    this.content += text;
    return { start, end: this.content.length };
  }

  /** Ends the current paragraph (a blank line), unless the text is empty or already ends with one. */
  paragraph(): this {
    if (this.content.length > 0 && !this.content.endsWith('\n\n')) this.content += '\n\n';
    return this;
  }

  toString(): string {
    return this.content.trimEnd();
  }
}

/** Characters outside the BMP: each is one code point but two UTF-16 code units. */
export const astralSymbols = ['📈', '🚀', '💼', '📊', '🏦', '🌏', '🤝', '💡', '🔋', '📉'];

/** Reporters' names, some with CJK Extension B characters (𠮷 in 𠮷田 is the common "tsuchi-yoshi" form). */
export const reporterNames = [
  '𠮷田 陽子',
  '𠀋川 花子',
  '𠮷村 健',
  'Aoife Gallagher',
  'Marcus Feldmann',
  'Priya Raman',
  'Léa Fontaine',
  'Tomás Herrera',
  '陈 𠀋明',
  'Sarah O’Connell',
  'Jonas Lindqvist',
  '김 민준',
];

/** True when some character before `offset` is outside the BMP, so UTF-16 and code point offsets differ. */
export function hasAstralBefore(content: string, offset: number): boolean {
  return [...content.slice(0, offset)].length !== offset;
}
