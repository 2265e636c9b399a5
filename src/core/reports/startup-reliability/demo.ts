import type { DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { StartupFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';
import type { StartupTimes } from './demo-records.js';

function appHealth(
  tenant: DemoTenantBuilder<StartupFindingKind>,
  appName: string,
  appDisplayName: string,
  appPublisher: string,
  crashes: number,
  hangs: number,
  mttf: number,
  score: number,
): string {
  const item = records.appHealthPerformance({
    id: tenant.guid(),
    appName,
    appDisplayName,
    appPublisher,
    appCrashCount: crashes,
    appHangCount: hangs,
    activeDeviceCount: 20 + Math.floor(tenant.random() * 180),
    meanTimeToFailureInMinutes: mttf,
    appHealthScore: score,
  });
  tenant.add('userExperienceAnalyticsAppHealthApplicationPerformance', item);
  return item.id;
}

/**
 * Report 6 in the demo tenant: endpoint analytics for the first 200 Windows devices the tenant
 * manages (report 4 plants them), some slow to start (half the OptiPlexes boot from a hard disk)
 * or with blue screens, and applications from unreliable to flawless, with one that has too little
 * data to score.
 */
export const startupReliabilityDemo: readonly DemoStep<StartupFindingKind>[] = [
  {
    step: 8,
    plant(tenant) {
      const random = () => tenant.random();
      const windowsDevices = tenant.records('managedDevices').filter((device) => String(device.operatingSystem).toLowerCase() === 'windows');
      for (const device of windowsDevices.slice(0, 200)) {
        const model = String(device.model);
        const hdd = model === 'OptiPlex 7010' && random() < 0.5;
        const slow = hdd || random() < 0.05;
        const times: StartupTimes = {
          coreBootTimeInMs: Math.round((hdd ? 45_000 : 12_000) + random() * 8_000),
          groupPolicyBootTimeInMs: Math.round(1_000 + random() * 3_000),
          coreLoginTimeInMs: Math.round((slow ? 40_000 : 8_000) + random() * 6_000),
          groupPolicyLoginTimeInMs: Math.round(1_000 + random() * 4_000),
          responsiveDesktopTimeInMs: Math.round((slow ? 45_000 : 6_000) + random() * 10_000),
        };
        const total = Object.values(times).reduce((sum, value) => sum + value, 0);
        const blueScreens = random() < 0.06 ? 1 + Math.floor(random() * 4) : 0;
        const performance = records.devicePerformance({
          id: tenant.guid(),
          deviceName: String(device.deviceName),
          model,
          manufacturer: String(device.manufacturer),
          diskType: hdd ? 'hdd' : 'ssd',
          times,
          blueScreenCount: blueScreens,
          restartCount: blueScreens + Math.floor(random() * 6),
          startupPerformanceScore: Math.max(5, Math.round(100 - total / 2000)),
        });
        tenant.add('userExperienceAnalyticsDevicePerformance', performance);
        if (total > 120_000) tenant.declare('slow-startup', performance.id);
        if (blueScreens > 0) tenant.declare('blue-screens', performance.id);
      }
      tenant.declare('unreliable-app', appHealth(tenant, 'legacyerp.exe', 'Legacy ERP Client', 'Contoso', 48, 12, 320, 22));
      tenant.declare('unreliable-app', appHealth(tenant, 'outlook.exe', 'Outlook', 'Microsoft Corporation', 9, 31, 1100, 61));
      tenant.declare('unreliable-app', appHealth(tenant, 'vpnclient.exe', 'VPN Client', 'Example Networks', 0, 7, 900, 70));
      // Crashes spread thinly over long use: failures exist, but not within a day of use on average.
      appHealth(tenant, 'teams.exe', 'Microsoft Teams', 'Microsoft Corporation', 5, 3, 5200, 88);
      appHealth(tenant, 'msedge.exe', 'Microsoft Edge', 'Microsoft Corporation', 0, 0, records.NO_FAILURES_MTTF, 100);
      appHealth(tenant, 'excel.exe', 'Excel', 'Microsoft Corporation', 0, 0, records.NO_FAILURES_MTTF, 100);
      // Scores of -1 mean "not enough data", not zero.
      appHealth(tenant, 'notepad++.exe', 'Notepad++', 'Notepad++ Team', 0, 0, records.NO_FAILURES_MTTF, -1);
    },
  },
];
