/**
 * What a waiting command shows: on a terminal, one line redrawn with a spinner and the elapsed time; anywhere
 * else (CI logs), a plain line each time the state changes. Always on stderr, so stdout stays the report.
 */
export interface Progress {
  update(state: string): void;
  done(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function progress(stream: NodeJS.WriteStream, label: string, quiet: boolean): Progress {
  const started = Date.now();
  const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
  if (quiet) return { update: () => undefined, done: () => undefined };
  if (!stream.isTTY) {
    let last = '';
    return {
      update(state) {
        if (state !== last) stream.write(`${label}: ${state} (${seconds()})\n`);
        last = state;
      },
      done: () => undefined,
    };
  }
  let state = 'starting';
  let frame = 0;
  const draw = () => stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${label}: ${state} (${seconds()})`);
  const timer = setInterval(draw, 100);
  return {
    update(next) {
      state = next;
      draw();
    },
    done() {
      clearInterval(timer);
      stream.write('\r\x1b[2K');
    },
  };
}
