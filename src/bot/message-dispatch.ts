import type { BotServices } from './bot-services.js';
import { helpCard } from './cards/help-card.js';
import { scheduleSentence } from './cards/schedule-sentence.js';
import type { BotReply, BotRequest, Command, CommandContext, Conversation, MessageReading } from './commands/command.js';
import { notUnderstood } from './commands/help.js';
import { COMMANDS, botCommands } from './commands/index.js';
import { scheduleOf } from './commands/posting-schedules.js';
import { channelTag } from '../core/schedule/post-schedule.js';
import { errorText } from '../core/error-text.js';
import { readMessage } from './read-message.js';
import { WHOLE_TENANT, describeScope, scopeOfTagSeenBy } from '../core/viewer-scope/scope.js';
import type { ViewerScope } from '../core/viewer-scope/scope.js';
import { SCOPE_TAGGED_REPORTS } from '../core/viewer-scope/report-access.js';

/**
 * How the bot answers a message, whatever SDK carries it: the adapter has the message read once
 * (`read`, by the registry of commands), then asks for the answer of the command it was read as,
 * or of the help card for a message no command took.
 */
export interface MessageDispatch {
  /** What a message asks (read-message.ts): the mention Teams adds in channels, case and punctuation do not matter. */
  read(text: string | undefined): MessageReading;
  /** The answer to a message read; null when its command has sent all it had to say. */
  answer(reading: MessageReading, request: BotRequest, conversation: Conversation): Promise<BotReply | null>;
}

export function messageDispatch(services: BotServices, commands: readonly Command[] = COMMANDS): MessageDispatch {
  const { registry } = services;
  const context = (conversation: Conversation, scope: ViewerScope, asker: ViewerScope = scope, keptTo?: KeptTo): CommandContext => ({
    ...services,
    conversation,
    scope,
    asker,
    inScope: (result) => {
      // A tenant-wide report is not said where only one scope tag's audience reads (docs/finding-rules.md, "A channel's audience"), whoever asks.
      if (keptTo && !SCOPE_TAGGED_REPORTS.has(result.report)) return { ok: false, explanation: tenantWideNotHere(result.title, keptTo) };
      return services.viewerScopes ? services.viewerScopes.view(result, scope) : { ok: true, result };
    },
    async helpCard(channel, notUnderstood = {}) {
      const schedule = await scheduleOf(services, channel);
      return helpCard({
        tenantLabel: services.tenantLabel,
        tabUrl: services.tabUrl,
        commands: botCommands(registry, commands),
        ...(notUnderstood.unknown !== undefined ? { unknown: notUnderstood.unknown } : {}),
        ...(notUnderstood.suggestion ? { suggestion: notUnderstood.suggestion } : {}),
        ...(notUnderstood.why ? { why: notUnderstood.why } : {}),
        schedule: scheduleSentence(schedule, services.now()),
      });
    },
  });
  return {
    read: (text) => readMessage(text, commands, registry),
    answer: async (reading, request, conversation) => {
      if (!reading.command) return notUnderstood(request, reading.reading, context(conversation, noTenantData(services)));
      const asker = await askerScope(services, reading.command, request);
      if (typeof asker === 'string') return { text: asker };
      const here = await conversationScope(services, reading.command, request, asker);
      if (typeof here === 'string') return { text: here };
      return reading.command.handle(request, reading.reading, context(conversation, here.scope, asker, here.keptTo));
    },
  };
}

/** The scope a command that shows no tenant data answers in: none at all with the viewer scope on, so that a tenant read in it shows nothing. */
function noTenantData(services: BotServices): ViewerScope {
  return services.viewerScopes ? { kind: 'none', explanation: 'This answer shows no tenant data.' } : WHOLE_TENANT;
}

/**
 * The scope the asker is answered in (docs/finding-rules.md, "Viewer scope"), or what they are told
 * instead: with the viewer scope on, the asker is Teams' `from.aadObjectId`; one with no scope is told
 * why, and one whose scope is limited to scope tags is answered only by a command that keeps to a
 * scope (`Command.viewerScope`). A command that shows no tenant data (`help`) answers anyone.
 */
async function askerScope(services: BotServices, command: Command, request: BotRequest): Promise<ViewerScope | string> {
  if (!services.viewerScopes) return WHOLE_TENANT;
  if (command.viewerScope === 'no-tenant-data') return noTenantData(services);
  const objectId = request.sender.objectId;
  if (!objectId) return 'This app shows each person what their Intune role assignments let them see, and Teams did not say who you are, so I cannot answer.';
  const scope = await services.viewerScopes.scopeOf({ objectId });
  if (scope.kind === 'none') return scope.explanation;
  if (scope.kind === 'tenant' || command.viewerScope === 'in-scope') return scope;
  return `This app shows each person what their Intune role assignments let them see (yours: ${describeScope(scope)}), and "${command.name}" cannot yet keep to a scope, so it answers only people whose role assignment has no scope tags. "show <report>", "show overview", "what applies to <device>", "post new findings" and a schedule for one of your scope tags ("post new findings for scope tag <name> daily at 9:00") answer within yours, and the tab shows what your scope tags let you see.`;
}

/**
 * The scope an answer in this conversation shows (docs/finding-rules.md, "Viewer scope", "A channel's
 * audience"): the asker's, narrowed to the scope tag the conversation is kept to, if any, whoever
 * asks, since every member of a channel reads what is said there; of the reports, those the asker's
 * own roles read (`scopeOfTagSeenBy`: a role that only reboots devices opens none of them there
 * either). An asker whose scope does not
 * cover that tag is answered nothing of the tenant there, and if the schedules cannot be read,
 * whether the conversation is kept to a tag is unknown and nothing of the tenant is answered. With
 * the viewer scope off, or for a command that shows no tenant data, the asker's scope as it is.
 */
async function conversationScope(services: BotServices, command: Command, request: BotRequest, asker: ViewerScope): Promise<{ scope: ViewerScope; keptTo?: KeptTo } | string> {
  if (!services.viewerScopes || command.viewerScope === 'no-tenant-data' || asker.kind === 'none') return { scope: asker };
  let tag: KeptTo | undefined;
  try {
    tag = channelTag(await services.schedules.read(), request.conversation.channel);
  } catch (error) {
    services.log(`could not read the posting schedules: ${errorText(error)}`);
    return "This conversation's posting schedules could not be read, so whether what is said here is kept to one scope tag is unknown, and I answer nothing of the tenant here. Try again in a few minutes.";
  }
  if (!tag) return { scope: asker };
  if (asker.kind === 'tenant' || asker.tagIds.has(tag.id)) return { scope: scopeOfTagSeenBy({ id: tag.id, displayName: tag.name }, asker), keptTo: tag };
  return `This conversation is kept to scope tag ${tag.name}, which is outside what your Intune role assignments let you see (${describeScope(asker)}), so I answer nothing of the tenant here. Ask me in a chat of your own, or where someone who sees scope tag ${tag.name} reads the answer.`;
}

/** The scope tag a conversation is kept to (`channelTag`). */
type KeptTo = { id: string; name: string };

/** Why a tenant-wide report is not shown in a conversation kept to one scope tag: what is said there is kept to that tag's objects. */
function tenantWideNotHere(title: string, tag: KeptTo): string {
  return `${title} covers the whole tenant, and this conversation is kept to scope tag ${tag.name}, so it is not shown here, whoever asks: what is said here is kept to that tag. Ask me in a chat of your own.`;
}
