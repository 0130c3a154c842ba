/**
 * Titles that read as executive: the C-suite (by name or abbreviation), presidents, founders and
 * owners, directors of any kind, vice presidents, general and country managers, partners, heads of a
 * function, chairs and board members. Matched case-insensitively on word boundaries, so `CEO & Co-Founder`
 * and `Global Head of Data` count while `Cargo Handler` or `Directory Clerk` do not.
 */
const executivePattern = new RegExp(
  [
    String.raw`\bchief\b`,
    String.raw`\bc(?:e|f|o|t|i|m|r|c|p|d|s|l|a|b|x|hr|is)o\b`,
    String.raw`\b(?:co-|vice[ -])?president\b`,
    String.raw`\b(?:co-?)?founder\b`,
    String.raw`\bowner\b`,
    String.raw`\bproprietor\b`,
    String.raw`\bdirector\b`,
    String.raw`\b(?:md|gm)\b`,
    String.raw`\b(?:s|e)?vp\b`,
    String.raw`\b(?:general|country) manager\b`,
    String.raw`\bpartner\b`,
    String.raw`\bhead of\b`,
    String.raw`\bchair(?:man|woman|person)?\b`,
    String.raw`\bboard member\b`,
    '^principal$',
  ].join('|'),
  'i',
);

/**
 * Titles that name an executive without being one: an assistant to an executive
 * (`Executive Assistant to the CEO`) and the HR `Business Partner`.
 */
const notExecutivePattern = /\bassistant\b|\bbusiness partner\b/i;

/** True when a recorded job title reads as executive (the rule the people lists split on). */
export function isExecutiveTitle(title: string): boolean {
  const trimmed = title.trim();
  return executivePattern.test(trimmed) && !notExecutivePattern.test(trimmed);
}
