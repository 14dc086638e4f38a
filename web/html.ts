/** HTML built by a tagged template that escapes every interpolation unless it is already SafeHtml. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | null | undefined | boolean | Interpolation[];

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f8fa; }
  header { background: #0b3d91; color: #fff; padding: .75rem 1.5rem; display: flex; justify-content: space-between; align-items: center; }
  header a { color: #fff; }
  header button { color: #fff; background: transparent; border: 1px solid #fff; border-radius: 4px; margin: 0 0 0 .5rem; }
  main { max-width: 60rem; margin: 2rem auto; padding: 0 1.5rem; }
  section { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 1.25rem 1.5rem; margin-bottom: 1.5rem; overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #eaeef2; font-size: .92rem; }
  label { display: block; margin: .5rem 0 .2rem; font-weight: 600; }
  input[type=text], input[type=email], input[type=password], input[type=date] { padding: .45rem; width: 100%; max-width: 24rem; box-sizing: border-box; }
  button { padding: .45rem .9rem; margin-top: .75rem; cursor: pointer; }
  .error { color: #b3261e; } .notice { background: #dafbe1; border: 1px solid #4ac26b; padding: .75rem; border-radius: 6px; }
  code.token { display: block; font-size: 1.05rem; padding: .5rem; background: #fff8c5; word-break: break-all; }
  .inline { display: inline; } .inline button { margin: 0; }
`;

/** `lang`: the page's language for <html lang> (screen readers pick their voice from it); English by default. */
export function layout(title: string, body: SafeHtml, options: { signedInAs?: string; csrf?: string; lang?: string } = {}): string {
  const nav = options.signedInAs
    ? html`<span>${options.signedInAs} · <a href="/account/api">API and apps</a>
        <form class="inline" method="post" action="/logout"><input type="hidden" name="_csrf" value="${options.csrf ?? ''}"><button type="submit">Sign out</button></form></span>`
    : html`<span><a href="/login">Sign in</a> · <a href="/signup">Sign up</a></span>`;
  return `<!doctype html>${html`<html lang="${options.lang ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · WebPerf</title><style>${new SafeHtml(STYLE)}</style></head>
<body><header><strong>WebPerf</strong>${nav}</header><main>${body}</main></body></html>`.value}`;
}
