/**
 * A small XML reader for the JUnit reports `model-access merge` reads: elements, attributes, character data,
 * comments, CDATA and the XML declaration — no DTD, no entity but the five and character references. One
 * pass over the text with `indexOf` and character loops, never a backtracking regular expression, so a
 * hostile or truncated file (a thousand unclosed tags, a bad reference, megabytes without a `>`) costs time
 * linear in its length and ends in a message that says what is wrong and on which line. No `vscode` import.
 */

export interface XmlElement {
  name: string;
  /** A Map: an attribute called `__proto__` or `constructor` is an attribute like any other. */
  attributes: Map<string, string>;
  children: XmlElement[];
  /** The character data directly inside the element (the text between its children, joined). */
  text: string;
  /** 1-based, for messages. */
  line: number;
}

/** A JUnit report nests five deep (testsuites, testsuite, testcase, properties, property); other tools' a few more. */
const MAX_DEPTH = 32;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The code points XML 1.0 allows in a document (a character reference to anything else is an error). */
function xmlAllows(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Thrown inside the reader; `readXml` turns it into its message. */
class XmlProblem extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

/** What a reference or text piece says, clipped so a message never quotes megabytes. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * `text` with the five entities and character references replaced; a `&` that starts none of them, or a
 * reference to a character XML does not allow, is an error (at `offset + ` its index).
 */
function unescapeAt(text: string, offset: number): string {
  let amp = text.indexOf('&');
  if (amp < 0) {
    return text;
  }
  let out = '';
  let from = 0;
  while (amp >= 0) {
    out += text.slice(from, amp);
    // The longest reference is `&#x10FFFF;` (10 characters) or `&quot;`: look no further than that.
    const semi = text.indexOf(';', amp + 1);
    const body = semi < 0 || semi - amp > 10 ? undefined : text.slice(amp + 1, semi);
    let value: string | undefined;
    if (body !== undefined) {
      if (Object.prototype.hasOwnProperty.call(NAMED, body)) {
        value = NAMED[body];
      } else if (/^#[0-9]{1,7}$/.test(body) || /^#x[0-9a-fA-F]{1,6}$/.test(body)) {
        const cp = body[1] === 'x' ? parseInt(body.slice(2), 16) : Number(body.slice(1));
        if (!xmlAllows(cp)) {
          throw new XmlProblem(`the character reference &${body}; names a character XML does not allow`, offset + amp);
        }
        value = String.fromCodePoint(cp);
      }
    }
    if (value === undefined) {
      throw new XmlProblem(
        `${quote(text.slice(amp, Math.min(text.length, amp + 12)))} is not a reference XML knows (a bare & must be written &amp;)`,
        offset + amp,
      );
    }
    out += value;
    from = semi + 1;
    amp = text.indexOf('&', from);
  }
  return out + text.slice(from);
}

/** The five entities and character references replaced; throws a message on a malformed one. */
export function xmlUnescape(text: string): string {
  try {
    return unescapeAt(text, 0);
  } catch (e) {
    throw e instanceof XmlProblem ? new Error(e.message) : e;
  }
}

function isNameStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a || c > 0x7f;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x9 || c === 0xa || c === 0xd;
}

/** The document's root element, or what makes the text not well-formed XML (with its line). */
export function readXml(xml: string): XmlElement | string {
  try {
    return read(xml);
  } catch (e) {
    if (e instanceof XmlProblem) {
      return `${e.message} (line ${lineAt(xml, e.at)})`;
    }
    throw e;
  }
}

function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
  }
  return line;
}

