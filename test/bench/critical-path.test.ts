import { describe, expect, it } from 'vitest';
import { criticalPathRounds } from '../../bench/critical-path.js';

const get = (path: string, status = 200) => ({ method: 'GET' as const, path, status });
const batch = (status = 200) => ({ method: 'POST' as const, path: '/v1.0/$batch', status });

describe('criticalPathRounds', () => {
  it('is the longest page chain when requests are few', () => {
    const exchanges = [
      ...Array.from({ length: 5 }, (_, page) => get(`/v1.0/deviceManagement/managedDevices?$skiptoken=${page}`)),
      get('/v1.0/directory/deviceLocalCredentials'),
      get('/v1.0/deviceManagement/androidManagedStoreAccountEnterpriseSettings', 400),
      get('/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings'),
    ];
    expect(criticalPathRounds(exchanges, 8)).toBe(5);
  });

  it('counts a version fallback as part of the same chain', () => {
    const exchanges = [
      get('/v1.0/deviceManagement/androidManagedStoreAccountEnterpriseSettings', 400),
      get('/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings', 404),
    ];
    expect(criticalPathRounds(exchanges, 8)).toBe(2);
  });

  it('is bounded by the slots when requests are many, and by look-ups after the first page', () => {
    const pages = Array.from({ length: 3 }, () => get('/beta/deviceManagement/configurationPolicies'));
    expect(criticalPathRounds([...pages, ...Array.from({ length: 21 }, () => batch())], 8)).toBe(Math.max(3, Math.ceil(24 / 8), 1 + Math.ceil(21 / 8)));
  });

  it('keeps two reads of one collection with different options apart', () => {
    const exchanges = [
      get('/beta/deviceManagement/configurationPolicies?$expand=assignments'),
      get('/beta/deviceManagement/configurationPolicies?$expand=assignments&$skiptoken=2'),
      get('/beta/deviceManagement/configurationPolicies?$expand=settings,assignments'),
      get('/beta/deviceManagement/configurationPolicies?$expand=settings,assignments&$skiptoken=2'),
    ];
    expect(criticalPathRounds(exchanges, 8)).toBe(2);
  });

  it('leaves throttled and failed attempts out', () => {
    expect(
      criticalPathRounds([get('/v1.0/deviceManagement/managedDevices', 429), get('/v1.0/deviceManagement/managedDevices', 503), get('/v1.0/deviceManagement/managedDevices')], 8),
    ).toBe(1);
  });
});
