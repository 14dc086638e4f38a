import type { ResponseObservation, ScanObservation } from '../../scan/observation.ts';
import { FORM_FACTORS } from '../../scan/observation.ts';
import { auditEvidence, responseEvidence } from '../evidence.ts';
import { costScore, KB, MB } from '../cost.ts';
import { defineCheck, fail, notApplicable, pass } from '../types.ts';

const images = (obs: ScanObservation): ResponseObservation[] =>
  obs.responses.filter((r) => r.resourceType === 'Image' && r.status < 400);
/** WebP and AVIF are about 30 % smaller than JPEG and PNG at the same quality (the low end of published comparisons). */
const MODERN_FORMAT_SAVING = 0.3;

export const imagePayload = defineCheck({
  id: 'images.payload',
  category: 'images',
  measures:
    'Bytes of images transferred for the page (warning above 1 MB, critical above 3 MB). Cost: the bytes over 1 MB; 0.5 at 2 MB over.',
  weight: 2,
  codes: ['images.large-payload'],
  run(obs, { finding }) {
    const list = images(obs);
    if (list.length === 0) return notApplicable();
    const bytes = list.reduce((sum, r) => sum + r.transferBytes, 0);
    if (bytes <= MB) return pass();
    return fail(
      costScore(bytes - MB, 2 * MB),
      finding(
        'images.large-payload',
        bytes > 3 * MB ? 'critical' : 'warning',
        { total_bytes: bytes, count: list.length },
        responseEvidence(list),
      ),
    );
  },
});

export const modernFormat = defineCheck({
  id: 'images.modern-format',
  category: 'images',
  measures:
    'JPEG, PNG and GIF images over 10 KB that WebP or AVIF would shrink. Cost: the bytes saved (30 % of those images); 0.5 at 256 KB.',
  weight: 1,
  codes: ['images.modern-format'],
  run(obs, { finding }) {
    const list = images(obs);
    if (list.length === 0) return notApplicable();
    const legacy = list.filter((r) => /image\/(jpeg|png|gif)/.test(r.mimeType) && r.transferBytes > 10 * KB);
    if (legacy.length === 0) return pass();
    const bytes = legacy.reduce((sum, r) => sum + r.transferBytes, 0);
    const wasted = Math.round(bytes * MODERN_FORMAT_SAVING);
    return fail(
      costScore(wasted, 256 * KB),
      finding(
        'images.modern-format',
        bytes > MB ? 'warning' : 'info',
        { count: legacy.length, total_bytes: bytes, wasted_bytes: wasted },
        { ...responseEvidence(legacy), ...(wasted > 0 ? { impact: { ms: 0, bytes: wasted } } : {}) },
      ),
    );
  },
});

export const oversized = defineCheck({
  id: 'images.oversized',
  category: 'images',
  measures:
    "Bytes Lighthouse's image-delivery insight could save by sizing and compressing images for how they are shown (reported from 50 KB). Cost: those bytes; 0.5 at 1 MB.",
  weight: 2,
  codes: ['images.oversized'],
  run(obs, { finding }) {
    const audit = obs.desktop.audits['image-delivery-insight'] ?? obs.mobile.audits['image-delivery-insight'];
    if (!audit) return notApplicable();
    const wasted = Math.max(
      ...[obs.desktop, obs.mobile].map((o) =>
        (o.audits['image-delivery-insight']?.items ?? []).reduce(
          (sum, item) => sum + (typeof item.wastedBytes === 'number' ? item.wastedBytes : 0),
          0,
        ),
      ),
    );
    if (wasted < 50 * KB) return pass();
    return fail(
      costScore(wasted, MB),
      finding(
        'images.oversized',
        wasted > MB ? 'critical' : 'warning',
        { wasted_bytes: Math.round(wasted) },
        auditEvidence(obs, 'image-delivery-insight'),
      ),
    );
  },
});

export const unsized = defineCheck({
  id: 'images.unsized',
  category: 'images',
  measures:
    'Images without width and height, which make the layout jump while they load. Cost: the layout shift (CLS) measured where they were found, at most; 0.5 at 0.1.',
  weight: 0.5,
  codes: ['images.unsized'],
  run(obs, { finding }) {
    const count = Math.max(
      obs.desktop.audits['unsized-images']?.items.length ?? 0,
      obs.mobile.audits['unsized-images']?.items.length ?? 0,
    );
    const audited = FORM_FACTORS.some((f) => obs[f].audits['unsized-images']);
    if (count === 0) return images(obs).length || audited ? pass() : notApplicable();
    const seen = FORM_FACTORS.filter((f) => (obs[f].audits['unsized-images']?.items.length ?? 0) > 0);
    const shift = Math.max(...seen.map((f) => obs[f].metrics.cls));
    return fail(
      costScore(shift, 0.1),
      finding(
        'images.unsized',
        shift > 0.1 ? 'warning' : 'info',
        { count },
        auditEvidence(obs, 'unsized-images', { factors: seen }),
      ),
    );
  },
});

export const IMAGE_CHECKS = [imagePayload, modernFormat, oversized, unsized];
