/** Addresses of the web area that other parts (API views, e-mails, webhooks) link to: one home for each. */
export const scanReportUrl = (baseUrl: string, scanPublicId: string): string => `${baseUrl}/reports/${scanPublicId}`;
/** A scan's share page: its report for anyone with the link, while sharing is enabled. */
export const scanShareUrl = (baseUrl: string, shareToken: string): string => `${baseUrl}/share/${shareToken}`;
/** Two of an account's scans on the compare page (its owner's only), the earlier first. */
export const scanCompareUrl = (baseUrl: string, beforePublicId: string, afterPublicId: string): string =>
  `${baseUrl}/compare?scan=${beforePublicId}&scan=${afterPublicId}`;
export const alertsPageUrl = (baseUrl: string): string => `${baseUrl}/alerts`;
/** A live-data site's dashboard in the web area (`rum_dashboard_url` of the rum.alert.* payloads). */
/** A user flow run's page in the web area (`run_url` of the flow.* payloads). */
export const flowRunUrl = (baseUrl: string, flowPublicId: string, runPublicId: string): string =>
  `${baseUrl}/flows/${flowPublicId}/runs/${runPublicId}`;
export const liveDashboardUrl = (baseUrl: string, siteId: number): string => `${baseUrl}/live/${siteId}`;
