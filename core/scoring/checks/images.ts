import type { ResponseObservation, ScanObservation } from '../../scan/observation.ts';
import { FORM_FACTORS } from '../../scan/observation.ts';
import { auditEvidence, responseEvidence } from '../evidence.ts';
import { defineCheck, fail, notApplicable, pass } from '../types.ts';

const images = (obs: ScanObservation): ResponseObservation[] =>
  obs.responses.filter((r) => r.resourceType === 'Image' && r.status < 400);
const KB = 1024;
const MB = 1024 * KB;

export const imagePayload = defineCheck({
  id: 'images.payload',
  category: 'images',
  measures: 'Bytes of images transferred for the page (warning above 1 MB, critical above 3 MB).',
  weight: 2,
  codes: ['images.large-payload'],
  run(obs, { finding }) {
    const list = images(obs);
    if (list.length === 0) return notApplicable();
    const bytes = list.reduce((sum, r) => sum + r.transferBytes, 0);
    const score = Math.max(0, Math.min(1, 1 - (bytes - 500 * KB) / (3.5 * MB)));
    if (bytes <= MB) return pass(score);
    return fail(
      score,
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
  measures: 'JPEG, PNG and GIF images over 10 KB that WebP or AVIF would shrink.',
  weight: 1,
  codes: ['images.modern-format'],
  run(obs, { finding }) {
    const list = images(obs);
    if (list.length === 0) return notApplicable();
    const legacy = list.filter((r) => /image\/(jpeg|png|gif)/.test(r.mimeType) && r.transferBytes > 10 * KB);
    if (legacy.length === 0) return pass();
    const bytes = legacy.reduce((sum, r) => sum + r.transferBytes, 0);
    return fail(
      bytes > MB ? 0.2 : 0.6,
      finding(
        'images.modern-format',
        bytes > MB ? 'warning' : 'info',
        { count: legacy.length, total_bytes: bytes },
        responseEvidence(legacy),
      ),
    );
  },
});

export const oversized = defineCheck({
  id: 'images.oversized',
  category: 'images',
  measures:
    "Bytes Lighthouse's image-delivery insight could save by sizing and compressing images for how they are shown.",
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
    const score = Math.max(0, 1 - wasted / (2 * MB));
    return fail(
      score,
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
  measures: 'Images without width and height, which make the layout jump while they load.',
  weight: 0.5,
  codes: ['images.unsized'],
  run(obs, { finding }) {
    const count = Math.max(
      obs.desktop.audits['unsized-images']?.items.length ?? 0,
      obs.mobile.audits['unsized-images']?.items.length ?? 0,
    );
    if (count === 0) return images(obs).length ? pass() : notApplicable();
    const seen = FORM_FACTORS.filter((f) => (obs[f].audits['unsized-images']?.items.length ?? 0) > 0);
    return fail(
      0.6,
      finding('images.unsized', 'warning', { count }, auditEvidence(obs, 'unsized-images', { factors: seen })),
    );
  },
});

export const IMAGE_CHECKS = [imagePayload, modernFormat, oversized, unsized];
