/** Text for screen readers only: in the page and read aloud, not drawn. Spread into a makeStyles rule. */
export const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
