import type { AnyRoute } from '../route.ts';
import { alertRoutes, type AlertRouteDeps } from './alerts.ts';
import { domainRoutes, type DomainRouteDeps } from './domains.ts';
import { flowRoutes, type FlowRouteDeps } from './flows.ts';
import { getMe } from './me.ts';
import { rumAlertRoutes, type RumAlertRouteDeps } from './rum-alerts.ts';
import { rumRoutes, type RumRouteDeps } from './rum.ts';
import { scanLighthouseRoutes, type ScanLighthouseRouteDeps } from './scan-lighthouse.ts';
import { scanRoutes, type ScanRouteDeps } from './scans.ts';

export type RouteDeps = ScanRouteDeps &
  ScanLighthouseRouteDeps &
  DomainRouteDeps &
  AlertRouteDeps &
  RumRouteDeps &
  RumAlertRouteDeps &
  FlowRouteDeps;

/** Every /api/v1 endpoint; the router and the OpenAPI document are both built from this list. */
export function apiRoutes(deps: RouteDeps): AnyRoute[] {
  return [
    getMe,
    ...scanRoutes(deps),
    ...scanLighthouseRoutes(deps),
    ...domainRoutes(deps),
    ...alertRoutes(deps),
    ...rumRoutes(deps),
    ...rumAlertRoutes(deps),
    ...flowRoutes(deps),
  ];
}
