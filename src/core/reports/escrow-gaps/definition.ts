/** Report 4 as the registry holds it: what it says of itself, its charts, the source --fault breaks, its records in the demo tenant, and its load and derive. */

import { INITIALIZING_TEXT } from '../report-model.js';
import type { ReportDefinition } from '../report-model.js';
import { ESCROW_DEVICES_READ, ESCROW_READS } from './reads.js';
import { deriveEscrowGaps } from './derive.js';
import { ESCROW_FINDING_KINDS, HYBRID_KEY_KIND, MISSING_KEY_KIND, MISSING_LAPS_KIND } from './finding-kinds.js';
import type { EscrowFindingKind } from './finding-kinds.js';
import { loadEscrow } from './load.js';
import type { EscrowRecords } from './load.js';
import { escrowGapsDemo } from './demo.js';

export const escrowGapsReport: ReportDefinition<EscrowRecords, EscrowFindingKind> = {
  id: 'escrow-gaps',
  title: 'Windows LAPS & BitLocker Escrow Gaps',
  summary:
    'Windows devices without an escrowed BitLocker recovery key or local administrator password, devices missing either listed first. Reads metadata only: this report never reads a password or a recovery key.',
  // Only the ReadBasic permissions: the Read.All ones would expose the secrets themselves.
  permissions: ['DeviceLocalCredential.ReadBasic.All', 'BitlockerKey.ReadBasic.All', 'DeviceManagementManagedDevices.Read.All'],
  prerequisites: ['An Intune licence for the tenant.', 'Local administrator password management (Windows LAPS) enabled in Entra ID device settings.'],
  beta: false,
  // Each row carries its device's scope tags when the devices are read on beta (load.ts): with the
  // viewer scope on they are, whatever the coverage. Read on /v1.0 (the scope off) none does.
  navigationLabel: 'LAPS & BitLocker escrow',
  botNames: ['escrow gaps', 'escrow', 'laps', 'bitlocker', 'laps and bitlocker', 'laps and bitlocker escrow', 'laps and bitlocker escrow gaps'],
  botTopics: [
    'recovery key',
    'recovery keys',
    'escrowed',
    'local admin password',
    'admin password',
    'local administrator password',
    'encryption',
    'encrypted',
    'keys',
    'passwords',
    'bitlocker key',
    'bitlocker keys',
  ],
  botDescription: 'Windows devices without an escrowed BitLocker key or LAPS password',
  tables: { '': 'Windows devices' },
  rowSubjects: { '': 'device' },
  // A missing key or password is the gap the product was asked to post about first.
  postedByDefault: 1,
  // The specification names no placeholder of its own for report 4's fetch: its status line stays.
  pending: { starting: INITIALIZING_TEXT, fetching: INITIALIZING_TEXT },
  charts: [],
  findingKinds: ESCROW_FINDING_KINDS,
  // Each escrow source column checks its own kinds: an n/a column checks nothing.
  optionalSources: [
    { column: 'recoveryKey', findingKinds: [MISSING_KEY_KIND, HYBRID_KEY_KIND], source: 'BitLocker recovery keys', permission: 'BitlockerKey.ReadBasic.All' },
    {
      column: 'lapsPassword',
      findingKinds: [MISSING_LAPS_KIND],
      source: 'Windows LAPS passwords (their backup dates)',
      permission: 'DeviceLocalCredential.ReadBasic.All',
    },
  ],
  /**
   * Scope-tagged: managed devices, read with "Managed devices/Read".
   * The report shows only whether a key or password is escrowed, never one; Microsoft
   * documents reading a recovery key or a LAPS password through Microsoft Entra permissions
   * (bitlockerKeys/key/read, deviceLocalCredentials/password/read), and Intune's "Remote tasks/Rotate
   * BitLocker keys" is an action, not a read: no Intune permission is documented for the escrow's
   * metadata, so Managed devices/Read alone is asked.
   */
  seenBy: { kind: 'scopeTagged', reads: ['managedDevices'] },
  demo: escrowGapsDemo,
  reads: ESCROW_READS,
  faultSource: ESCROW_DEVICES_READ.path,
  load: loadEscrow,
  derive: deriveEscrowGaps,
};
