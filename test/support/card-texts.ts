/** The texts of an Adaptive Card, by how Teams reads them. */
export interface CardTexts {
  /** TextBlock texts, and a FactSet's titles and values: Teams reads these as Markdown. */
  blocks: string[];
  /** TextRun texts (in RichTextBlocks), which Teams shows as they are. */
  runs: string[];
}

/**
 * Every text in a card, its shown cards included, sorted by whether Teams reads it as Markdown
 * (learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/cards-format, "Format
 * cards with Markdown": a TextBlock, a Fact's title and value).
 */
export function cardTexts(card: unknown): CardTexts {
  const texts: CardTexts = { blocks: [], runs: [] };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const element = node as Record<string, unknown>;
    if (element.type === 'TextBlock' && typeof element.text === 'string') texts.blocks.push(element.text);
    if (element.type === 'TextRun' && typeof element.text === 'string') texts.runs.push(element.text);
    if (element.type === 'FactSet' && Array.isArray(element.facts)) {
      for (const fact of element.facts as Array<{ title?: unknown; value?: unknown }>) texts.blocks.push(String(fact.title ?? ''), String(fact.value ?? ''));
    }
    Object.values(element).forEach(visit);
  };
  visit(card);
  return texts;
}
