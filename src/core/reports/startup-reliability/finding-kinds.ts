import type { FindingKindTable } from '../../findings/finding-kinds.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
export const STARTUP_FINDING_KINDS = {
  'blue-screens': {
    label: 'Devices with blue screens',
    one: 'Device with blue screens',
    severity: 'high',
    remediation: {
      why: 'A blue screen is a stop error: Windows halts and restarts, and the user loses unsaved work in every open app. Repeated stop errors usually come from a driver, firmware or failing hardware, and a driver or firmware fault tends to hit every device of the same model.',
      steps: [
        "Compare the device with others of its model: this report's model table shows blue screens per device, and Reports > Endpoint analytics > Startup performance in Intune shows the device's restarts by category, stop errors included.",
        'On the device, get the stop code from Event Viewer > Windows Logs > System (event 1001, source BugCheck) or the dump in C:\\Windows\\Minidump, and look it up in the bug check code reference, which names the usual causes.',
        "If the code points at a driver, or the errors follow a model, install the manufacturer's current drivers and firmware for that model, through a Windows driver update policy in Intune or the vendor's own tools.",
        "If the errors stay on one device, run the manufacturer's hardware diagnostics (memory and disk first) and repair or replace the device.",
      ],
      sources: [
        { title: 'Bug check code reference', url: 'https://learn.microsoft.com/en-us/windows-hardware/drivers/debugger/bug-check-code-reference2' },
        { title: 'Startup performance in endpoint analytics', url: 'https://learn.microsoft.com/en-us/mem/analytics/startup-performance' },
        {
          title: 'userExperienceAnalyticsOperatingSystemRestartCategory (blueScreen: a restart caused by a stop error)',
          url: 'https://learn.microsoft.com/en-us/graph/api/resources/intune-devices-userexperienceanalyticsoperatingsystemrestartcategory?view=graph-rest-beta',
        },
      ],
    },
  },
  'unreliable-app': {
    label: 'Unreliable applications',
    one: 'Unreliable application',
    severity: 'medium',
    remediation: {
      why: 'The app crashes or hangs so often that its mean time to failure is under a day of use: users lose work and open tickets, and because a faulty build fails the same way everywhere, the cost multiplies across devices.',
      steps: [
        'In Reports > Endpoint analytics > Application reliability, open the app on the App performance tab to see which versions, device models and OS versions its failures come from.',
        "If one version is to blame, update the app: deploy the vendor's fixed build through Apps > Windows and retire the failing one.",
        'If the failures follow a setting, add-in or corrupted cache, correct that state on every device with a Remediation (Devices > Manage devices > Scripts and remediations): a detection script finds the state, a remediation script fixes it.',
        'Recheck once the fix has had time to show: the report works on a 14-day rolling window, so the mean time to failure improves gradually.',
      ],
      sources: [{ title: 'Application reliability in endpoint analytics', url: 'https://learn.microsoft.com/en-us/mem/analytics/app-reliability' }],
    },
  },
  'slow-startup': {
    label: 'Devices slow to start',
    one: 'Device slow to start',
    severity: 'low',
    remediation: {
      why: 'Power-on to a responsive desktop takes longer than the threshold (2 minutes by default), and the user waits that long at every start. The common causes are a hard disk as boot drive, slow group policy at boot or sign-in, and startup processes that keep the desktop busy.',
      steps: [
        'In Reports > Endpoint analytics > Startup performance, open the device: the breakdown shows which phase takes the time (core boot, group policy at boot, core sign-in, group policy at sign-in, responsive desktop).',
        'If the boot drive is a hard disk, replace it or the device: hard disks boot three to four times slower than solid-state drives.',
        'If the group policy phases are long (usually on hybrid-joined devices), review the GPOs and logon scripts that apply at boot and sign-in, and move what you can to Intune.',
        "If the responsive desktop is slow, the Startup processes tab lists what runs at sign-in and how long it delays the desktop; remove or delay what users don't need straight away.",
      ],
      sources: [{ title: 'Startup performance in endpoint analytics', url: 'https://learn.microsoft.com/en-us/mem/analytics/startup-performance' }],
    },
  },
} as const satisfies FindingKindTable;
export type StartupFindingKind = keyof typeof STARTUP_FINDING_KINDS;
