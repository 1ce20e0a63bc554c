/**
 * axe-core run inside the page (eMAG / WCAG 2.1 AA): the serious and critical
 * violations of a screen, one line each, to assert that there are none.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; html: string; any?: Array<{ data?: unknown }> }>;
};

/** Every WCAG 2.0/2.1 A and AA violation axe finds on the page as it is now, and unnamed dialogs. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Let the page's fade-in (and a modal's or menu's transition) start and
  // finish: half-transparent text would read as low contrast. On a loaded
  // machine a fade can outlast the fixed wait, so the running animations are
  // waited for too (infinite ones aside: a spinner's).
  await page.waitForTimeout(450);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  // Injected through Runtime.evaluate rather than a <script> tag: the product's
  // CSP (script-src 'self') would refuse an inline script, and it stays as it is.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(
    async () =>
      (await (
        window as unknown as { axe: { run: (context: Document, options: object) => unknown } }
      ).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        // Two rules axe files under best practice, run too: a dialog without a
        // name is announced as a bare "dialog" (serious), and a skip link must
        // lead somewhere.
        rules: { 'aria-dialog-name': { enabled: true }, 'skip-link': { enabled: true } },
        resultTypes: ['violations'],
      })) as { violations: AxeViolation[] },
  );
  return result.violations;
}

export function isSerious(violation: AxeViolation): boolean {
  return violation.impact === 'serious' || violation.impact === 'critical';
}

/** One line per violation: the rule, how many elements, the first three with their colours. */
export function describeViolation(screen: string, violation: AxeViolation): string {
  const nodes = violation.nodes
    .slice(0, 3)
    .map((node) => {
      const data = node.any?.[0]?.data as
        { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
      const colours = data?.fgColor
        ? ` [${data.fgColor} sobre ${data.bgColor}: ${data.contrastRatio}]`
        : '';
      return `${node.target.join(' ')} ${node.html.slice(0, 120)}${colours}`;
    })
    .join(' | ');
  return `${screen}: ${violation.id} (${violation.impact}, ${violation.nodes.length}×) ${violation.help} — ${nodes}`;
}

export async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  return (await axeViolations(page))
    .filter(isSerious)
    .map((violation) => describeViolation(screen, violation));
}
