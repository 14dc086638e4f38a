import type { Locale } from './locale.ts';

/**
 * Lighthouse's specific diagnosis behind a finding, one sentence per clue (core/scoring/types.ts: Clue), in
 * every language. `{name}` is filled from the clue's params as a finding's are (_ms and _bytes formatted,
 * numbers with up to three decimals). A clue's message follows the finding's message; the recommendations of
 * its clues, where they have any, stand in for the finding's general one. A unit test checks completeness.
 */
export interface ClueText {
  message: string;
  recommendation?: string;
}

export const CLUES: Record<Locale, Record<string, ClueText>> = {
  en: {
    'lcp.element': { message: 'The LCP element is {element}.' },
    'lcp.phase-ttfb': {
      message:
        "In the real, unthrottled load its longest part is the server's time to the first byte ({phase_ms}, {share} %).",
      recommendation: 'Make the server answer sooner: cache rendered pages, avoid redirects, put a CDN in front.',
    },
    'lcp.phase-load-delay': {
      message:
        'In the real, unthrottled load its longest part passes before the browser even requests the LCP image ({phase_ms}, {share} %).',
      recommendation:
        'Let the browser request the LCP image as soon as it reads the HTML (see the LCP request finding): not lazy-loaded, with fetchpriority="high", in the HTML rather than in CSS or a script.',
    },
    'lcp.phase-load-time': {
      message:
        'In the real, unthrottled load its longest part is the download of the LCP image ({phase_ms}, {share} %).',
      recommendation:
        'Make the LCP image smaller: size it for how it is shown, compress it, serve WebP or AVIF, from a fast origin or CDN.',
    },
    'lcp.phase-render-delay': {
      message:
        'In the real, unthrottled load its longest part passes between the LCP content being there and its being shown ({phase_ms}, {share} %).',
      recommendation:
        'Remove what holds rendering up: render-blocking stylesheets and scripts, long script tasks, content hidden until a script shows it.',
    },
    'lcp.lazy-loaded': {
      message:
        'It is lazy-loaded (loading="lazy"), so the browser requests it only once the layout shows it is in view.',
      recommendation: 'Remove loading="lazy" from the LCP image; lazy-load only images below the first screen.',
    },
    'lcp.not-in-html': {
      message: 'It is not in the HTML the server sends: the browser finds it only through CSS or a script.',
      recommendation:
        'Put the LCP image in the HTML as an <img> with its src, or, where that cannot be, preload it with <link rel="preload" as="image" fetchpriority="high">.',
    },
    'lcp.no-fetchpriority': {
      message: 'It is not fetched with high priority (no fetchpriority="high").',
      recommendation: 'Add fetchpriority="high" to the LCP image.',
    },
    'cls.unsized-image': {
      message: '{culprit}, an image without width and height, moved {moved} when it loaded (shift {shift}).',
      recommendation:
        'Give {culprit} width and height attributes (or a CSS aspect-ratio), so its space is kept free before it loads.',
    },
    'cls.web-font': {
      message: 'The web font {culprit} moved {moved} when it replaced the fallback font (shift {shift}).',
      recommendation:
        'Preload the font and use font-display: optional, or match the fallback font to it (size-adjust, ascent-override), so the swap does not move the text.',
    },
    'cls.injected-iframe': {
      message: 'An iframe inserted into the page ({culprit}) moved {moved} (shift {shift}).',
      recommendation: 'Keep the iframe’s space free before it is inserted: give it, or its container, a fixed size.',
    },
    'cls.unexplained': {
      message:
        '{moved} moved without a cause Lighthouse could name (shift {shift}): usually content a script inserts above it (a banner, an advertisement, a notice) or a late style.',
      recommendation:
        'Reserve space for content inserted after the first paint (a min-height on its container), or insert it below what is already shown.',
    },
    'document.uncompressed': {
      message: "The page's HTML itself is among them, and everything else waits for it.",
      recommendation: 'Enable gzip or brotli for the HTML first, then for CSS, JavaScript, JSON and SVG.',
    },
    'bfcache.no-store': {
      message: 'The page is sent with Cache-Control: no-store.',
      recommendation: 'Send no-store only with pages that hold private data (no-cache still revalidates every visit).',
    },
    'bfcache.no-store-request': {
      message: 'A script fetched a response sent with Cache-Control: no-store.',
      recommendation: 'Send no-store only with responses that hold private data.',
    },
    'bfcache.unload': {
      message: 'The page, or a frame in it, has an unload event handler.',
      recommendation: 'Replace unload handlers with pagehide (or visibilitychange) handlers.',
    },
    'bfcache.websocket': {
      message: 'The page keeps a WebSocket open.',
      recommendation: 'Close the WebSocket on pagehide and open it again on pageshow.',
    },
    'bfcache.broadcast-channel': {
      message: 'The page listens on a BroadcastChannel.',
      recommendation: 'Close the BroadcastChannel on pagehide.',
    },
    'bfcache.web-locks': {
      message: 'The page holds a Web Lock.',
      recommendation: 'Release Web Locks on pagehide.',
    },
    'bfcache.open-request': {
      message: 'A request was still open when the page was left.',
      recommendation: 'Let requests finish early, or abort them on pagehide.',
    },
    'bfcache.indexeddb': {
      message: 'An IndexedDB connection was open.',
      recommendation: 'Close IndexedDB connections on pagehide.',
    },
    'bfcache.other': { message: 'Chromium also names {reason}.' },
  },
  de: {
    'lcp.element': { message: 'Das LCP-Element ist {element}.' },
    'lcp.phase-ttfb': {
      message:
        'Beim echten, ungedrosselten Laden ist sein längster Teil die Zeit des Servers bis zum ersten Byte ({phase_ms}, {share} %).',
      recommendation:
        'Lassen Sie den Server früher antworten: gerenderte Seiten cachen, Weiterleitungen vermeiden, ein CDN vorschalten.',
    },
    'lcp.phase-load-delay': {
      message:
        'Beim echten, ungedrosselten Laden vergeht sein längster Teil, bevor der Browser das LCP-Bild überhaupt anfordert ({phase_ms}, {share} %).',
      recommendation:
        'Lassen Sie den Browser das LCP-Bild anfordern, sobald er das HTML liest (siehe den Befund zur LCP-Anfrage): nicht verzögert geladen, mit fetchpriority="high", im HTML statt in CSS oder einem Skript.',
    },
    'lcp.phase-load-time': {
      message:
        'Beim echten, ungedrosselten Laden ist sein längster Teil der Download des LCP-Bildes ({phase_ms}, {share} %).',
      recommendation:
        'Machen Sie das LCP-Bild kleiner: passend zur Anzeige skalieren, komprimieren, als WebP oder AVIF ausliefern, von einem schnellen Server oder CDN.',
    },
    'lcp.phase-render-delay': {
      message:
        'Beim echten, ungedrosselten Laden vergeht sein längster Teil zwischen dem Eintreffen des LCP-Inhalts und seiner Anzeige ({phase_ms}, {share} %).',
      recommendation:
        'Entfernen Sie, was die Darstellung aufhält: render-blockierende Stylesheets und Skripte, lange Skriptaufgaben, Inhalte, die erst ein Skript einblendet.',
    },
    'lcp.lazy-loaded': {
      message:
        'Es wird verzögert geladen (loading="lazy"), daher fordert der Browser es erst an, wenn das Layout zeigt, dass es sichtbar ist.',
      recommendation:
        'Entfernen Sie loading="lazy" vom LCP-Bild; laden Sie nur Bilder unterhalb des ersten Bildschirms verzögert.',
    },
    'lcp.not-in-html': {
      message: 'Es steht nicht im HTML, das der Server sendet: Der Browser findet es erst über CSS oder ein Skript.',
      recommendation:
        'Setzen Sie das LCP-Bild als <img> mit src ins HTML oder, wo das nicht geht, laden Sie es mit <link rel="preload" as="image" fetchpriority="high"> vor.',
    },
    'lcp.no-fetchpriority': {
      message: 'Es wird nicht mit hoher Priorität geladen (kein fetchpriority="high").',
      recommendation: 'Versehen Sie das LCP-Bild mit fetchpriority="high".',
    },
    'cls.unsized-image': {
      message: '{culprit}, ein Bild ohne Breite und Höhe, verschob beim Laden {moved} (Verschiebung {shift}).',
      recommendation:
        'Geben Sie {culprit} width- und height-Attribute (oder ein CSS-aspect-ratio), damit sein Platz schon vor dem Laden frei bleibt.',
    },
    'cls.web-font': {
      message: 'Die Webschrift {culprit} verschob {moved}, als sie die Ersatzschrift ablöste (Verschiebung {shift}).',
      recommendation:
        'Laden Sie die Schrift vor und nutzen Sie font-display: optional, oder passen Sie die Ersatzschrift an (size-adjust, ascent-override), damit der Wechsel den Text nicht verschiebt.',
    },
    'cls.injected-iframe': {
      message: 'Ein in die Seite eingefügter iframe ({culprit}) verschob {moved} (Verschiebung {shift}).',
      recommendation:
        'Halten Sie den Platz des iframes frei, bevor er eingefügt wird: Geben Sie ihm oder seinem Container eine feste Größe.',
    },
    'cls.unexplained': {
      message:
        '{moved} verschob sich ohne eine Ursache, die Lighthouse benennen konnte (Verschiebung {shift}): meist Inhalte, die ein Skript darüber einfügt (ein Banner, eine Anzeige, ein Hinweis), oder ein spätes Stylesheet.',
      recommendation:
        'Reservieren Sie Platz für Inhalte, die nach der ersten Darstellung eingefügt werden (min-height am Container), oder fügen Sie sie unterhalb des Sichtbaren ein.',
    },
    'document.uncompressed': {
      message: 'Darunter ist das HTML der Seite selbst, auf das alles andere wartet.',
      recommendation: 'Aktivieren Sie gzip oder Brotli zuerst für das HTML, dann für CSS, JavaScript, JSON und SVG.',
    },
    'bfcache.no-store': {
      message: 'Die Seite wird mit Cache-Control: no-store gesendet.',
      recommendation:
        'Senden Sie no-store nur bei Seiten mit privaten Daten (no-cache prüft trotzdem bei jedem Besuch neu).',
    },
    'bfcache.no-store-request': {
      message: 'Ein Skript hat eine Antwort mit Cache-Control: no-store geladen.',
      recommendation: 'Senden Sie no-store nur bei Antworten mit privaten Daten.',
    },
    'bfcache.unload': {
      message: 'Die Seite oder ein Frame darin hat einen unload-Handler.',
      recommendation: 'Ersetzen Sie unload-Handler durch pagehide- (oder visibilitychange-)Handler.',
    },
    'bfcache.websocket': {
      message: 'Die Seite hält einen WebSocket offen.',
      recommendation: 'Schließen Sie den WebSocket bei pagehide und öffnen Sie ihn bei pageshow erneut.',
    },
    'bfcache.broadcast-channel': {
      message: 'Die Seite hört auf einem BroadcastChannel.',
      recommendation: 'Schließen Sie den BroadcastChannel bei pagehide.',
    },
    'bfcache.web-locks': {
      message: 'Die Seite hält einen Web Lock.',
      recommendation: 'Geben Sie Web Locks bei pagehide frei.',
    },
    'bfcache.open-request': {
      message: 'Beim Verlassen der Seite war noch eine Anfrage offen.',
      recommendation: 'Lassen Sie Anfragen früh enden oder brechen Sie sie bei pagehide ab.',
    },
    'bfcache.indexeddb': {
      message: 'Eine IndexedDB-Verbindung war offen.',
      recommendation: 'Schließen Sie IndexedDB-Verbindungen bei pagehide.',
    },
    'bfcache.other': { message: 'Chromium nennt außerdem {reason}.' },
  },
};
