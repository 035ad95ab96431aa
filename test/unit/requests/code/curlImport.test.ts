import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { importCurl } from '../../../../src/requests/code/core/curlImport';
import { curlBash, curlPowerShell } from '../../../../src/requests/code/core/codeSnippets/curl';

const KEY = 'sk-secret-123';
const ROOT = 'https://models.example.com/api';

function ok(text: string, root: string | undefined = ROOT) {
  const r = importCurl(text, root);
  assert.ok(r.ok, `not imported: ${r.ok ? '' : r.message}`);
  return r;
}

function refused(text: string, pattern: RegExp) {
  const r = importCurl(text, ROOT);
  assert.ok(!r.ok, 'imported');
  assert.match(r.message, pattern);
  assert.ok(!r.message.includes(KEY));
}

describe('requests: Import cURL', () => {
  it('bash: line continuations, -X POST, -H, -d with single quotes; the Authorization header is dropped with a note', () => {
    const r = ok(
      `curl -X POST ${ROOT}/v1/chat \\\n  -H "Authorization: Bearer ${KEY}" \\\n  -H 'Content-Type: application/json' \\\n  -d '{"model":"aurora-1","messages":[{"role":"user","content":"it'\\''s $HOME"}]}'`,
    );
    assert.equal(r.endpoint, '/v1/chat');
    assert.deepEqual(JSON.parse(r.json), {
      model: 'aurora-1',
      messages: [{ role: 'user', content: "it's $HOME" }],
    });
    assert.equal(r.json, JSON.stringify(JSON.parse(r.json), null, 2), 'pretty-printed');
    assert.equal(r.notes.length, 1);
    assert.match(r.notes[0], /Authorization header was dropped/);
    assert.ok(!JSON.stringify(r).includes(KEY), 'the key is nowhere in the result');
  });

  it('PowerShell: backtick continuations, curl.exe, doubled quotes, $env: left as written', () => {
    const r = ok(
      'curl.exe -sS -X POST \'https://other.example/v1/responses\' `\n  -H "Authorization: Bearer $env:MODEL_ACCESS_API_KEY" `\n  --data-raw \'{"model":"m","input":"it\'\'s"}\'',
    );
    assert.equal(r.endpoint, '/v1/responses');
    assert.deepEqual(JSON.parse(r.json), { model: 'm', input: "it's" });
    assert.ok(r.notes.some((n) => /another server/.test(n)));
  });

  it('--json, --data, --data-raw, -d attached, -XPOST bundles, and a URL without the base (a path, or $VARIABLE)', () => {
    assert.equal(ok(`curl --json '{"model":"m","input":["a"]}' ${ROOT}/v1/embeddings`).endpoint, '/v1/embeddings');
    assert.equal(
      ok(`curl --data '{"model":"m","input":"a"}' "$MODEL_ACCESS_BASE_URL/v1/responses"`).endpoint,
      '/v1/responses',
    );
    assert.equal(ok(`curl -sSXPOST -d'{"model":"m","input":"a"}' /v1/responses/`).endpoint, '/v1/responses');
    assert.equal(
      ok(`curl --request=POST --url ${ROOT}/v1/chat --data-raw '{"model":"m","messages":[]}'`).endpoint,
      '/v1/chat',
    );
    assert.equal(ok(`$ curl https://localhost:8123/v1/chat -d '{"a":1}' | jq .`, undefined).endpoint, '/v1/chat');
  });

  it('refuses what is not a POST to one of the payload endpoints, with a message that says why', () => {
    refused(`curl ${ROOT}/v1/models`, /GET \/v1\/models/);
    refused(`curl -X POST ${ROOT}/v1/files -F purpose=batch -F file=@data.jsonl`, /Upload File/);
    refused(`curl -X POST ${ROOT}/v1/files -d '{}'`, /multipart.*Upload File/);
    refused(`curl -X POST ${ROOT}/v1/completions -d '{}'`, /\/v1\/completions is not one of/);
    refused(`curl -X PUT ${ROOT}/v1/chat -d '{}'`, /PUT/);
    refused(`curl -X POST ${ROOT}/v1/chat -d @body.json`, /from a file/);
    refused(`curl -X POST ${ROOT}/v1/chat -d '{"a":'`, /not valid JSON/);
    refused(`curl -X POST ${ROOT}/v1/chat -d '[1]'`, /not an object/);
    refused(`curl -X POST ${ROOT}/v1/chat -d '{"a":1}`, /quote is not closed/);
    refused(`wget ${ROOT}/v1/chat`, /not a curl command/);
    refused(`curl -X POST -H "Authorization: Bearer ${KEY}" -d '{}'`, /no URL/);
    refused(`curl -X POST https://user:${KEY}@h.example/chat -d '{}'`, /not one of/);
  });

  it('other credentials (-u, api-key headers, cookies) are dropped with a note that never repeats them', () => {
    const r = ok(
      `curl ${ROOT}/v1/chat -u me:${KEY} -H 'api-key: ${KEY}' -H 'X-Trace: 1' -H 'Cookie: s=${KEY}' -d '{"model":"m"}'`,
    );
    assert.equal(r.notes.length, 4);
    assert.ok(!JSON.stringify(r).includes(KEY));
  });

  it('a malformed credential header (no colon) is named, never repeated; nor is anything that is not a header name', () => {
    const r = ok(
      `curl ${ROOT}/v1/chat -H 'Authorization Bearer ${KEY}' -H 'Bearer${KEY}' -H '${KEY}' -H '<${KEY}>: x' -d '{"model":"m"}'`,
    );
    assert.ok(!JSON.stringify(r).includes(KEY), JSON.stringify(r.notes));
    assert.ok(!JSON.stringify(r).includes(KEY.slice(3, 15)), 'no part of the key either');
    const malformed = 'A header that is not written as "Name: value" was left out; it is not repeated here.';
    assert.deepEqual(r.notes, [
      'The Authorization header was dropped: the extension sends your stored API key itself.',
      malformed,
      malformed,
      malformed,
    ]);
    // A colon later in the value (the key may hold one) does not make a piece of the value a header name.
    const colon = ok(`curl ${ROOT}/v1/chat -H 'Authorization Bearer sk-part:rest' -H 'Note this-word: x' -d '{}'`);
    assert.ok(!JSON.stringify(colon.notes).includes('sk-part'), JSON.stringify(colon.notes));
    assert.ok(!JSON.stringify(colon.notes).includes('this-word'), JSON.stringify(colon.notes));
    assert.deepEqual(colon.notes, [
      'The Authorization header was dropped: the extension sends your stored API key itself.',
      malformed,
    ]);
  });

  it('what Copy as Code writes for bash and PowerShell imports back to the same endpoint and body', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.boolean(), (body, env) => {
        const request = { serviceRoot: env ? undefined : ROOT, endpoint: '/v1/chat' as const, body };
        const bash = ok(curlBash(request));
        assert.equal(bash.endpoint, '/v1/chat');
        assert.deepEqual(JSON.parse(bash.json), JSON.parse(JSON.stringify(body)));
        // The PowerShell snippet pipes $body; its curl line with the body inlined is what a person pastes.
        const ps = curlPowerShell(request);
        const bodyLine = ps.split('\n').find((l) => l.startsWith('$body = '))!;
        const inlined = ps
          .slice(ps.indexOf('$body | ') + '$body | '.length)
          .replace("'@-'", () => bodyLine.slice('$body = '.length));
        const imported = ok(inlined);
        assert.deepEqual(JSON.parse(imported.json), JSON.parse(JSON.stringify(body)));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws, whatever is pasted', () => {
    const pieces = fc.constantFrom(
      'curl',
      ' ',
      '-d',
      '-H',
      '-X',
      'POST',
      '--json',
      "'",
      '"',
      '`',
      '\\',
      '\n',
      '$',
      '{',
      '}',
      '/v1/chat',
      'https://h/v1/responses',
      '@',
      '=',
      '--url',
      '-sSXPOST',
      '|',
      '#',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.array(pieces).map((a) => a.join('')),
        ),
        fc.option(fc.webUrl()),
        (text, root) => {
          const r = importCurl(text, root ?? undefined);
          assert.equal(typeof r.ok, 'boolean');
        },
      ),
      { numRuns: 2000 },
    );
  });

  const message = (text: string, root: string | undefined = ROOT) => {
    const r = importCurl(text, root);
    return r.ok ? `imported ${r.endpoint}` : r.message;
  };
  const body = `'{"model":"m","input":"a"}'`;

  it('says what is missing or wrong: a value, a body, one URL, a method, a body that is not an object', () => {
    assert.equal(message(`curl ${ROOT}/v1/responses -d`), 'The option -d has no value.');
    assert.equal(message(`curl ${ROOT}/v1/responses --data`), 'The option --data has no value.');
    assert.equal(
      message(`curl -X POST ${ROOT}/v1/responses`),
      'This curl command sends no body (-d, --data, --data-raw or --json).',
    );
    assert.equal(
      message(`curl -d ${body} ${ROOT}/v1/responses ${ROOT}/v1/chat`),
      'This curl command has more than one URL; import one request at a time.',
    );
    assert.match(
      message(`curl -G -d ${body} ${ROOT}/v1/responses`),
      /^This command is GET \/v1\/responses; a payload is sent with POST/,
    );
    assert.match(message(`curl --get -d ${body} ${ROOT}/v1/responses`), /^This command is GET /);
    assert.equal(
      message(`curl -d ${body} https://x.example/other`),
      "POST a URL without /v1/ is not one of the service's endpoints for payloads (/v1/responses, /v1/chat, /v1/embeddings).",
    );
    assert.match(message(`curl -X GET https://x.example/other`), /^This command is GET a URL without \/v1\/; /);
    assert.equal(
      message(`curl -d '[1]' ${ROOT}/v1/responses`),
      'The body is JSON but not an object; the service expects a JSON object.',
    );
    assert.equal(
      message(`curl -d 'null' ${ROOT}/v1/responses`),
      'The body is JSON but not an object; the service expects a JSON object.',
    );
    assert.equal(
      message(`curl -d '"text"' ${ROOT}/v1/responses`),
      'The body is JSON but not an object; the service expects a JSON object.',
    );
    assert.equal(message(`wget ${ROOT}/v1/responses`), 'This is not a curl command: it should start with curl.');
    assert.equal(
      message(`mycurl -d ${body} ${ROOT}/v1/responses`),
      'This is not a curl command: it should start with curl.',
    );
    assert.equal(message(`curl.exe -d ${body} ${ROOT}/v1/responses`), 'imported /v1/responses');
    assert.equal(message(`  $   curl -d ${body} ${ROOT}/v1/responses`), 'imported /v1/responses');
  });

  it('joins several -d bodies with & as curl does, and --json ones as they are', () => {
    assert.match(message(`curl -d '{"model":' -d '"m"}' ${ROOT}/v1/responses`), /^The body is not valid JSON/);
    assert.equal(message(`curl --json '{"model":' --json '"m"}' ${ROOT}/v1/responses`), 'imported /v1/responses');
    assert.equal(message(`curl -d '{"model":' --json '"m"}' ${ROOT}/v1/responses`), 'imported /v1/responses');
    assert.match(message(`curl --data @body.json ${ROOT}/v1/responses`), /read from a file \(--data @…\)/);
    assert.equal(
      message(`curl --data-raw '@{"a":1}' ${ROOT}/v1/responses`).startsWith('The body is not valid JSON'),
      true,
    );
  });

  it('notes the headers it leaves out by name, and the query string; Content-Type and Accept go silently', () => {
    const notes = (text: string) => {
      const r = importCurl(text, ROOT);
      assert.ok(r.ok, r.ok ? '' : r.message);
      return r.notes;
    };
    assert.deepEqual(
      notes(`curl -H 'Content-Type: application/json' -H 'accept: */*' -H ':' -d ${body} ${ROOT}/v1/responses`),
      [],
    );
    assert.deepEqual(notes(`curl -H ' X-Trace : 1' -H 'Content-Type-Extra: x' -d ${body} ${ROOT}/v1/responses`), [
      'The X-Trace header was left out: a payload holds only the JSON body.',
      'The Content-Type-Extra header was left out: a payload holds only the JSON body.',
    ]);
    assert.deepEqual(notes(`curl -d ${body} "${ROOT}/v1/responses?stream=true"`), [
      'The query string of the URL was left out.',
    ]);
    assert.deepEqual(notes(`curl -u user:pw -d ${body} ${ROOT}/v1/responses`), [
      'The -u option was dropped: the extension sends your stored API key itself.',
    ]);
    assert.deepEqual(notes(`curl -d ${body} ${ROOT.toUpperCase()}/v1/responses`), []);
    assert.deepEqual(notes(`curl -d ${body} https://models.example.com/v1/responses`), [
      'The command named another server; the payload is sent to the service you configured.',
    ]);
    assert.deepEqual(notes(`curl -d ${body} http://models.example.com/api/v1/responses`), [
      'The command named another server; the payload is sent to the service you configured.',
    ]);
    assert.deepEqual(importCurl(`curl -d ${body} https://a.example/v1/responses`, `${ROOT}//`).ok && [], []);
  });

  it('reads --option=value, long options it does not know, and -sS bundles before a value', () => {
    assert.equal(
      message(`curl --header=X-A:1 --max-time 5 --data=${body} ${ROOT}/v1/responses`),
      'imported /v1/responses',
    );
    assert.equal(message(`curl -sSd ${body} ${ROOT}/v1/responses`), 'imported /v1/responses');
    assert.equal(message(`curl -o out.json -d ${body} ${ROOT}/v1/responses`), 'imported /v1/responses');
    assert.equal(message(`curl "" -d ${body} ${ROOT}/v1/responses`), 'imported /v1/responses');
    assert.equal(
      message(`curl - -d ${body} ${ROOT}/v1/responses`),
      'This curl command has more than one URL; import one request at a time.',
    );
    assert.match(message(`curl -F file=@x.jsonl ${ROOT}/v1/files`), /uploads a form/);
  });

  it('finds curl by its own word only, and reads a command with no service configured', () => {
    assert.equal(
      message(`curlie -d ${body} ${ROOT}/v1/responses`),
      'This is not a curl command: it should start with curl.',
    );
    assert.equal(message(`$ curl -d ${body} ${ROOT}/v1/responses`), 'imported /v1/responses');
    assert.equal(message(`CURL.EXE -d ${body} ${ROOT}/v1/responses`), 'imported /v1/responses');
    // No service configured: the path from its /v1 segment, and no note about another server.
    const r = importCurl(`curl -d ${body} https://elsewhere.example/v1/responses`, undefined);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual([r.endpoint, r.notes], ['/v1/responses', []]);
  });

  it('a header named like Content-Type or Accept but longer is still noted; an empty quoted word is no URL', () => {
    const r = importCurl(`curl -H 'X-Content-Type: a' -H 'X-Accept: b' " " -d ${body} ${ROOT}/v1/responses`, ROOT);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(r.notes, [
      'The X-Content-Type header was left out: a payload holds only the JSON body.',
      'The X-Accept header was left out: a payload holds only the JSON body.',
    ]);
  });

  it('a long option without a value does not take the next word; --url takes one, also as --url=', () => {
    assert.equal(message(`curl --compressed -d ${body} ${ROOT}/v1/responses`), 'imported /v1/responses');
    assert.equal(message(`curl -d ${body} --url ${ROOT}/v1/chat`), 'imported /v1/chat');
    assert.equal(message(`curl -d ${body} --url=${ROOT}/v1/embeddings`), 'imported /v1/embeddings');
  });

  it('the configured service’s own URL is recognised whole: a prefix with /v1 in it, trailing slashes, any case', () => {
    const root = 'https://gateway.example/v1/team';
    const r = importCurl(`curl -d ${body} https://GATEWAY.example/V1/team/v1/chat`, root);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual([r.endpoint, r.notes], ['/v1/chat', []]);
    // Another server's bare /v1 is read as the path /v1, which is no payload endpoint: said as such.
    assert.match(
      message(`curl -d ${body} https://other.example/v1`),
      /^POST \/v1 is not one of the service's endpoints/,
    );
    const slashes = importCurl(`curl -d ${body} ${ROOT}/v1/responses`, `${ROOT}//`);
    assert.ok(slashes.ok, slashes.ok ? '' : slashes.message);
    assert.deepEqual(slashes.notes, [], 'the same service, whatever slashes end its configured URL');
  });
});
