import type { Locale } from './locale.ts';

export interface FindingText {
  title: string;
  message: string;
  recommendation: string;
}

/**
 * Every finding code in every language. `{name}` is filled from the finding's params (keys ending _bytes and
 * _ms are formatted as sizes and durations; `form_factor` is translated). A unit test checks completeness.
 */
export const CATALOGUE: Record<Locale, Record<string, FindingText>> = {
  en: {
    'speed.lcp-slow': {
      title: 'Slow Largest Contentful Paint',
      message: 'On {form_factor}, the largest content appears after {value_ms} (target: {target_ms}).',
      recommendation:
        'Shorten the part of the LCP that takes longest (see What slows the page): a slow server, an image the browser finds late, a large image, or rendering held up by stylesheets and scripts.',
    },
    'speed.lcp-discovery': {
      title: 'LCP image requested late',
      message: 'The browser does not request the LCP image {element} as early as it could.',
      recommendation: 'Let the browser request the LCP image with high priority as soon as it reads the HTML.',
    },
    'speed.fcp-slow': {
      title: 'Slow First Contentful Paint',
      message: 'On {form_factor}, the first content appears after {value_ms} (target: {target_ms}).',
      recommendation:
        'Cut server response time and render-blocking CSS and JavaScript so the browser can paint sooner.',
    },
    'speed.tbt-high': {
      title: 'Main thread blocked',
      message: 'On {form_factor}, long tasks block input for {value_ms} in total (target: {target_ms}).',
      recommendation:
        'Split long JavaScript tasks, defer scripts not needed for the first view, and remove unused code.',
    },
    'speed.cls-high': {
      title: 'Layout shifts',
      message: 'On {form_factor}, the layout shifts by {value} (target: {target}).',
      recommendation:
        'Give images, embeds and ads fixed dimensions and avoid inserting content above what is already shown.',
    },
    'speed.performance-low': {
      title: 'Lighthouse performance score',
      message: 'On {form_factor}, Lighthouse scores the performance {score} of 100 (good: 90 or more).',
      recommendation:
        'Work through the findings below: the metric findings say which of the timings Lighthouse weighs is slow, and the other findings what slows it.',
    },
    'speed.not-measured': {
      title: 'Speed could not be measured',
      message:
        'Lighthouse could not compute a performance score for {count} of the 2 form factors; each such form factor counts as 0 in speed.',
      recommendation:
        'Make sure the page paints content without user input (no blank page, no blocking interstitial), then scan again.',
    },
    'speed.unreliable-measurement': {
      title: 'Measurement may be unreliable',
      message:
        'The scanning machine was busy during this scan (CPU benchmark {benchmark_index}), so timings may be inflated.',
      recommendation: 'Run the scan again with force to confirm the numbers.',
    },
    'images.large-payload': {
      title: 'Heavy images',
      message: 'The page downloads {total_bytes} of images across {count} files.',
      recommendation: 'Resize images to the size they are shown at, compress them, and lazy-load those below the fold.',
    },
    'images.modern-format': {
      title: 'Images not in a modern format',
      message: '{count} images ({total_bytes}) are JPEG, PNG or GIF; WebP or AVIF would save about {wasted_bytes}.',
      recommendation: 'Serve WebP or AVIF versions; they are usually 25–50 % smaller at the same quality.',
    },
    'images.oversized': {
      title: 'Oversized or poorly compressed images',
      message: 'About {wasted_bytes} could be saved by sizing and compressing images for how they are displayed.',
      recommendation: 'Generate responsive sizes (srcset) and compress images before upload.',
    },
    'images.unsized': {
      title: 'Images without dimensions',
      message: '{count} images have no width and height, so the layout jumps while they load.',
      recommendation: 'Set width and height attributes (or CSS aspect-ratio) on every image.',
    },
    'caching.short-lifetime': {
      title: 'Static files not cached long enough',
      message:
        '{count} of {total} static files ({total_bytes}) are cached for less than a day; a repeat visit downloads about {wasted_bytes} of them again.',
      recommendation:
        'Send Cache-Control: max-age=31536000, immutable for versioned assets, and at least a day for others.',
    },
    'caching.no-compression': {
      title: 'Text sent without compression',
      message:
        '{count} text responses ({total_bytes}) are sent uncompressed; compression would save about {wasted_bytes}.',
      recommendation: 'Enable gzip or brotli on the server or CDN for HTML, CSS, JavaScript, JSON and SVG.',
    },
    'caching.no-validators': {
      title: 'No revalidation headers',
      message: '{count} static files have neither ETag nor Last-Modified.',
      recommendation: 'Send ETag or Last-Modified so expired files can be revalidated with a tiny 304 response.',
    },
    'technical.http-error': {
      title: 'The page returns an error',
      message: 'The page answered with HTTP {status}.',
      recommendation: 'Fix the page or the link pointing to it so it answers 200.',
    },
    'technical.redirect-chain': {
      title: 'Redirects before the page',
      message: 'The browser follows {count} redirect(s), starting at {first_url}, before the page loads.',
      recommendation: 'Link directly to the final URL and keep at most one redirect (for example http to https).',
    },
    'technical.slow-server-response': {
      title: 'Slow server response',
      message: 'The server took {value_ms} to start answering the page (target: under 600 ms).',
      recommendation: 'Cache rendered pages, speed up database queries, or put a CDN in front of the server.',
    },
    'technical.old-http': {
      title: 'Old HTTP version',
      message: '{count} requests to the site use HTTP/1.x.',
      recommendation: 'Enable HTTP/2 or HTTP/3 on the server or CDN.',
    },
    'technical.no-https': {
      title: 'Not served over HTTPS',
      message: 'The page is served over plain HTTP.',
      recommendation: 'Serve the site over HTTPS and redirect HTTP to it.',
    },
    'technical.no-hsts': {
      title: 'No HSTS header',
      message: 'The page does not send Strict-Transport-Security.',
      recommendation: 'Send Strict-Transport-Security so browsers always use HTTPS.',
    },
    'technical.render-blocking': {
      title: 'Render-blocking resources',
      message: '{count} stylesheets or scripts delay the first render.',
      recommendation: 'Inline critical CSS, load the rest asynchronously, and add defer to scripts.',
    },
    'technical.large-dom': {
      title: 'Large DOM',
      message: 'The page has a large DOM, which slows style and layout work.',
      recommendation: 'Remove unneeded wrapper elements and render long lists on demand.',
    },
    'technical.no-viewport': {
      title: 'No mobile viewport',
      message: 'The page has no suitable viewport meta tag.',
      recommendation: 'Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
    },
    'technical.legacy-javascript': {
      title: 'Legacy JavaScript',
      message: 'Polyfills or transforms are sent to browsers that do not need them ({count} scripts).',
      recommendation: 'Build for modern browsers and drop polyfills for features they support.',
    },
    'technical.unused-javascript': {
      title: 'Unused JavaScript',
      message: '{count} scripts are downloaded but largely not used during load.',
      recommendation: 'Split bundles and load code only where it is needed.',
    },
    'technical.font-display': {
      title: 'Text hidden while web fonts load',
      message: '{count} web font(s) hide the text until they have loaded.',
      recommendation:
        'Add font-display: swap (or optional, which also avoids a layout shift) to their @font-face rules.',
    },
    'technical.duplicated-javascript': {
      title: 'Duplicated JavaScript',
      message: '{count} module(s) are bundled into more than one script, so their code downloads more than once.',
      recommendation: 'Bundle each module once (a shared chunk) and align the versions the bundles depend on.',
    },
    'technical.request-chains': {
      title: 'Chain of critical requests',
      message:
        'The longest chain of critical requests has {length} requests, each found only once the one before it had arrived; it ends after {duration_ms}.',
      recommendation:
        'Shorten the chain: refer to what it ends with from the HTML (or preload it), inline what is small, and defer what the first view does not need.',
    },
    'technical.third-party-facades': {
      title: 'Third-party embeds a facade could stand in for',
      message:
        '{count} third-party embed(s) ({product} first) load in full, although a lightweight facade could stand in until a visitor uses them.',
      recommendation:
        'Show a facade (a static preview) and load the embed when the visitor clicks it; the items name facades known for each.',
    },
    'technical.document-write': {
      title: 'document.write() while the page loads',
      message:
        'The page makes {count} document.write() call(s) while it loads, the first in {first_url} at line {line}, column {column}.',
      recommendation:
        'Add the content with DOM methods (append, insertAdjacentHTML) and load scripts with async or defer instead: what document.write() writes holds up the HTML parser, and on slow connections Chromium does not load the scripts from other sites it writes.',
    },
    'technical.bf-cache-blocked': {
      title: 'Page not restored from the back/forward cache',
      message:
        'A visitor going back to the page waits for it to load again: {count} reason(s) keep it out of the back/forward cache, {actionable} of them up to the page.',
      recommendation: 'Remove what keeps the page out of the back/forward cache (the items name Chromium’s reasons).',
    },
    'technical.blocked-requests': {
      title: 'Requests to internal addresses not made',
      message:
        'The page refers to {count} private or special-use address(es), starting with {first_target}; scans never reach internal networks, so these requests were not made and are missing from this result.',
      recommendation:
        'Serve what visitors need from public addresses and remove references to internal hosts from the page.',
    },
    'wordpress.version-exposed': {
      title: 'WordPress version visible',
      message: 'The page announces WordPress {version} in its generator tag.',
      recommendation: 'Remove the generator tag (remove_action wp_head wp_generator) and keep WordPress updated.',
    },
    'wordpress.many-plugins': {
      title: 'Many plugins on the page',
      message: '{count} plugins load files on this page.',
      recommendation: 'Remove unused plugins and load plugin assets only on the pages that need them.',
    },
    'wordpress.jquery-migrate': {
      title: 'jquery-migrate loaded',
      message: 'The page loads jquery-migrate, which current themes rarely need.',
      recommendation: 'Test without it and dequeue it if nothing breaks.',
    },
    'wordpress.emoji-script': {
      title: 'Emoji script loaded',
      message: "WordPress's emoji script is loaded, although browsers render emoji themselves.",
      recommendation:
        'Disable it (remove the print_emoji_detection_script action) or use a performance plugin that does.',
    },
    'wordpress.no-page-cache': {
      title: 'No page caching',
      message: 'The HTML is sent as not cacheable, so every visit runs PHP and the database.',
      recommendation: 'Use a page cache plugin or a CDN that caches HTML for anonymous visitors.',
    },
  },
  de: {
    'speed.lcp-slow': {
      title: 'Langsamer Largest Contentful Paint',
      message: 'Auf {form_factor} erscheint der größte Inhalt erst nach {value_ms} (Ziel: {target_ms}).',
      recommendation:
        'Verkürzen Sie den Teil des LCP, der am längsten dauert (siehe „Was die Seite bremst“): ein langsamer Server, ein Bild, das der Browser spät findet, ein großes Bild oder eine Darstellung, die Stylesheets und Skripte aufhalten.',
    },
    'speed.lcp-discovery': {
      title: 'LCP-Bild spät angefordert',
      message: 'Der Browser fordert das LCP-Bild {element} nicht so früh an, wie er könnte.',
      recommendation: 'Lassen Sie den Browser das LCP-Bild mit hoher Priorität anfordern, sobald er das HTML liest.',
    },
    'speed.fcp-slow': {
      title: 'Langsamer First Contentful Paint',
      message: 'Auf {form_factor} erscheint der erste Inhalt erst nach {value_ms} (Ziel: {target_ms}).',
      recommendation:
        'Verkürzen Sie die Serverantwortzeit und entfernen Sie render-blockierendes CSS und JavaScript, damit der Browser früher zeichnen kann.',
    },
    'speed.tbt-high': {
      title: 'Hauptthread blockiert',
      message: 'Auf {form_factor} blockieren lange Aufgaben Eingaben insgesamt {value_ms} lang (Ziel: {target_ms}).',
      recommendation:
        'Teilen Sie lange JavaScript-Aufgaben auf, laden Sie nicht benötigte Skripte später und entfernen Sie ungenutzten Code.',
    },
    'speed.cls-high': {
      title: 'Layoutverschiebungen',
      message: 'Auf {form_factor} verschiebt sich das Layout um {value} (Ziel: {target}).',
      recommendation:
        'Geben Sie Bildern, Einbettungen und Anzeigen feste Abmessungen und fügen Sie keine Inhalte oberhalb des bereits Sichtbaren ein.',
    },
    'speed.performance-low': {
      title: 'Lighthouse-Performance-Wert',
      message: 'Auf {form_factor} bewertet Lighthouse die Performance mit {score} von 100 (gut: ab 90).',
      recommendation:
        'Arbeiten Sie die Befunde unten ab: Die Messwert-Befunde nennen die langsamen Zeiten, die Lighthouse gewichtet, die übrigen Befunde, was sie bremst.',
    },
    'speed.not-measured': {
      title: 'Geschwindigkeit nicht messbar',
      message:
        'Lighthouse konnte für {count} der 2 Gerätetypen keine Performance-Bewertung berechnen; jeder davon zählt in der Geschwindigkeit als 0.',
      recommendation:
        'Sorgen Sie dafür, dass die Seite ohne Eingabe Inhalte zeichnet (keine leere Seite, keine blockierende Vorschaltseite), und scannen Sie erneut.',
    },
    'speed.unreliable-measurement': {
      title: 'Messung möglicherweise ungenau',
      message:
        'Die Scan-Maschine war während des Scans ausgelastet (CPU-Benchmark {benchmark_index}); die Zeiten können zu hoch sein.',
      recommendation: 'Starten Sie den Scan mit force erneut, um die Werte zu bestätigen.',
    },
    'images.large-payload': {
      title: 'Schwere Bilder',
      message: 'Die Seite lädt {total_bytes} an Bildern in {count} Dateien.',
      recommendation:
        'Skalieren Sie Bilder auf die angezeigte Größe, komprimieren Sie sie und laden Sie Bilder außerhalb des sichtbaren Bereichs verzögert.',
    },
    'images.modern-format': {
      title: 'Bilder nicht in einem modernen Format',
      message: '{count} Bilder ({total_bytes}) sind JPEG, PNG oder GIF; WebP oder AVIF sparen etwa {wasted_bytes}.',
      recommendation:
        'Liefern Sie WebP- oder AVIF-Versionen aus; sie sind bei gleicher Qualität meist 25–50 % kleiner.',
    },
    'images.oversized': {
      title: 'Zu große oder schlecht komprimierte Bilder',
      message:
        'Etwa {wasted_bytes} ließen sich sparen, wenn die Bilder passend zur Anzeige skaliert und komprimiert wären.',
      recommendation: 'Erzeugen Sie responsive Größen (srcset) und komprimieren Sie Bilder vor dem Hochladen.',
    },
    'images.unsized': {
      title: 'Bilder ohne Abmessungen',
      message: '{count} Bilder haben weder Breite noch Höhe, daher springt das Layout beim Laden.',
      recommendation: 'Setzen Sie width und height (oder CSS aspect-ratio) für jedes Bild.',
    },
    'caching.short-lifetime': {
      title: 'Statische Dateien zu kurz gecacht',
      message:
        '{count} von {total} statischen Dateien ({total_bytes}) werden kürzer als einen Tag gecacht; ein erneuter Besuch lädt davon etwa {wasted_bytes} noch einmal.',
      recommendation:
        'Senden Sie Cache-Control: max-age=31536000, immutable für versionierte Dateien und mindestens einen Tag für andere.',
    },
    'caching.no-compression': {
      title: 'Text ohne Komprimierung',
      message:
        '{count} Textantworten ({total_bytes}) werden unkomprimiert gesendet; Komprimierung spart etwa {wasted_bytes}.',
      recommendation:
        'Aktivieren Sie gzip oder Brotli auf dem Server oder CDN für HTML, CSS, JavaScript, JSON und SVG.',
    },
    'caching.no-validators': {
      title: 'Keine Header zur Revalidierung',
      message: '{count} statische Dateien haben weder ETag noch Last-Modified.',
      recommendation:
        'Senden Sie ETag oder Last-Modified, damit abgelaufene Dateien mit einer kleinen 304-Antwort bestätigt werden können.',
    },
    'technical.http-error': {
      title: 'Die Seite liefert einen Fehler',
      message: 'Die Seite antwortete mit HTTP {status}.',
      recommendation: 'Beheben Sie den Fehler der Seite oder korrigieren Sie den Link, damit sie mit 200 antwortet.',
    },
    'technical.redirect-chain': {
      title: 'Weiterleitungen vor der Seite',
      message: 'Der Browser folgt {count} Weiterleitung(en), beginnend bei {first_url}, bevor die Seite lädt.',
      recommendation:
        'Verlinken Sie direkt auf die endgültige URL und behalten Sie höchstens eine Weiterleitung (etwa von http auf https).',
    },
    'technical.slow-server-response': {
      title: 'Langsame Serverantwort',
      message: 'Der Server brauchte {value_ms}, bis er mit der Antwort begann (Ziel: unter 600 ms).',
      recommendation:
        'Cachen Sie gerenderte Seiten, beschleunigen Sie Datenbankabfragen oder schalten Sie ein CDN vor den Server.',
    },
    'technical.old-http': {
      title: 'Veraltete HTTP-Version',
      message: '{count} Anfragen an die Website verwenden HTTP/1.x.',
      recommendation: 'Aktivieren Sie HTTP/2 oder HTTP/3 auf dem Server oder CDN.',
    },
    'technical.no-https': {
      title: 'Nicht über HTTPS ausgeliefert',
      message: 'Die Seite wird über unverschlüsseltes HTTP ausgeliefert.',
      recommendation: 'Liefern Sie die Website über HTTPS aus und leiten Sie HTTP dorthin weiter.',
    },
    'technical.no-hsts': {
      title: 'Kein HSTS-Header',
      message: 'Die Seite sendet keinen Strict-Transport-Security-Header.',
      recommendation: 'Senden Sie Strict-Transport-Security, damit Browser immer HTTPS verwenden.',
    },
    'technical.render-blocking': {
      title: 'Render-blockierende Ressourcen',
      message: '{count} Stylesheets oder Skripte verzögern die erste Darstellung.',
      recommendation: 'Betten Sie kritisches CSS ein, laden Sie den Rest asynchron und versehen Sie Skripte mit defer.',
    },
    'technical.large-dom': {
      title: 'Großes DOM',
      message: 'Die Seite hat ein großes DOM, das Stil- und Layoutberechnungen verlangsamt.',
      recommendation: 'Entfernen Sie unnötige Hüllelemente und rendern Sie lange Listen erst bei Bedarf.',
    },
    'technical.no-viewport': {
      title: 'Kein mobiler Viewport',
      message: 'Die Seite hat kein passendes Viewport-Meta-Tag.',
      recommendation: 'Fügen Sie <meta name="viewport" content="width=device-width, initial-scale=1"> ein.',
    },
    'technical.legacy-javascript': {
      title: 'Veraltetes JavaScript',
      message: 'Polyfills oder Transformationen werden an Browser gesendet, die sie nicht brauchen ({count} Skripte).',
      recommendation: 'Bauen Sie für moderne Browser und lassen Sie Polyfills für unterstützte Funktionen weg.',
    },
    'technical.unused-javascript': {
      title: 'Ungenutztes JavaScript',
      message: '{count} Skripte werden geladen, aber beim Laden größtenteils nicht verwendet.',
      recommendation: 'Teilen Sie Bundles auf und laden Sie Code nur dort, wo er gebraucht wird.',
    },
    'technical.font-display': {
      title: 'Text unsichtbar, solange Webschriften laden',
      message: '{count} Webschrift(en) verbergen den Text, bis sie geladen sind.',
      recommendation:
        'Ergänzen Sie ihre @font-face-Regeln um font-display: swap (oder optional, das auch eine Layoutverschiebung vermeidet).',
    },
    'technical.duplicated-javascript': {
      title: 'Doppeltes JavaScript',
      message: '{count} Modul(e) stecken in mehr als einem Skript, ihr Code wird also mehrfach geladen.',
      recommendation:
        'Bündeln Sie jedes Modul nur einmal (ein gemeinsamer Chunk) und gleichen Sie die Versionen an, von denen die Bundles abhängen.',
    },
    'technical.request-chains': {
      title: 'Kette kritischer Anfragen',
      message:
        'Die längste Kette kritischer Anfragen hat {length} Anfragen, jede erst gefunden, als die vorige angekommen war; sie endet nach {duration_ms}.',
      recommendation:
        'Verkürzen Sie die Kette: Verweisen Sie im HTML auf das, womit sie endet (oder laden Sie es vor), betten Sie Kleines ein und laden Sie später, was die erste Ansicht nicht braucht.',
    },
    'technical.third-party-facades': {
      title: 'Drittanbieter-Einbettungen, die eine Fassade ersetzen könnte',
      message:
        '{count} Einbettung(en) von Drittanbietern ({product} zuerst) laden vollständig, obwohl eine leichte Fassade sie vertreten könnte, bis Besucher sie nutzen.',
      recommendation:
        'Zeigen Sie eine Fassade (eine statische Vorschau) und laden Sie die Einbettung erst beim Klick; die Einträge nennen bekannte Fassaden.',
    },
    'technical.document-write': {
      title: 'document.write() beim Laden der Seite',
      message:
        'Die Seite macht beim Laden {count} Aufruf(e) von document.write(), den ersten in {first_url} in Zeile {line}, Spalte {column}.',
      recommendation:
        'Fügen Sie den Inhalt stattdessen mit DOM-Methoden ein (append, insertAdjacentHTML) und laden Sie Skripte mit async oder defer: Was document.write() schreibt, hält den HTML-Parser auf, und bei langsamen Verbindungen lädt Chromium Skripte anderer Websites, die es schreibt, gar nicht.',
    },
    'technical.bf-cache-blocked': {
      title: 'Seite nicht aus dem Back/Forward-Cache wiederhergestellt',
      message:
        'Wer zur Seite zurückkehrt, wartet, bis sie neu geladen ist: {count} Grund/Gründe halten sie aus dem Back/Forward-Cache, {actionable} davon liegen an der Seite.',
      recommendation:
        'Beseitigen Sie, was die Seite aus dem Back/Forward-Cache hält (die Einträge nennen die Gründe von Chromium).',
    },
    'technical.blocked-requests': {
      title: 'Anfragen an interne Adressen nicht ausgeführt',
      message:
        'Die Seite verweist auf {count} private oder reservierte Adresse(n), zuerst {first_target}; Scans erreichen keine internen Netze, daher wurden diese Anfragen nicht ausgeführt und fehlen in diesem Ergebnis.',
      recommendation:
        'Liefern Sie, was Besucher brauchen, von öffentlichen Adressen aus und entfernen Sie Verweise auf interne Hosts aus der Seite.',
    },
    'wordpress.version-exposed': {
      title: 'WordPress-Version sichtbar',
      message: 'Die Seite nennt WordPress {version} im Generator-Tag.',
      recommendation:
        'Entfernen Sie das Generator-Tag (remove_action wp_head wp_generator) und halten Sie WordPress aktuell.',
    },
    'wordpress.many-plugins': {
      title: 'Viele Plugins auf der Seite',
      message: '{count} Plugins laden Dateien auf dieser Seite.',
      recommendation:
        'Entfernen Sie ungenutzte Plugins und laden Sie Plugin-Dateien nur auf den Seiten, die sie brauchen.',
    },
    'wordpress.jquery-migrate': {
      title: 'jquery-migrate geladen',
      message: 'Die Seite lädt jquery-migrate, das aktuelle Themes selten brauchen.',
      recommendation: 'Testen Sie ohne und entfernen Sie es, wenn nichts kaputtgeht.',
    },
    'wordpress.emoji-script': {
      title: 'Emoji-Skript geladen',
      message: 'Das Emoji-Skript von WordPress wird geladen, obwohl Browser Emojis selbst darstellen.',
      recommendation:
        'Deaktivieren Sie es (Aktion print_emoji_detection_script entfernen) oder nutzen Sie ein Performance-Plugin, das dies tut.',
    },
    'wordpress.no-page-cache': {
      title: 'Kein Seiten-Cache',
      message: 'Das HTML wird als nicht cachebar gesendet, daher läuft bei jedem Besuch PHP mit Datenbank.',
      recommendation: 'Verwenden Sie ein Seiten-Cache-Plugin oder ein CDN, das HTML für anonyme Besucher cacht.',
    },
  },
};

export const FORM_FACTOR_NAMES: Record<Locale, Record<string, string>> = {
  en: { desktop: 'desktop', mobile: 'mobile' },
  de: { desktop: 'Desktop', mobile: 'Mobilgeräten' },
};
