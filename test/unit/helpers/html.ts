// Reading a generated page as a browser would (parse5 is the HTML5 parsing algorithm), to check what is
// an element, an attribute or a link — not what the text looks like.
import { parse } from 'parse5';

export interface ParsedElement {
  tag: string;
  attrs: Record<string, string>;
  text: string;
}

interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  value?: string;
  childNodes?: Node[];
  content?: Node;
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') {
    return node.value ?? '';
  }
  return (node.childNodes ?? []).map(textOf).join('');
}

/** Every element of the page, in document order, with its attributes and text. */
export function elements(html: string): ParsedElement[] {
  const out: ParsedElement[] = [];
  const walk = (node: Node) => {
    if (node.tagName) {
      out.push({
        tag: node.tagName,
        attrs: Object.fromEntries((node.attrs ?? []).map((a) => [a.name, a.value])),
        text: textOf(node),
      });
    }
    (node.childNodes ?? []).forEach(walk);
    if (node.content) {
      walk(node.content);
    }
  };
  walk(parse(html) as unknown as Node);
  return out;
}

/** The page's visible text (the body's, scripts excluded). */
export function bodyText(html: string): string {
  const body = elements(html).find((e) => e.tag === 'body');
  const scripts = elements(html).filter((e) => e.tag === 'script');
  return scripts.reduce((t, s) => t.replace(s.text, ''), body?.text ?? '');
}
