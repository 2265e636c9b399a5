/**
 * A command is a few words: anything longer than this is not one, and is not worth normalising in
 * full (a 10,000-character paste gets the help card, quickly).
 */
export const LONGEST_COMMAND = 200;

/**
 * The words of a message, forgiving of case, punctuation and the `<at>…</at>` mention Teams puts in
 * channel messages (and of any other HTML Teams may wrap around text): "@Device Health  Show
 * escrow-gaps!" reads "show escrow gaps".
 */
export function commandWords(text: string | undefined | null): string {
  const head = (text ?? '').slice(0, LONGEST_COMMAND * 4);
  return head
    .replace(/<at\b[^>]*>[\s\S]*?<\/at>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;|&/gi, ' and ')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A message's text as its author wrote it, for quoting back: without the `<at>…</at>` mention and
 * other markup Teams wraps around it, entities decoded, spaces collapsed. Never echo markup.
 */
export function plainText(text: string): string {
  return text
    .replace(/<at\b[^>]*>[\s\S]*?<\/at>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&amp;/gi, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
