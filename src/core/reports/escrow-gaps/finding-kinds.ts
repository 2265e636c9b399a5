import type { FindingKindTable } from '../../findings/finding-kinds.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
export const ESCROW_FINDING_KINDS = {
  'missing-recovery-key': {
    label: 'Devices without an escrowed BitLocker key',
    one: 'Device without an escrowed BitLocker key',
    severity: 'high',
    remediation: {
      why: 'If the device goes into BitLocker recovery (a firmware or TPM change, too many PIN attempts) and Microsoft Entra ID holds no key for its system drive, IT has nothing to unlock it with: unless the user saved the key elsewhere, the data on it is lost. A device not registered in Entra ID cannot escrow there at all.',
      steps: [
        "Open the device from the finding's link and check its join type: a device that is not Microsoft Entra joined or hybrid joined cannot escrow a key to Entra ID, so fix its registration first.",
        'Make sure a BitLocker policy that requires escrow reaches the device: in Endpoint security > Disk encryption, a BitLocker profile with Save BitLocker recovery information to Microsoft Entra ID and Store recovery information in Microsoft Entra ID before enabling BitLocker turned on, assigned to a group that includes the device.',
        "Those settings act when encryption starts, so a drive already encrypted keeps its unescrowed key. For such a device, use the BitLocker key rotation action on the device's page (recovery password rotation must be on in the policy), or run BackupToAAD-BitLockerKeyProtector on it through a platform script or a Remediation.",
        "Confirm that the device's Recovery keys page in Intune, or Devices > Monitor > Encryption report, now lists a key for the operating system drive. The key ID and date are enough; don't open the key.",
      ],
      sources: [
        { title: 'BitLocker CSP (recovery options, settings apply when encryption starts)', url: 'https://learn.microsoft.com/en-us/windows/client-management/mdm/bitlocker-csp' },
        {
          title: 'Configure BitLocker policies using Microsoft Intune',
          url: 'https://learn.microsoft.com/en-us/training/modules/implement-device-encryption/03-configure-bitlocker',
        },
        {
          title: 'Manage BitLocker recovery keys and user self-service options',
          url: 'https://learn.microsoft.com/en-us/training/modules/implement-device-encryption/04-manage-bitlocker-recovery',
        },
        { title: 'BackupToAAD-BitLockerKeyProtector', url: 'https://learn.microsoft.com/en-us/powershell/module/bitlocker/backuptoaad-bitlockerkeyprotector' },
      ],
    },
  },
  /** A hybrid-joined device with no key in Entra ID: its key may be in Active Directory, which Graph cannot show. */
  'recovery-key-not-in-entra': {
    label: 'Hybrid-joined devices without a BitLocker key in Entra ID',
    one: 'Hybrid-joined device without a BitLocker key in Entra ID',
    severity: 'medium',
    remediation: {
      why: "The device is hybrid joined and Microsoft Entra ID holds no recovery key for it. Its key may be in on-premises Active Directory, which this report can't see; if it is in neither, a BitLocker recovery leaves the device locked, and a key held only in AD is out of reach of cloud helpdesk tools and user self-service.",
      steps: [
        "Check AD DS for a key without displaying it: from a host with the Active Directory PowerShell module, Get-ADObject -SearchBase '<the computer object's distinguished name>' -Filter \"objectClass -eq 'msFVE-RecoveryInformation'\" -Properties whenCreated lists the device's recovery entries and their dates only.",
        'To escrow to Entra ID as well, turn on Save BitLocker recovery information to Microsoft Entra ID in the BitLocker profile that reaches the device (Endpoint security > Disk encryption); hybrid-joined devices can back up to both AD DS and Entra ID.',
        "The policy acts when encryption starts. For a drive already encrypted, run BackupToAAD-BitLockerKeyProtector on the device through a platform script or a Remediation, or use the BitLocker key rotation action on the device's page.",
        'If the key is in neither directory, treat the device as one without an escrowed key and fix escrow before it next enters recovery.',
      ],
      sources: [
        {
          title: 'BitLocker CSP (recovery options for Entra joined and hybrid joined devices)',
          url: 'https://learn.microsoft.com/en-us/windows/client-management/mdm/bitlocker-csp',
        },
        { title: 'BackupToAAD-BitLockerKeyProtector', url: 'https://learn.microsoft.com/en-us/powershell/module/bitlocker/backuptoaad-bitlockerkeyprotector' },
        {
          title: 'Manage BitLocker recovery keys and user self-service options',
          url: 'https://learn.microsoft.com/en-us/training/modules/implement-device-encryption/04-manage-bitlocker-recovery',
        },
      ],
    },
  },
  'missing-laps-password': {
    label: 'Devices without an escrowed LAPS password',
    one: 'Device without an escrowed LAPS password',
    severity: 'medium',
    remediation: {
      why: "Without a LAPS record in Microsoft Entra ID, the device's local administrator password is unmanaged: often the same on many devices, never rotated, and a ready path for lateral movement. IT also has no way into the device when no one can sign in to it.",
      steps: [
        'In the Microsoft Entra admin center, Devices > Device settings, check that Enable Microsoft Entra Local Administrator Password Solution (LAPS) is set to Yes; until it is, Entra ID does not accept the passwords devices back up.',
        'In Intune, Endpoint security > Account protection, make sure a Local admin password solution (Windows LAPS) profile with Backup Directory set to Microsoft Entra ID is assigned to a group that includes the device.',
        'Check the device: it needs a Windows build that includes Windows LAPS (the April 2023 update or later) and must be Microsoft Entra joined or hybrid joined; Microsoft Entra registered devices are not supported.',
        "For a hybrid-joined device, check the profile's Backup Directory first: a device that backs up to Active Directory keeps its password there, and Entra ID has no record by design.",
        "To force a backup once the policy applies, use Rotate local admin password on the device's page in Intune, then confirm the last backup time there; there is no need to view the password.",
      ],
      sources: [
        { title: 'Manage Windows LAPS policy with Microsoft Intune', url: 'https://learn.microsoft.com/mem/intune/protect/windows-laps-policy' },
        {
          title: 'Windows Local Administrator Password Solution in Microsoft Entra ID',
          url: 'https://learn.microsoft.com/en-us/azure/active-directory/devices/howto-manage-local-admin-passwords',
        },
        {
          title: 'localAdminPasswordSettings resource type (LAPS is off by default)',
          url: 'https://learn.microsoft.com/en-us/graph/api/resources/localadminpasswordsettings?view=graph-rest-1.0',
        },
        {
          title: 'Configure policy settings for Windows LAPS (BackupDirectory)',
          url: 'https://learn.microsoft.com/en-us/windows-server/identity/laps/laps-management-policy-settings',
        },
      ],
    },
  },
} as const satisfies FindingKindTable;
export type EscrowFindingKind = keyof typeof ESCROW_FINDING_KINDS;

export const MISSING_KEY_KIND = 'missing-recovery-key' satisfies EscrowFindingKind;
export const HYBRID_KEY_KIND = 'recovery-key-not-in-entra' satisfies EscrowFindingKind;
export const MISSING_LAPS_KIND = 'missing-laps-password' satisfies EscrowFindingKind;
