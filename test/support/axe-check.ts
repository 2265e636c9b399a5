import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { AXE_SCRIPT_PATH } from './browser.js';
import type { PageGlobals } from './browser.js';

/**
 * Text whose contrast with what is behind it falls short of WCAG AA (4.5:1, 3:1 for large text), as
 * the browser paints it in forced colours: computed colours, which forced colours replace. axe's own
 * check reads the unforced text colour against the forced background there (dequelabs/axe-core#3978),
 * so in forced colours this check stands in for it. Evaluated as source text: it runs in the page.
 */
const FORCED_CONTRAST_FAILURES = `(() => {
  const parse = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const probe = document.createElement('div');
  probe.style.background = 'Canvas';
  document.body.append(probe);
  const canvas = parse(getComputedStyle(probe).backgroundColor);
  probe.remove();
  const backgroundOf = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color.length === 3 || (color.length === 4 && color[3] > 0.5)) return color.slice(0, 3);
    }
    return canvas;
  };
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(), seen = 0; text && seen < 20000; text = walker.nextNode(), seen++) {
    const element = text.parentElement;
    if (!text.textContent.trim() || !element || !element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    // A control switched off is exempt from WCAG's contrast minimum (1.4.3, "incidental").
    if (element.closest(':disabled, [aria-disabled="true"]')) continue;
    const style = getComputedStyle(element);
    // SVG text is painted with its fill, not its colour.
    const painted = element instanceof SVGElement ? style.fill : style.color;
    if (!painted.startsWith('rgb')) continue;
    const [lighter, darker] = [luminance(parse(painted)), luminance(backgroundOf(element))].sort((a, b) => b - a);
    const ratio = (lighter + 0.05) / (darker + 0.05);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) failures.push('forced-colour contrast ' + ratio.toFixed(2) + ' (' + painted + ' on ' + backgroundOf(element).join(',') + ') at ' + element.tagName + ': ' + text.textContent.trim().slice(0, 40));
  }
  return [...new Set(failures)].slice(0, 10);
})()`;

let axeSource: string | undefined;
/** axe-core's build, read from disk once per test file rather than once per check. */
function axeScript(): string {
  axeSource ??= readFileSync(AXE_SCRIPT_PATH, 'utf8');
  return axeSource;
}

/** axe's serious and critical violations on the page as it is now, and in forced colours the contrast failures of what is painted. */
export async function seriousViolations(page: Page, options: { forcedColors?: boolean } = {}): Promise<string[]> {
  // Evaluated over the DevTools protocol: the tab's Content-Security-Policy rightly refuses a script tag.
  await page.evaluate(axeScript());
  const forced = options.forcedColors ?? false;
  const violations = await page.evaluate(async (forcedColors) => {
    const { axe, document } = globalThis as unknown as PageGlobals;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
      // See FORCED_CONTRAST_FAILURES: in forced colours contrast is checked on what is painted.
      ...(forcedColors ? { rules: { 'color-contrast': { enabled: false } } } : {}),
    });
    // Fluent's focus manager (tabster) puts focusable, aria-hidden <i data-tabster-dummy> bumpers
    // around focus groups on purpose: they hand focus on at once and must stay silent to screen
    // readers. A known false positive of aria-hidden-focus (microsoft/tabster#288), suppressed the
    // same way Accessibility Insights suppresses it: for those elements and that rule only.
    const isTabsterBumper = (target: string[]) => target.length === 1 && document.querySelector(target[0]!)?.hasAttribute('data-tabster-dummy') === true;
    return result.violations
      .map((violation) => (violation.id === 'aria-hidden-focus' ? { ...violation, nodes: violation.nodes.filter((node) => !isTabsterBumper(node.target)) } : violation))
      .filter((violation) => violation.nodes.length > 0);
  }, forced);
  const contrast = forced ? ((await page.evaluate(FORCED_CONTRAST_FAILURES)) as string[]) : [];
  return contrast.concat(
    violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
            .map((node) => node.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      ),
  );
}

/**
 * The same painted-contrast check in any theme: every visible text's computed colour against the
 * first opaque background behind it. axe leaves text over layered backgrounds (a badge in a toggle)
 * as "needs review" rather than failing it; this judges it.
 */
export async function paintedContrastFailures(page: Page): Promise<string[]> {
  return ((await page.evaluate(FORCED_CONTRAST_FAILURES)) as string[]).map((failure) => failure.replace(/^forced-colour /, ''));
}
