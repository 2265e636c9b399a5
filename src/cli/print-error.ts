import { outputWidth, wrap } from './text-layout.js';

/** A message on stderr, wrapped to stderr's width as every line the command line prints (docs/contract.md, "The command line"). */
export function printError(text: string): void {
  const width = outputWidth(undefined, process.stderr, process.env);
  console.error(
    text
      .split('\n')
      .flatMap((line) => (line === '' ? [''] : wrap(line, width)))
      .join('\n'),
  );
}
