import { app, authentication } from '@microsoft/teams-js';
import { usableLocale } from './locale.js';
import { chosenPersona, demoTokenPath, keepPersona } from './demo-personas.js';
import type { DemoPersona } from './demo-personas.js';

export type HostTheme = 'light' | 'dark' | 'contrast';

/** What the tab needs from wherever it runs: Teams, or a plain browser on the demo server. */
export interface TabHost {
  inTeams: boolean;
  theme: HostTheme;
  locale: string;
  /** The report a deep link asked for (Teams' subEntityId), if any. */
  deepLinkedReport: string | null;
  onThemeChange(listener: (theme: HostTheme) => void): () => void;
  /** A token for our own API: Teams SSO inside Teams, the demo sign-in outside it. */
  getToken(): Promise<string>;
  /** Outside Teams, whom the demo sign-in signs in as; null in Teams, where Teams says who. */
  demoSignIn: DemoSignIn | null;
}

/** The demo's choice of whom to sign in as (demo-personas.ts). */
export interface DemoSignIn {
  /** The persona chosen in this session, or null for the demo's own user. */
  readonly persona: DemoPersona | null;
  /** Signs in as `persona` from the next token on, and keeps the choice for the session. */
  signInAs(persona: DemoPersona | null): void;
}

/**
 * Outside Teams, `app.initialize()` rejects within milliseconds on a top-level page but waits a
 * whole minute inside a frame whose parent is not Teams; waiting longer than this for a host that
 * answers within a second in practice only delays the demo.
 */
const TEAMS_HANDSHAKE_TIMEOUT_MS = 2_000;

export async function connectToHost(): Promise<TabHost> {
  const inTeams = await initializeTeams();
  if (!inTeams) return browserHost();
  const context = await app.getContext();
  const listeners = new Set<(theme: HostTheme) => void>();
  app.registerOnThemeChangeHandler((theme) => {
    for (const listener of listeners) listener(hostTheme(theme));
  });
  return {
    inTeams: true,
    theme: hostTheme(context.app.theme),
    locale: usableLocale(context.app.locale, navigator.language),
    deepLinkedReport: context.page.subPageId || null,
    onThemeChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getToken: () => authentication.getAuthToken(),
    demoSignIn: null,
  };
}

async function initializeTeams(): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), TEAMS_HANDSHAKE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([app.initialize().then(() => true), timedOut]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function hostTheme(teamsTheme: string): HostTheme {
  if (teamsTheme === 'dark') return 'dark';
  if (teamsTheme === 'contrast') return 'contrast';
  return 'light';
}

/**
 * A plain browser: the theme follows the system's colour scheme and forced-colours mode, live;
 * the token comes from the demo server's loopback-only sign-in, renewed a minute before expiry.
 */
function browserHost(): TabHost {
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const forced = window.matchMedia('(forced-colors: active)');
  const currentTheme = (): HostTheme => (forced.matches ? 'contrast' : dark.matches ? 'dark' : 'light');
  let token: { value: string; renewAt: number } | null = null;
  const storage = sessionStorageOrNull();
  let persona = chosenPersona(storage);
  return {
    inTeams: false,
    theme: currentTheme(),
    locale: usableLocale(navigator.language),
    deepLinkedReport: null,
    onThemeChange(listener) {
      const changed = () => listener(currentTheme());
      dark.addEventListener('change', changed);
      forced.addEventListener('change', changed);
      return () => {
        dark.removeEventListener('change', changed);
        forced.removeEventListener('change', changed);
      };
    },
    async getToken() {
      if (token && Date.now() < token.renewAt) return token.value;
      const asked = persona;
      const response = await fetch(demoTokenPath(asked), { cache: 'no-store' });
      if (!response.ok) throw new SignInUnavailable(response.status);
      const body = (await response.json()) as { token: string; expiresIn: number };
      // A token asked for before a switch is not the new persona's: it is used once, not kept.
      if (asked !== persona) return body.token;
      token = { value: body.token, renewAt: Date.now() + Math.max(0, body.expiresIn - 60) * 1000 };
      return token.value;
    },
    demoSignIn: {
      get persona() {
        return persona;
      },
      signInAs(next) {
        persona = next;
        token = null;
        keepPersona(storage, next);
      },
    },
  };
}

/** The session's storage, or null where the browser refuses it (a sandboxed frame throws on the property's read). */
function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Outside Teams, only the demo server signs a browser in. */
export class SignInUnavailable extends Error {
  constructor(readonly status: number) {
    super(
      status === 404
        ? 'Open Device Management Health in Microsoft Teams to sign in. Outside Teams, only the demo tenant can be viewed.'
        : `The demo sign-in failed (HTTP ${status}).`,
    );
    this.name = 'SignInUnavailable';
  }
}
