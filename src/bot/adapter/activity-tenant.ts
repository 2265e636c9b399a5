/** The tenant an incoming activity says it comes from: the conversation's, else Teams' channel data's. */
export function activityTenantId(body: unknown): string | undefined {
  const activity = body as { conversation?: { tenantId?: unknown }; channelData?: { tenant?: { id?: unknown } } } | undefined;
  const tenant = activity?.conversation?.tenantId ?? activity?.channelData?.tenant?.id;
  return typeof tenant === 'string' ? tenant : undefined;
}

/** The `serviceUrl` an incoming activity names: where the bot's replies to it are sent. */
export function activityServiceUrl(body: unknown): string | undefined {
  const serviceUrl = (body as { serviceUrl?: unknown } | undefined)?.serviceUrl;
  return typeof serviceUrl === 'string' ? serviceUrl : undefined;
}
