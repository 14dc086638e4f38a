/** The devices a scan is run as (Lighthouse's desktop and mobile emulation), named as the API and the stored results name them. */
export const FORM_FACTORS = ['desktop', 'mobile'] as const;
export type FormFactor = (typeof FORM_FACTORS)[number];
