import { Badge, Body1, Button, Caption1, DrawerBody, DrawerHeader, DrawerHeaderTitle, Link, OverlayDrawer, Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import { findingKind } from '../../core/findings/finding-kinds.js';
import type { FindingKindTable } from '../../core/findings/finding-kinds.js';
import type { Finding } from '../../core/reports/report-model.js';
import type { TriageDecision, TriageRequest } from '../../core/triage/triage-book.js';
import type { ApiError } from '../api/report-api.js';
import type { FormatContext } from '../table/cell-format.js';
import { SEVERITY_BADGE } from './severity.js';
import { TriageControls } from './TriageControls.js';
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

export interface FindingDetailsProps {
  /** What the findings are about, as the row names it; null while the pane is closed. */
  subject: {
    name: string;
    link: RowLink | null;
    findings: readonly Finding[];
    fields?: ReadonlyArray<{ label: string; text: string }>;
  } | null;
  kinds: FindingKindTable;
  /** The report's triage: decisions and what this user may do, or why it cannot be shown. */
  triage: { decisions: ReadonlyMap<string, TriageDecision>; canTriage: boolean; onChange: (request: TriageRequest) => Promise<ApiError | null> } | { unavailable: string };
  format: FormatContext;
  onClose: () => void;
}

/**
 * A row's findings in a side pane, opened from the row's Findings button (keyboard and touch alike,
 * never on hover): what was found, whether it is accepted or snoozed (and, for a triager, the buttons
 * to change that), why it matters, how to fix it step by step with the Microsoft Learn pages behind
 * the steps, and the object's page in the Intune admin center.
 */
export function FindingDetails({ subject, kinds, triage, format, onClose }: FindingDetailsProps) {
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
