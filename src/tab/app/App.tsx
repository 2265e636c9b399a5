import {
  Badge,
  Caption1,
  FluentProvider,
  Label,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
  Tab,
  TabList,
  Text,
  makeStyles,
  teamsDarkTheme,
  teamsHighContrastTheme,
  teamsLightTheme,
  tokens,
} from '@fluentui/react-components';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReportId, ReportPresentation } from '../../core/reports/report-model.js';
import { ReportApi } from '../api/report-api.js';
import { useMediaQuery } from './use-media-query.js';
import type { TenantInfo, ViewerInfo } from '../api/report-api.js';
import { connectToHost } from '../host/teams-host.js';
import { usableLocale } from '../host/locale.js';
import type { HostTheme, TabHost } from '../host/teams-host.js';
import { DEMO_PERSONAS, isDemoPersona } from '../host/demo-personas.js';
import { NoAccessBanner } from '../reports/ScopeNotes.js';
import { ReportView } from '../reports/ReportView.js';
import { FaultBoundary } from './FaultBoundary.js';
import { CHANGES, OVERVIEW, hashFor, readCatalogue, viewFromHash } from './report-navigation.js';
import type { TabView } from './report-navigation.js';
import { Overview } from '../overview/Overview.js';
import { ChangesView } from '../changes/ChangesView.js';
import { NARROW, PHONE, WIDE_LAYOUT } from './breakpoints.js';

const THEMES = { light: teamsLightTheme, dark: teamsDarkTheme, contrast: teamsHighContrastTheme } as const;

const useStyles = makeStyles({
  // Layout lives on a div inside the provider: Fluent copies the provider's classes onto the
  // nodes that hold its portals (tooltips, menus), and a full-height box there would cover the page.
  shell: { display: 'flex', flexDirection: 'column', minHeight: '100vh', backgroundColor: tokens.colorNeutralBackground1, color: tokens.colorNeutralForeground1 },
  banner: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  body: { display: 'flex', flexGrow: 1, minWidth: 0, [NARROW]: { flexDirection: 'column' } },
  nav: {
    flexShrink: 0,
    width: '240px',
    padding: tokens.spacingVerticalM,
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    [NARROW]: {
      width: 'auto',
      borderRight: 'none',
      borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
      overflowX: 'auto',
      padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    },
  },
  // The demo's sign-in at the banner's end, wrapping below the rest on a narrow screen.
  // Not on a phone: a row of its own there would push a report's first rows off the first screen,
  // and the demo's people are for trying the viewer scope at a desk.
  demoSignIn: {
    marginLeft: 'auto',
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
    maxWidth: '100%',
    '@media (max-width: 599px)': { display: 'none' },
  },
  // A persona's name is long: on a phone the list narrows with the screen rather than widen the page.
  demoSelect: { minWidth: 0, maxWidth: '100%' },
  // A pill's text may wrap on a narrow screen rather than spill out of it.
  demoBadge: { height: 'auto', minHeight: '20px', whiteSpace: 'normal', textAlign: 'center' },
  tabs: { alignItems: 'stretch' },
  // Fluent centres a tab's label in the width its bold (selected) form needs, so labels of unequal
  // length sit at unequal indents in a vertical list; at the start, they line up.
  tab: { justifyContent: 'flex-start', '& > *': { justifySelf: 'start' } },
  main: {
    flexGrow: 1,
    minWidth: 0,
    padding: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    [PHONE]: { padding: tokens.spacingHorizontalM },
  },
});

interface Session {
  api: ReportApi;
  tenant: TenantInfo | null;
  /** Who is signed in and their scope; null when the server could not say (the reports still show what it lets them see). */
  viewer: ViewerInfo | null;
  /** Counts sign-ins: the views start afresh under a new one (the demo's "sign in as"). */
  signIn: number;
}

/** The viewer's scope in the header's words; null with the viewer scope off, when every viewer sees the whole tenant. */
function scopeWords(viewer: ViewerInfo): string | null {
  const { scope } = viewer;
  if (!scope) return null;
  if (scope.kind === 'tenant') return 'whole tenant';
  if (scope.kind === 'none') return 'no Intune access';
  return scope.description;
}

