import * as assert from 'node:assert/strict';
import { htmlLine, readErrorBody } from '../../../src/api/errorBody';

describe('api/errorBody', () => {
  it('makes the message one line of at most 300 characters, controls and line separators included', () => {
    const msg = (m: string) => readErrorBody(JSON.stringify({ message: m })).message;
    assert.equal(msg('  a\r\n\tb\u0000c\u007fd\u0085e\u2028f\u2029g  '), 'a b c d e f g');
    assert.equal(msg('x'.repeat(300)), 'x'.repeat(300));
    assert.equal(msg('x'.repeat(301)), `${'x'.repeat(299)}…`);
    assert.equal(readErrorBody(`plain ${'y'.repeat(400)}`).message?.length, 300);
  });

  it('picks the title of an HTML page, else its first h1-h3, else its text without scripts and styles', () => {
    assert.equal(htmlLine('<title lang="en">T</title><h1>H</h1>'), 'T');
    assert.equal(htmlLine('<TITLE>Upper</TITLE>'), 'Upper');
    assert.equal(htmlLine('<title> </title><h2 class="x">Heading <b>two</b></h2>'), 'Heading two');
    assert.equal(htmlLine('<h3>Three</h3>'), 'Three');
    assert.equal(htmlLine('<h4>Four</h4><p>body</p>'), 'Four body');
    assert.equal(htmlLine('<script type="x">var a = 1;</script><STYLE>p{}</STYLE><p>Bad  gateway</p>'), 'Bad gateway');
    assert.equal(htmlLine('<p></p>'), '');
  });

  it('reads a page that starts after blank lines as HTML, whatever its content type says', () => {
    const page = readErrorBody('\n  <html><head><title>Bad Gateway</title></head><body>nginx</body></html>', {
      'content-type': 'text/plain',
    });
    assert.deepEqual([page.html, page.message], [true, 'Bad Gateway']);
  });

  it('takes the first h1-h3 of a page whole, attributes, line breaks and all, not the text around it', () => {
    const page =
      '<head><meta charset="utf-8"></head><body><nav>Home</nav>' +
      '<h1 class="err">502\nBad Gateway</h1><p>nginx</p></body>';
    assert.equal(htmlLine(page), '502 Bad Gateway');
    assert.equal(htmlLine('<p>Service<script>var x = 1;</script>unavailable</p>'), 'Service unavailable');
  });

  it('decodes the common entities, in any case, and leaves unknown ones', () => {
    assert.equal(
      htmlLine('<title>&amp; &lt; &gt; &quot; &apos; &#39; a&nbsp;b &AMP; &copy; &#169;</title>'),
      "& < > \" ' ' a b & &copy; &#169;",
    );
  });

  it('looks only at the first 64 KiB of a page', () => {
    const pad = `<html><body>${'<p>x</p>'.repeat(7000)}`;
    assert.ok(pad.length < 65536 && pad.length > 50000);
    assert.equal(htmlLine(`${pad}<title>near</title>`), 'near');
    assert.notEqual(htmlLine(`${pad}${' '.repeat(65536 - pad.length)}<title>far</title>`), 'far');
  });

  it('recognizes HTML by its content type or its first tag, and says so', () => {
    assert.deepEqual(readErrorBody('<!DOCTYPE html><title>Gateway</title>'), {
      html: true,
      message: 'Gateway',
      code: undefined,
    });
    assert.deepEqual(readErrorBody('  <HTML><h1>Down</h1></HTML>'), { html: true, message: 'Down', code: undefined });
    assert.deepEqual(readErrorBody('<head><title>t</title></head>'), { html: true, message: 't', code: undefined });
    assert.deepEqual(readErrorBody('<body>b</body>'), { html: true, message: 'b', code: undefined });
    assert.deepEqual(readErrorBody('<p>para</p>', { 'content-type': 'text/html; charset=utf-8' }), {
      html: true,
      message: 'para',
      code: undefined,
    });
    assert.deepEqual(readErrorBody('<p>para</p>', { 'content-type': 'TEXT/HTML' }), {
      html: true,
      message: 'para',
      code: undefined,
    });
    assert.deepEqual(readErrorBody('<p>para</p>'), { message: '<p>para</p>', code: undefined });
    assert.deepEqual(readErrorBody('<html><script>x</script></html>'), {
      html: true,
      message: undefined,
      code: undefined,
    });
  });

  it('takes HTML only from its content type or a first tag, after any leading white space', () => {
    assert.deepEqual(readErrorBody('Bad request: <body> is missing', { 'content-type': 'text/plain' }), {
      message: 'Bad request: <body> is missing',
      code: undefined,
    });
    assert.deepEqual(readErrorBody('\n  <!DOCTYPE html><title>Gateway</title>', { 'content-type': 'text/plain' }), {
      html: true,
      message: 'Gateway',
      code: undefined,
    });
    // An empty page says nothing, not even that it was HTML.
    assert.deepEqual(readErrorBody('', { 'content-type': 'text/html' }), { message: undefined, code: undefined });
  });

  it('reads a body that is only a number or a JSON string as the message', () => {
    assert.equal(readErrorBody('503', { 'content-type': 'text/plain' }).message, '503');
    assert.equal(readErrorBody('"Invalid API key"', { 'content-type': 'application/json' }).message, 'Invalid API key');
    assert.equal(readErrorBody('"  "', { 'content-type': 'application/json' }).message, undefined);
  });

  it('reads plain text as its first non-blank line', () => {
    assert.equal(readErrorBody('\r\n  \r\nfirst line\r\nsecond').message, 'first line');
    assert.equal(readErrorBody('   ').message, undefined);
    assert.equal(readErrorBody('not json {').message, 'not json {');
  });

  it('parses JSON announced by the content type even when it starts otherwise', () => {
    assert.equal(readErrorBody(' \n{"message":"m"}').message, 'm');
    assert.equal(readErrorBody('[{"error":{"message":"in array"}}]').message, 'in array');
    assert.equal(readErrorBody('{"message":"m"', { 'content-type': 'application/json' }).message, '{"message":"m"');
    assert.equal(readErrorBody('{"message":"m"}', { 'content-type': ['application/json', 'text/plain'] }).message, 'm');
  });

  it('prefers error.message, then error, message, title: detail, detail, error_description, errors[0], title', () => {
    const msg = (body: unknown) => readErrorBody(JSON.stringify(body)).message;
    const all = {
      error: { message: 'e.message', detail: 'e.detail' },
      message: 'message',
      title: 'Title',
      detail: 'detail',
      error_description: 'description',
      errors: [{ message: 'errors.message', detail: 'errors.detail' }],
    };
    assert.equal(msg(all), 'e.message');
    assert.equal(msg({ ...all, error: 'plain error' }), 'plain error');
    assert.equal(msg({ ...all, error: { detail: 'e.detail' } }), 'message');
    const { message: _m, ...noMessage } = all;
    assert.equal(msg({ ...noMessage, error: { detail: 'e.detail' } }), 'Title: detail');
    assert.equal(msg({ title: 'Not Found', detail: 'Not Found: model x' }), 'Not Found: model x');
    assert.equal(msg({ detail: 'detail', error_description: 'd' }), 'detail');
    assert.equal(msg({ error_description: 'description', errors: [{ message: 'm' }] }), 'description');
    assert.equal(msg({ errors: [{ message: 'errors.message', detail: 'd' }], title: 't' }), 'errors.message');
    assert.equal(msg({ errors: [{ detail: 'errors.detail' }], title: 't' }), 'errors.detail');
    assert.equal(msg({ errors: 'not a list', title: 'only title' }), 'only title');
    assert.equal(msg({ error: { detail: 'e.detail' } }), 'e.detail');
    assert.equal(msg({ error: { message: '  ' }, message: 'fallback' }), 'fallback');
    assert.equal(msg({ message: 'multi\nline\tmessage' }), 'multi line message');
    assert.equal(msg({ message: 503 }), '503');
    assert.equal(msg({ message: 1e999 }), undefined);
    // JSON reads an out-of-range number as Infinity, which is no message.
    assert.equal(readErrorBody('{"message":1e999,"code":-1e999}').message, undefined);
    assert.equal(readErrorBody('{"message":1e999,"code":-1e999}').code, undefined);
  });

  it('joins a FastAPI list of details, reading msg, message or plain strings', () => {
    const msg = (detail: unknown) => readErrorBody(JSON.stringify({ detail })).message;
    assert.equal(msg([{ msg: 'a' }, { message: 'b' }, 'c', { other: 1 }, 4]), 'a; b; c; 4');
    assert.equal(msg([]), undefined);
    assert.equal(msg([{ other: 1 }]), undefined);
  });

  it('reads the code from error.code, error_code, code, error.status, errors[0].code', () => {
    const code = (body: unknown) => readErrorBody(JSON.stringify(body)).code;
    assert.equal(code({ error: { code: 'a', status: 's' }, error_code: 'b', code: 'c' }), 'a');
    assert.equal(code({ error_code: 'b', code: 'c' }), 'b');
    assert.equal(code({ code: 'c', errors: [{ code: 'x' }] }), 'c');
    assert.equal(code({ error: { status: 'NOT_FOUND' }, errors: [{ code: 'x' }] }), 'NOT_FOUND');
    assert.equal(code({ errors: [{ code: 'E1' }] }), 'E1');
  });

  it('reads the type from error.type, or a top-level type other than "error"', () => {
    const type = (body: unknown) => readErrorBody(JSON.stringify(body)).type;
    assert.equal(type({ type: 'top', error: { type: 'inner' } }), 'inner');
    assert.equal(type({ type: 'https://problems/quota' }), 'https://problems/quota');
    assert.equal(type({ type: 'error' }), undefined);
  });

  it('falls back to x-error-message and x-error-code headers, never over the body', () => {
    const headers = { 'x-error-message': ['From header', 'second'], 'x-error-code': 'HCode' };
    assert.deepEqual(readErrorBody('{}', headers), { message: 'From header', code: 'HCode', type: undefined });
    assert.deepEqual(readErrorBody('{"message":"body","code":"B"}', headers), {
      message: 'body',
      code: 'B',
      type: undefined,
    });
    assert.deepEqual(readErrorBody('plain text', headers), { message: 'From header', code: 'HCode' });
    assert.deepEqual(readErrorBody('', { 'x-error-message': '  ' }), { message: undefined, code: undefined });
  });
});
