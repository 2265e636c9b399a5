import { describe, expect, it } from 'vitest';
import { MAX_CANDIDATES, resolveSubject } from '../../../src/core/applies/resolve.js';
import type { DeviceRecord } from '../../../src/core/applies/resolve.js';

const device = (id: string, deviceName: string, upn: string | null, userId: string | null): DeviceRecord => ({
  id,
  deviceName,
  userId,
  userPrincipalName: upn,
  azureADDeviceId: null,
  operatingSystem: 'Windows',
  properties: { deviceName, osVersion: '10.0.22631.1' },
});

const devices = [
  device('d1', 'DESKTOP-0042', 'alice@contoso.example', 'u-alice'),
  device('d2', 'LAPTOP-7', 'alice@contoso.example', 'u-alice'),
  device('d3', 'KIOSK', null, null),
  device('d4', 'KIOSK', null, null),
];
const groups = [{ id: 'g1', displayName: 'Sales' }];

describe('which device, user or group a question names', () => {
  it('finds a device by name or id, case aside, with its primary user', () => {
    const found = resolveSubject('desktop-0042', devices, groups);
    expect(found).toMatchObject({ kind: 'found', subject: { kind: 'device', id: 'd1', primaryUserId: 'u-alice', entraObjectId: null } });
    expect(resolveSubject('d2', devices, groups)).toMatchObject({ kind: 'found', subject: { name: 'LAPTOP-7' } });
  });

  it('finds a user once however many devices name them', () => {
    expect(resolveSubject('Alice@contoso.example', devices, groups)).toMatchObject({ kind: 'found', subject: { kind: 'user', id: 'u-alice' } });
  });

  it('finds a user a group lists by id, and a group by name', () => {
    expect(resolveSubject('u-bob', devices, groups, new Set(['u-bob']))).toMatchObject({ kind: 'found', subject: { kind: 'user', id: 'u-bob' } });
    expect(resolveSubject('sales', devices, groups)).toMatchObject({ kind: 'found', subject: { kind: 'group', id: 'g1' } });
  });

  it('says nothing is found, in words', () => {
    const result = resolveSubject('NOPE', devices, groups);
    expect(result.kind).toBe('notFound');
    expect(result.kind === 'notFound' && result.words).toContain('Nothing is called "NOPE"');
  });

  it('lists the candidates of an ambiguous question, bounded', () => {
    const result = resolveSubject('KIOSK', devices, groups);
    expect(result).toMatchObject({ kind: 'ambiguous', more: 0, candidates: [{ id: 'd3', detail: 'no primary user' }, { id: 'd4' }] });
    const many = Array.from({ length: 14 }, (_, index) => device(`k${index}`, 'KIOSK', null, null));
    const bounded = resolveSubject('KIOSK', many, groups);
    expect(bounded).toMatchObject({ kind: 'ambiguous', more: 14 - MAX_CANDIDATES });
    expect(bounded.kind === 'ambiguous' && bounded.candidates).toHaveLength(MAX_CANDIDATES);
  });
});
