import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { LIGHTHOUSE_CATEGORY_IDS } from '../../core/scan/lighthouse-categories.ts';
import type { FormFactor } from '../../core/scan/observation.ts';

/**
 * The Lighthouse settings of every scan run: the flags, and the configuration per form factor (Lighthouse's
 * desktop preset, its default for mobile). The runner uses them, and the scan benchmark's floor
 * (bench/lighthouse-floor.ts) imports them, so the floor always measures what a scan does. Every scan runs
 * Lighthouse's four categories (core/scan/lighthouse-categories.ts), as PageSpeed Insights does.
 */
export const LIGHTHOUSE_FLAGS = {
  onlyCategories: LIGHTHOUSE_CATEGORY_IDS,
  disableFullPageScreenshot: true,
  skipAudits: ['bf-cache'],
  maxWaitForLoad: 45_000,
  logLevel: 'error' as const,
};

/**
 * One form factor's flags. The back/forward cache test (Lighthouse leaves the page for another and goes back to
 * it) is made in the desktop load only: whether the page is restored does not depend on the form factor, and
 * the test costs time (docs/operations/benchmarks.md).
 */
export const lighthouseFlagsFor = (factor: FormFactor): typeof LIGHTHOUSE_FLAGS =>
  factor === 'desktop' ? { ...LIGHTHOUSE_FLAGS, skipAudits: [] } : LIGHTHOUSE_FLAGS;

export const lighthouseConfigFor = (factor: FormFactor): typeof desktopConfig | undefined =>
  factor === 'desktop' ? desktopConfig : undefined;

/** A user flow's steps (activities/flows/): a scan's settings, the same four categories. */
export const FLOW_LIGHTHOUSE_FLAGS = LIGHTHOUSE_FLAGS;

/** A timespan step has no accessibility or SEO audits, and Lighthouse refuses to be asked for them there. */
export const FLOW_TIMESPAN_CATEGORIES = ['performance', 'best-practices'];
