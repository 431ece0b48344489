// The Hug Maze game process for puzzle-qa (docs/protocol.md): reads one JSON
// request per line from stdin, writes one JSON reply per line to stdout, and
// exits when stdin closes. Stderr is left for the game's own messages.
//
// Each reply is one write of a view of the session's reply buffer, which the
// next reply overwrites. A write to a pipe that the reader has not emptied
// yet stays queued, pointing at those bytes, so no further request is
// answered until it has gone out: stdin is paused meanwhile, and replies stay
// one per line, in order. (The harness asks one request at a time and reads
// the whole reply first, so it never waits on this.)

import { Session } from './protocol';

const session = new Session();
/** What stdin has sent that is not yet answered: whole lines, then perhaps the start of one. */
let pending = '';
/** stdin has closed. */
let ended = false;
/** A reply is still queued in stdout: the session's buffer is not to be written over yet. */
let flushing = false;

/** Answers every whole line pending, until a reply has to wait for stdout. */
function pump(): void {
  while (!flushing) {
    const nl = pending.indexOf('\n');
    if (nl < 0) break;
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    answer(line);
  }
  // A last request with no newline after it is still a request.
  if (ended && !flushing && pending !== '') {
    const line = pending;
    pending = '';
    answer(line);
  }
}

function answer(line: string): void {
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.trim() === '') return;
  process.stdout.write(session.reply(line), flushed);
  // Written at once (the usual case) leaves nothing queued; otherwise wait.
  if (process.stdout.writableLength > 0) {
    flushing = true;
    process.stdin.pause();
  }
}

/** A reply has gone out; once nothing is queued, answering goes on. */
function flushed(error?: Error | null): void {
  if (error || !flushing || process.stdout.writableLength > 0) return; // an error ends the process below
  flushing = false;
  if (!ended) process.stdin.resume();
  pump();
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  pump();
});
process.stdin.on('end', () => {
  ended = true;
  pump();
  // Nothing else keeps the process alive: it exits once stdout is flushed.
});
// The harness went away: nobody is left to answer.
process.stdout.on('error', () => process.exit(0));
