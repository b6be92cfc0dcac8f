/**
 * Rewrites positional `?` placeholders to PostgreSQL's `$1…$n`, leaving alone a `?` inside a
 * single-quoted string (also `E'…'` with backslash escapes), a double-quoted identifier, a
 * dollar-quoted string or a comment.
 * @example
 * toPostgresPlaceholders("SELECT * FROM t WHERE a = ? AND b = '?'"); // "SELECT * FROM t WHERE a = $1 AND b = '?'"
 */
export function toPostgresPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    if (ch === '?') {
      out += `$${++n}`;
      i++;
    } else if (ch === "'") {
      const escapes = i > 0 && /[eE]/.test(sql[i - 1] as string) && !/[\w$]/.test(sql[i - 2] ?? ' ');
      let j = i + 1;
      while (j < sql.length) {
        if (escapes && sql[j] === '\\') j += 2;
        else if (sql[j] === "'" && sql[j + 1] === "'") j += 2;
        else if (sql[j] === "'") break;
        else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '"') {
      const end = sql.indexOf('"', i + 1);
      const j = end < 0 ? sql.length : end;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      const j = end < 0 ? sql.length : end;
      out += sql.slice(i, j);
      i = j;
    } else if (ch === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      const j = end < 0 ? sql.length : end + 2;
      out += sql.slice(i, j);
      i = j;
    } else if (ch === '$' && !/[\w$]/.test(sql[i - 1] ?? ' ')) {
      const tag = /^\$([A-Za-z_][\w]*)?\$/.exec(sql.slice(i));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        const j = end < 0 ? sql.length : end + tag[0].length;
        out += sql.slice(i, j);
        i = j;
      } else {
        out += ch;
        i++;
      }
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
