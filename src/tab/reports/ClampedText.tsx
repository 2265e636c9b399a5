import { Link, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { PHONE } from '../app/breakpoints.js';

const useStyles = makeStyles({
  clamped: { display: '-webkit-box', WebkitBoxOrient: 'vertical', overflow: 'hidden', [PHONE]: { WebkitLineClamp: 1 } },
  two: { WebkitLineClamp: 2 },
  three: { WebkitLineClamp: 3 },
  more: { marginLeft: tokens.spacingHorizontalXS, whiteSpace: 'nowrap' },
});

/**
 * Text cut to a few lines, with "Show all" when there is more: long notices and descriptions would
 * otherwise push the report's rows off the first screen, on a phone most of all. The text is all
 * in the page (search, copy and screen readers get it whole); only its drawing is cut.
 */
export function ClampedText({ text, lines }: { text: string; /** On a wide screen; a phone, where every line pushes the rows down, shows one. */ lines: 2 | 3 }) {
  const styles = useStyles();
  const id = useId();
  const ref = useRef<HTMLSpanElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflowing, setOverflowing] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || expanded) return undefined;
    const measure = () => setOverflowing(element.scrollHeight > element.clientHeight + 1);
    measure();
    // The width, and with it the number of lines, changes with the window and Teams' panes.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [expanded, text]);
  return (
    <>
      <span ref={ref} id={id} className={expanded ? undefined : mergeClasses(lines === 2 ? styles.two : styles.three, styles.clamped)} data-clamped={!expanded && overflowing}>
        {text}
      </span>
      {overflowing || expanded ? (
        <Link as="button" className={styles.more} aria-expanded={expanded} aria-controls={id} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show less' : 'Show all'}
        </Link>
      ) : null}
    </>
  );
}