function read(xml: string): XmlElement {
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  // The next line feed not yet counted (-1: none is left); found once each, so counting stays linear.
  let nextLineFeed = xml.indexOf('\n');
  /** The line of position `at` (positions only grow). */
  const lineOf = (at: number) => {
    while (nextLineFeed >= 0 && nextLineFeed < at) {
      line++;
      nextLineFeed = xml.indexOf('\n', nextLineFeed + 1);
    }
    return line;
  };
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const text = (piece: string, at: number) => {
    const top = stack[stack.length - 1];
    if (top) {
      top.text += piece;
    } else if (piece.trim() !== '') {
      throw new XmlProblem(`text ${quote(piece.trim())} stands outside the root element`, at);
    }
  };
  const name = (at: number): string => {
    if (!isNameStart(xml.charCodeAt(at))) {
      throw new XmlProblem(`a tag without a name`, at);
    }
    let end = at + 1;
    while (end < xml.length && isNameChar(xml.charCodeAt(end))) {
      end++;
    }
    return xml.slice(at, end);
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) {
      text(unescapeAt(xml.slice(i), i), i);
      break;
    }
    if (lt > i) {
      text(unescapeAt(xml.slice(i, lt), i), i);
    }
    if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt + 2);
      if (end < 0) {
        throw new XmlProblem('the declaration <?… is never closed', lt);
      }
      i = end + 2;
    } else if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) {
        throw new XmlProblem('a comment <!-- is never closed', lt);
      }
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      if (end < 0) {
        throw new XmlProblem('a <![CDATA[ section is never closed', lt);
      }
      text(xml.slice(lt + 9, end), lt);
      i = end + 3;
    } else if (xml.startsWith('<!', lt)) {
      // A DOCTYPE could declare entities; no report of ours has one.
      throw new XmlProblem('a <!DOCTYPE or other declaration, which a JUnit report of model-access has none of', lt);
    } else if (xml.startsWith('</', lt)) {
      const closing = name(lt + 2);
      let end = lt + 2 + closing.length;
      while (end < xml.length && isSpace(xml.charCodeAt(end))) {
        end++;
      }
      if (xml[end] !== '>') {
        throw new XmlProblem(`the closing tag </${closing} is not ended by >`, lt);
      }
      const open = stack.pop();
      if (!open) {
        throw new XmlProblem(`</${closing}> closes nothing`, lt);
      }
      if (open.name !== closing) {
        throw new XmlProblem(`</${closing}> where </${open.name}> (opened on line ${open.line}) was expected`, lt);
      }
      i = end + 1;
    } else {
      const element: XmlElement = {
        name: name(lt + 1),
        attributes: new Map(),
        children: [],
        text: '',
        line: lineOf(lt),
      };
      let at = lt + 1 + element.name.length;
      let selfClosing = false;
      for (;;) {
        const spaced = at;
        while (at < xml.length && isSpace(xml.charCodeAt(at))) {
          at++;
        }
        if (at >= xml.length) {
          throw new XmlProblem(`the tag <${element.name} is never closed by >`, lt);
        }
        if (xml[at] === '>') {
          at++;
          break;
        }
        if (xml.startsWith('/>', at)) {
          selfClosing = true;
          at += 2;
          break;
        }
        if (at === spaced || !isNameStart(xml.charCodeAt(at))) {
          throw new XmlProblem(
            `the tag <${element.name} holds ${quote(xml.slice(at, at + 20))} where an attribute, > or /> belongs`,
            at,
          );
        }
        const attribute = name(at);
        at += attribute.length;
        while (at < xml.length && isSpace(xml.charCodeAt(at))) {
          at++;
        }
        if (xml[at] !== '=') {
          throw new XmlProblem(`the attribute ${attribute} of <${element.name}> has no ="value"`, at);
        }
        at++;
        while (at < xml.length && isSpace(xml.charCodeAt(at))) {
          at++;
        }
        const q = xml[at];
        if (q !== '"' && q !== "'") {
          throw new XmlProblem(`the value of ${attribute} in <${element.name}> is not in quotes`, at);
        }
        const close = xml.indexOf(q, at + 1);
        if (close < 0) {
          throw new XmlProblem(`the value of ${attribute} in <${element.name}> is never closed by its quote`, at);
        }
        const raw = xml.slice(at + 1, close);
        const lessThan = raw.indexOf('<');
        if (lessThan >= 0) {
          throw new XmlProblem(`the value of ${attribute} in <${element.name}> holds a raw <`, at + 1 + lessThan);
        }
        if (element.attributes.has(attribute)) {
          throw new XmlProblem(`<${element.name}> has the attribute ${attribute} twice`, at);
        }
        element.attributes.set(attribute, unescapeAt(raw, at + 1));
        at = close + 1;
      }
      const parent = stack[stack.length - 1];
      if (parent) {
        parent.children.push(element);
      } else if (root) {
        throw new XmlProblem(`a second root element <${element.name}> after </${root.name}>`, lt);
      } else {
        root = element;
      }
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) {
          throw new XmlProblem(`elements nested more than ${MAX_DEPTH} deep, deeper than any JUnit report`, lt);
        }
        stack.push(element);
      }
      i = at;
    }
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) {
    throw new XmlProblem(
      `the file ends inside <${unclosed.name}> opened on line ${unclosed.line} (was the report cut short?)`,
      xml.length,
    );
  }
  if (!root) {
    throw new XmlProblem('no element at all', xml.length);
  }
  return root;
}
