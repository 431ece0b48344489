// The Hug Maze game process for puzzle-qa (docs/protocol.md): reads one JSON
// request per line from stdin, writes one JSON reply per line to stdout, and
// exits when stdin closes. Stderr is left for the game's own messages.

import { Session } from './protocol';

const session = new Session();
let pending = '';

function answer(line: string): void {
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.trim() === '') return;
  process.stdout.write(session.handle(line) + '\n');
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let nl = pending.indexOf('\n');
  while (nl >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    answer(line);
    nl = pending.indexOf('\n');
  }
});
process.stdin.on('end', () => {
  // A last request with no newline after it is still a request.
  if (pending !== '') answer(pending);
  pending = '';
  // Nothing else keeps the process alive: it exits once stdout is flushed.
});
// The harness went away: nobody is left to answer.
process.stdout.on('error', () => process.exit(0));
