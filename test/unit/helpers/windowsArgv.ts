/** Windows test helpers: how a program built with the Microsoft C runtime splits its command line. */

/**
 * The Microsoft C runtime's argv parsing (what curl.exe's main receives): whitespace separates outside quotes;
 * 2n backslashes + " → n backslashes and a quote toggle; 2n+1 backslashes + " → n backslashes and a literal
 * quote; other backslashes are literal; inside quotes, "" is a literal quote (the runtime since 2008).
 */
export function crtArgv(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let started = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\') {
      let n = 0;
      while (line[i] === '\\') {
        n++;
        i++;
      }
      if (line[i] === '"') {
        current += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) {
          current += '"';
        } else {
          quoted = !quoted;
        }
      } else {
        current += '\\'.repeat(n);
        i--;
      }
      started = true;
    } else if (ch === '"') {
      // Inside quotes, "" is a literal quote (the runtime since 2008).
      if (quoted && line[i + 1] === '"') {
        current += '"';
        i++;
      } else {
        quoted = !quoted;
      }
      started = true;
    } else if (!quoted && (ch === ' ' || ch === '\t')) {
      if (started) {
        args.push(current);
      }
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) {
    args.push(current);
  }
  return args;
}
