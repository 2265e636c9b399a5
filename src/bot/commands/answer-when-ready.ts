import { errorText } from '../../core/error-text.js';
import type { BotReply, CommandContext } from './command.js';

/**
 * The answer to a message, once `loading` has settled: at once if it settles within the time
 * Teams gives a bot to answer (`followUpAfterMs`), else a "reading…" line now and the answer
 * posted to the conversation when it is ready.
 */
export async function answerWhenReady<T>(
  context: Pick<CommandContext, 'conversation' | 'followUpAfterMs' | 'log'>,
  loading: Promise<T>,
  toAnswer: (value: T) => Promise<BotReply>,
  options: { what: string; meanwhile: string },
): Promise<BotReply> {
  const settled = await settledWithin(loading, context.followUpAfterMs);
  if (settled) return toAnswer(settled);
  void loading
    .then((late) => context.conversation.followUp(() => toAnswer(late)))
    .catch((error: unknown) => context.log(`${options.what}: the follow-up failed: ${errorText(error)}`));
  return { text: options.meanwhile };
}

/** The value if the promise settles within `ms`, else null (it goes on settling). */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
