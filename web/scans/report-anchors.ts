/**
 * Fragment ids of the scan report's parts that other pages link to (the live-data dashboard's lab links):
 * a finding by its code, the diagnostics, the lab-and-field part.
 */
export const findingAnchor = (code: string): string => `finding-${code.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
