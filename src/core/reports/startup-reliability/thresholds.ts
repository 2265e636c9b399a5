/** Report 6's thresholds; its findings state the one they applied in their detail. */
export interface StartupThresholds {
  /** Power-on to usable desktop slower than this is `slow-startup`. */
  slowStartupSeconds: number;
  /** An app failing on average within this much use is `unreliable-app` (one day). */
  unreliableAppMttfMinutes: number;
}

export const STARTUP_THRESHOLDS: StartupThresholds = {
  slowStartupSeconds: 120,
  unreliableAppMttfMinutes: 1440,
};
