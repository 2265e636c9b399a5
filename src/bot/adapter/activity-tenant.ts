/** The tenant an incoming activity says it comes from: the conversation's, else Teams' channel data's. */
export function activityTenantId(body: unknown): string | undefined {
  const activity = body as { conversation?: { tenantId?: unknown }; channelData?: { tenant?: { id?: unknown } } } | undefined;
  const tenant = activity?.conversation?.tenantId ?? activity?.channelData?.tenant?.id;
  return typeof tenant === 'string' ? tenant : undefined;
}