/** Read once: the server writes the catalogue into the page, and it does not change while the page lives. */
const CATALOGUE = readCatalogue(document);

export function App() {
  return CATALOGUE ? (
    <ReportsApp catalogue={CATALOGUE} />
  ) : (
    <FluentProvider theme={teamsLightTheme}>
      <MessageBar intent="error" layout="multiline" data-state="startup-error">
        <MessageBarBody>
          <MessageBarTitle>Device Management Health could not start</MessageBarTitle>
          The page came without its list of reports. Reload the tab; if this persists, the server is not serving the tab as built.
        </MessageBarBody>
      </MessageBar>
    </FluentProvider>
  );
}

const FRESHNESS_TICK_MS = 30_000;

/** The time, moving on every `tickMs`. */
function useNow(tickMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}

/** The name a hash gives when it names no view (a stale or mistyped link); null when it names one, or nothing. */
function unknownView(hash: string, catalogue: readonly ReportPresentation[]): string | null {
  if (viewFromHash(hash, catalogue) !== null) return null;
  return hash.replace(/^#\/?/, '').slice(0, 80);
}

function ReportsApp({ catalogue }: { catalogue: readonly ReportPresentation[] }) {
  const styles = useStyles();
  const [host, setHost] = useState<TabHost | null>(null);
  const [theme, setTheme] = useState<HostTheme>(() => (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  const [session, setSession] = useState<Session | null>(null);
  const [startupError, setStartupError] = useState<string | null>(null);
  const [selected, setSelected] = useState<TabView>(() => viewFromHash(window.location.hash, catalogue) ?? OVERVIEW);
  // A link to a report this server does not have says so, over the overview, rather than showing another report.
  const [unknownLink, setUnknownLink] = useState<string | null>(() => unknownView(window.location.hash, catalogue));
  const wide = useMediaQuery(WIDE_LAYOUT);
  const now = useNow(FRESHNESS_TICK_MS);

  useEffect(() => {
    let stopThemeUpdates: (() => void) | undefined;
    let cancelled = false;
    void (async () => {
      const connected = await connectToHost();
      if (cancelled) return;
      setHost(connected);
      setTheme(connected.theme);
      stopThemeUpdates = connected.onThemeChange(setTheme);
      const deepLinked = connected.deepLinkedReport ? viewFromHash(connected.deepLinkedReport, catalogue) : null;
      if (deepLinked) setSelected(deepLinked);
    })();
    return () => {
      cancelled = true;
      stopThemeUpdates?.();
    };
  }, [catalogue]);

  // Signs in once the host is known, and again (with a new API client, so no answer of the last sign-in is taken for this one) on each demo switch.
  const [signIn, setSignIn] = useState(0);
  useEffect(() => {
    if (!host) return undefined;
    let cancelled = false;
    setSession(null);
    setStartupError(null);
    void (async () => {
      const api = new ReportApi(() => host.getToken());
      try {
        const [tenant, viewer] = await Promise.all([api.tenant(), api.viewer().catch(() => null)]);
        if (!cancelled) setSession({ api, tenant, viewer, signIn });
      } catch (error) {
        if (!cancelled) setStartupError(error instanceof Error ? error.message : String(error));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [host, signIn]);

  const signInAs = useCallback(
    (persona: string) => {
      host?.demoSignIn?.signInAs(isDemoPersona(persona) ? persona : null);
      setSignIn((count) => count + 1);
    },
    [host],
  );

  useEffect(() => {
    const followHash = () => {
      const report = viewFromHash(window.location.hash, catalogue);
      setUnknownLink(unknownView(window.location.hash, catalogue));
      setSelected(report ?? OVERVIEW);
    };
    window.addEventListener('hashchange', followHash);
    return () => window.removeEventListener('hashchange', followHash);
  }, [catalogue]);

  // In the narrow row of reports, the one shown is scrolled into sight.
  useEffect(() => {
    if (!wide) document.getElementById(`tab-${selected}`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [selected, wide]);

  const select = (view: TabView) => {
    setSelected(view);
    setUnknownLink(null);
    if (window.location.hash !== hashFor(view)) history.replaceState(null, '', hashFor(view));
  };

  // `now` moves on every tick, so "Read 2 minutes ago" stays true while the tab is open.
  const format = useMemo(() => ({ now, locale: host?.locale ?? usableLocale(navigator.language) }), [host, now]);
  const presentation = catalogue.find((report) => report.id === selected);
  // A viewer whose Intune role assignments let them see nothing (no scope, or roles that read no report)
  // is told so once, and no report is asked for: each would be refused the same way.
  const scope = session?.viewer?.scope ?? null;
  // The server explains every viewer who sees nothing (report-routes.ts, `viewerInfo`): no scope, or roles that open no report.
  const noAccess = scope?.explanation ?? null;
  const scopeTags = scope?.kind === 'tags' ? scope.description : null;

  return (
    <FluentProvider theme={THEMES[theme]} data-theme={theme}>
      <div className={styles.shell}>
        <header className={styles.banner}>
          <Text as="h1" weight="semibold" size={400}>
            Device Management Health
          </Text>
          {session?.tenant ? <Caption1>{session.tenant.label}</Caption1> : null}
          {session?.tenant?.demo ? (
            <Badge appearance="filled" color="important" className={styles.demoBadge} data-demo-tenant>
              Demo tenant: simulated data
            </Badge>
          ) : null}
          {session?.viewer ? (
            <Caption1 data-viewer>
              Signed in as {session.viewer.name}
              {scopeWords(session.viewer) ? ` · ${scopeWords(session.viewer)}` : ''}
            </Caption1>
          ) : null}
          {host?.demoSignIn && session?.tenant?.demo ? (
            <div className={styles.demoSignIn}>
              <Label htmlFor="demo-sign-in" size="small">
                Demo: sign in as
              </Label>
              <Select
                id="demo-sign-in"
                size="small"
                className={styles.demoSelect}
                value={host.demoSignIn.persona ?? ''}
                onChange={(_, data) => signInAs(data.value)}
                data-demo-sign-in
              >
                <option value="">Demo visitor (this browser&apos;s own user)</option>
                {DEMO_PERSONAS.map((persona) => (
                  <option key={persona.id} value={persona.id}>
                    {persona.label}
                  </option>
                ))}
              </Select>
            </div>
          ) : null}
        </header>
        <div className={styles.body}>
          <nav className={styles.nav} aria-label="Reports">
            <TabList className={styles.tabs} vertical={wide} selectedValue={selected} onTabSelect={(_, data) => select(data.value as TabView)}>
              <Tab value={OVERVIEW} id={`tab-${OVERVIEW}`} className={styles.tab}>
                Overview
              </Tab>
              <Tab value={CHANGES} id={`tab-${CHANGES}`} className={styles.tab}>
                What changed
              </Tab>
              {catalogue.map(({ id, navigationLabel }) => (
                <Tab key={id} value={id} id={`tab-${id}`} className={styles.tab}>
                  {navigationLabel}
                </Tab>
              ))}
            </TabList>
          </nav>
          <main className={styles.main} aria-labelledby={`tab-${selected}`}>
            {startupError ? (
              <MessageBar intent="error" layout="multiline" data-state="startup-error">
                <MessageBarBody>
                  <MessageBarTitle>Device Management Health could not start</MessageBarTitle>
                  {startupError}
                </MessageBarBody>
              </MessageBar>
            ) : (
              <FaultBoundary key={`${selected} ${session?.signIn ?? 0}`}>
                {unknownLink !== null ? (
                  <MessageBar intent="warning" layout="multiline" data-state="unknown-link">
                    <MessageBarBody>
                      <MessageBarTitle>There is no report “{unknownLink}”</MessageBarTitle>
                      The link may be old or mistyped. Here is the overview of every report.
                    </MessageBarBody>
                  </MessageBar>
                ) : null}
                {noAccess !== null ? (
                  <NoAccessBanner explanation={noAccess} />
                ) : selected === CHANGES ? (
                  <ChangesView api={session?.api ?? null} format={format} />
                ) : presentation ? (
                  <ReportView presentation={presentation} api={session?.api ?? null} format={format} scope={scopeTags} />
                ) : (
                  <Overview catalogue={catalogue} api={session?.api ?? null} format={format} onOpen={(report: ReportId) => select(report)} scope={scopeTags} />
                )}
              </FaultBoundary>
            )}
          </main>
        </div>
      </div>
    </FluentProvider>
  );
}
