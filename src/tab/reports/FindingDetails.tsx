import { Badge, Body1, Button, Caption1, DrawerBody, DrawerHeader, DrawerHeaderTitle, Link, OverlayDrawer, Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import { findingKind } from '../../core/findings/finding-kinds.js';
import type { FindingKindTable } from '../../core/findings/finding-kinds.js';
import type { AuditChange, Finding } from '../../core/reports/report-model.js';
import type { TriageDecision, TriageRequest } from '../../core/triage/triage-book.js';
import type { ApiError } from '../api/report-api.js';
import { formatCell } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';
import { ConflictSidesSection } from './ConflictSides.js';
import type { ConflictComparison } from './ConflictSides.js';
import { SEVERITY_BADGE } from './severity.js';
import { TriageControls } from './TriageControls.js';
import { BaselineControls } from './BaselineControls.js';
import type { RowLink } from '../table/row-link.js';

const useStyles = makeStyles({
  finding: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, paddingBottom: tokens.spacingVerticalL },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  fields: { margin: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  field: { display: 'grid', gridTemplateColumns: 'minmax(8em, 1fr) 2fr', gap: tokens.spacingHorizontalS },
  // Long names and Graph paths are unbroken words: they wrap anywhere rather than leave the pane.
  value: { margin: 0, overflowWrap: 'anywhere' },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

/** The object's recent changes from Intune's audit log (newest first), or why the log could not be read. */
export type FindingStory = { changes: readonly AuditChange[] } | { unavailable: string };

export interface FindingDetailsProps {
  /** What the findings are about, as the row names it; null while the pane is closed. */
  subject: {
    name: string;
    link: RowLink | null;
    findings: readonly Finding[];
    fields?: ReadonlyArray<{ label: string; text: string }>;
    /** Absent where the report reads no audit log (findings about devices or connectors). */
    story?: FindingStory;
    /** A managed device's name, where the row is one: the pane offers "What applies" to it. */
    appliesQuery?: string;
    /** A setting-conflict row's policies and their values, shown side by side first. */
    comparison?: ConflictComparison;
    /** A policy a Triager may approve as it is for report 8's baseline (and, in report 8, withdraw). */
    approvable?: { policyId: string; withdrawable: boolean };
  } | null;
  kinds: FindingKindTable;
  /** The report's triage: decisions and what this user may do, or why it cannot be shown. */
  triage: { decisions: ReadonlyMap<string, TriageDecision>; canTriage: boolean; onChange: (request: TriageRequest) => Promise<ApiError | null> } | { unavailable: string };
  format: FormatContext;
  onClose: () => void;
  /** Asks what applies to the row's device (its `appliesQuery`). */
  onWhatApplies?: (query: string) => void;
  /** Approves the row's policy as it is, or withdraws it (its `approvable`); whether this user may. */
  baseline?: { canApprove: boolean; onChange: (action: 'approve' | 'withdraw', policyId: string) => Promise<ApiError | null> };
}

/**
 * A row's findings in a side pane, opened from the row's Findings button (keyboard and touch alike,
 * never on hover): what was found, whether it is accepted or snoozed (and, for a triager, the buttons
 * to change that), why it matters, how to fix it step by step with the Microsoft Learn pages behind
 * the steps, and the object's page in the Intune admin center.
 */
export function FindingDetails({ subject, kinds, triage, format, onClose, onWhatApplies, baseline }: FindingDetailsProps) {
  const styles = useStyles();
  return (
    <OverlayDrawer position="end" size="medium" open={subject !== null} onOpenChange={(_, data) => !data.open && onClose()} aria-label="Finding details">
      <DrawerHeader>
        <DrawerHeaderTitle
          action={
            <Button appearance="subtle" aria-label="Close" onClick={onClose}>
              Close
            </Button>
          }
        >
          {subject?.name}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>
        {subject?.appliesQuery && onWhatApplies ? (
          <div className={styles.finding}>
            <Button appearance="secondary" onClick={() => onWhatApplies(subject.appliesQuery!)} data-what-applies>
              What applies to {subject.name}
            </Button>
          </div>
        ) : null}
        {subject?.comparison ? <ConflictSidesSection comparison={subject.comparison} locale={format.locale} /> : null}
        {subject?.approvable && baseline ? (
          <BaselineControls
            key={subject.approvable.policyId}
            policyId={subject.approvable.policyId}
            withdrawable={subject.approvable.withdrawable}
            {...baseline}
            className={styles.finding}
          />
        ) : null}
        {subject?.findings.map((finding) => {
          const kind = findingKind(kinds, finding.kind);
          const { remediation } = kind;
          return (
            <section key={finding.fingerprint} className={styles.finding} aria-label={kind.label} data-finding-details={finding.kind}>
              <div className={styles.heading}>
                <Subtitle2 as="h3">{kind.label}</Subtitle2>
                <Badge appearance="tint" color={SEVERITY_BADGE[kind.severity].color}>
                  {SEVERITY_BADGE[kind.severity].label}
                </Badge>
              </div>
              <Body1>{finding.detail}</Body1>
              {'unavailable' in triage ? (
                <Caption1>{triage.unavailable}</Caption1>
              ) : (
                <TriageControls finding={finding} decision={triage.decisions.get(finding.fingerprint)} canTriage={triage.canTriage} onChange={triage.onChange} format={format} />
              )}
              {remediation ? (
                <>
                  <Text weight="semibold">Why it matters</Text>
                  <Body1>{remediation.why}</Body1>
                  <Text weight="semibold">How to fix it</Text>
                  <ol className={styles.list}>
                    {remediation.steps.map((step) => (
                      <li key={step}>
                        <Body1>{step}</Body1>
                      </li>
                    ))}
                  </ol>
                  <Text weight="semibold">Learn more</Text>
                  <ul className={styles.list}>
                    {remediation.sources.map((source) => (
                      <li key={source.url}>
                        <Link href={source.url} target="_blank" rel="noopener noreferrer">
                          {source.title}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </section>
          );
        })}
        {subject?.story ? <RecentChanges story={subject.story} format={format} className={styles.finding} listClassName={styles.list} valueClassName={styles.value} /> : null}
        {subject?.fields && subject.fields.length > 0 ? (
          <section className={styles.finding} aria-label="Every field" data-row-fields>
            <Subtitle2 as="h3">Every field</Subtitle2>
            <dl className={styles.fields}>
              {subject.fields.map((field) => (
                <div key={field.label} className={styles.field}>
                  <dt>
                    <Text weight="semibold">{field.label}</Text>
                  </dt>
                  <dd className={styles.value}>
                    <Body1>{field.text}</Body1>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        {subject?.link ? (
          <Link href={subject.link.href} target="_blank" rel="noopener noreferrer">
            Open {subject.link.label} in the Intune admin center
          </Link>
        ) : null}
      </DrawerBody>
    </OverlayDrawer>
  );
}

/** How a change's time reads: as the table's dates do ("3 days ago", the exact time on hover). */
const CHANGE_TIME = { key: 'at', label: 'When', available: true, format: 'date' } as const;

/**
 * Who changed the object, when, and what (docs/finding-rules.md, "A finding's last change"): its
 * last successful changes in Intune's audit log, newest first, with the properties the log says
 * changed, or why the log could not be read.
 */
function RecentChanges({
  story,
  format,
  className,
  listClassName,
  valueClassName,
}: {
  story: FindingStory;
  format: FormatContext;
  className: string;
  listClassName: string;
  valueClassName: string;
}) {
  const when = (at: string) => formatCell(at, CHANGE_TIME, format);
  return (
    <section className={className} aria-label="Recent changes" data-recent-changes>
      <Subtitle2 as="h3">Recent changes</Subtitle2>
      {'unavailable' in story ? (
        <Caption1>Who changed this, and when, could not be read from the Intune audit log ({story.unavailable}).</Caption1>
      ) : story.changes.length === 0 ? (
        <Caption1>The Intune audit log holds no successful change of this object in the window it was read for.</Caption1>
      ) : (
        <ol className={listClassName}>
          {story.changes.map((change) => (
            <li key={`${change.at}-${change.by}-${change.activity}`} data-change>
              <Body1 className={valueClassName}>
                <Text weight="semibold">{change.by}</Text> · <span title={when(change.at).detail}>{when(change.at).text}</span> · {change.activity}
              </Body1>
              {change.properties.length > 0 ? (
                <ul className={listClassName}>
                  {change.properties.map((property, index) => (
                    <li key={`${property.name}-${index}`}>
                      <Caption1 className={valueClassName}>
                        {property.name}: {property.oldValue ?? '(none)'} → {property.newValue ?? '(none)'}
                      </Caption1>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
