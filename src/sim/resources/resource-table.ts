import type { SimNestedResource, SimResource, SimResourceEntry, VersionSegment } from './resource-model.js';

/**
 * The resources one simulator serves, found by the path a request names: the simulator's own
 * (`SIM_RESOURCES`) and those its tenant brings (`SimTenant.resources`, a report that exists only
 * in a test). Two resources on one path are a mistake in the tenant, refused when the simulator
 * starts.
 */
export class SimResourceTable {
  private readonly lists: readonly SimResource[];
  private readonly nested: readonly SimNestedResource[];

  constructor(entries: readonly SimResourceEntry[]) {
    const paths = new Set<string>();
    for (const entry of entries) {
      if (paths.has(entry.path)) throw new Error(`the simulator serves ${entry.path} twice`);
      paths.add(entry.path);
    }
    this.lists = entries.filter((entry): entry is SimResource => entry.kind !== 'nested');
    this.nested = entries.filter((entry): entry is SimNestedResource => entry.kind === 'nested');
  }

  /** The list or singleton at `path` (after the version segment) on `version`. */
  findResource(version: VersionSegment, path: string): SimResource | undefined {
    return this.lists.find((resource) => resource.path === path && resource.versions.includes(version));
  }

  /**
   * One record of a collection by its id, `<collection path>/{id}`: every Intune collection reads its
   * entities this way (the "Get" pages beside each "List" page of the Intune Graph reference, e.g.
   * intune-deviceconfigv2-devicemanagementconfigurationpolicy-get, `$expand=settings` inline).
   */
  findEntity(version: VersionSegment, path: string): { resource: SimResource & { kind: 'collection' }; id: string } | undefined {
    const slash = path.lastIndexOf('/');
    const resource = this.findResource(version, path.slice(0, slash));
    const id = path.slice(slash + 1);
    if (!resource || resource.kind !== 'collection' || !id) return undefined;
    return { resource, id: decodeURIComponent(id) };
  }

  /** The nested resource a path names, with the parent's id taken from it. */
  findNestedResource(version: VersionSegment, path: string): { resource: SimNestedResource; parentId: string } | undefined {
    for (const resource of this.nested) {
      if (!resource.versions.includes(version)) continue;
      const [before, after] = resource.path.split('{id}') as [string, string];
      if (!path.startsWith(before) || !path.endsWith(after)) continue;
      const parentId = path.slice(before.length, path.length - after.length);
      if (parentId && !parentId.includes('/')) return { resource, parentId: decodeURIComponent(parentId) };
    }
    return undefined;
  }
}
