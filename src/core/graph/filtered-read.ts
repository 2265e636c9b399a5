import { GraphError } from './graph-error.js';

/**
 * A list read with a `$filter` Graph may refuse: on a 400 to it the list is read again whole, and
 * the caller keeps what the filter would have kept, as it does with every item anyway. The managed
 * device list documents no table of the properties it filters on
 * (learn.microsoft.com/graph/api/intune-devices-manageddevice-list, "Optional query parameters":
 * "This method supports the OData query parameters", none named), and a filter is a hint: Intune has
 * ignored filters it does not support (microsoft-graph-docs-contrib#235) and answered `ne` as `eq`
 * (microsoft-graph-docs#15693). Report 4's Windows devices, report 3's baseline templates and what
 * applies' device by name or by its primary user's UPN read through this (docs/finding-rules.md,
 * reports 3 and 4 and "What applies").
 * Any other failure is the caller's, and an aborted read is not read again.
 */
export async function readFilteredOrWhole<T>(read: (filter: string | undefined) => Promise<T>, filter: string, signal?: AbortSignal): Promise<T> {
  try {
    return await read(filter);
  } catch (error) {
    if (signal?.aborted || !(error instanceof GraphError) || error.status !== 400) throw error;
    return read(undefined);
  }
}
