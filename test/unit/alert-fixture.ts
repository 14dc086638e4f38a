import type { Alert } from '../../core/monitoring/alert.ts';

/**
 * An open, unread critical score alert of target 2 (overall 45 below 50, speed 61 below 70), raised on
 * 2026-11-20 at noon UTC and not yet e-mailed; `changes` replace any of its fields.
 */
export function testAlert(changes: Partial<Alert> = {}): Alert {
  return {
    id: 3,
    userId: 1,
    targetId: 2,
    type: 'score_below_threshold',
    severity: 'critical',
    details: {
      score: 'overall',
      value: 45,
      reference: 50,
      crossings: [
        { score: 'overall', value: 45, threshold: 50, severity: 'critical' },
        { score: 'speed', value: 61, threshold: 70, severity: 'warning' },
      ],
    },
    url: 'https://shop.example.com/',
    host: 'shop.example.com',
    region: 'eu',
    scanPublicId: 'a'.repeat(26),
    resolvedScanPublicId: null,
    isRead: false,
    isDismissed: false,
    createdAt: new Date('2026-11-20T12:00:00Z'),
    updatedAt: new Date('2026-11-20T12:00:00Z'),
    escalatedAt: null,
    resolvedAt: null,
    dismissedAt: null,
    raisedEmailedAt: null,
    escalatedEmailedAt: null,
    resolvedEmailedAt: null,
    ...changes,
  };
}
