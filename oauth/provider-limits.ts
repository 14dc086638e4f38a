/** A Client ID Metadata Document is small; anything larger is refused (the draft suggests 5 KB). */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
