/** Addresses of the web area that other parts (API views, e-mails, webhooks) link to: one home for each. */
export const scanReportUrl = (baseUrl: string, scanPublicId: string): string => `${baseUrl}/reports/${scanPublicId}`;
export const alertsPageUrl = (baseUrl: string): string => `${baseUrl}/alerts`;
