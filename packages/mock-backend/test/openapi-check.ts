// Checks every request and answer against the OpenAPI document with Ajv, a JSON Schema validator
// nobody here wrote. Only the glue is ours: finding the operation of a request and the parts of the
// document that apply. Every rule it applies is read from the document, including the spec's quirks
// (`x-otto-when-invalid`, `x-otto-unknown-route`); nothing is waived here.
import type { OpenApiDocument } from '@otto/api-contract';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;
type MediaMap = Record<string, { schema?: Json }>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
  content?: MediaMap;
  'x-otto-when-invalid'?: 'ignore' | 'error';
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: MediaMap; 'x-otto-when-invalid'?: 'null' | 'error' };
  responses: Record<string, Json>;
}

/** What was checked, and every way a request or answer broke the document. */
export interface OpenApiCheck {
  /** Wraps a fetch function so that every exchange through it is checked. */
  wrap(fetchFn: (request: Request) => Promise<Response>): (request: Request) => Promise<Response>;
  /** One line per problem: `POST /api/customers → 200: body must have required property 'email'`. */
  readonly problems: string[];
  /** How many exchanges were checked, by operation (`GET /customers/{id}`, or `unknown route`). */
  readonly seen: Map<string, number>;
  /** Requests that broke the document on purpose, with what they got: `POST /api/customers → 200 (null): …`. */
  readonly invalidRequests: string[];
}

const docId = 'urn:otto:openapi';
const pointer = (...parts: string[]) => `${docId}#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
const mediaType = (header: string | null) => ((header ?? '').split(';')[0] ?? '').trim().toLowerCase();

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function createOpenApiCheck(document: OpenApiDocument): OpenApiCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(structuredClone(document) as object, docId);
  const compiled = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    let v = compiled.get(ref);
    if (!v) compiled.set(ref, (v = ajv.compile({ $ref: ref })));
    return v;
  };
  const errorsOf = (v: ValidateFunction, name: string) => ajv.errorsText(v.errors, { dataVar: name });

  const base = document.servers[0]?.url ?? '';
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, '(?<$1>[^/]+)')}$`),
  }));

  const resolve = (value: Json): Json => {
    const ref = value.$ref;
    if (typeof ref !== 'string') return value;
    const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((node, key) => (node as Json)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
    return { ...(target as Json), ...value, $ref: undefined };
  };

  const problems: string[] = [];
  const invalidRequests: string[] = [];
  const seen = new Map<string, number>();

  function findOperation(request: Request) {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(`${base}/`)) return undefined;
    const below = pathname.slice(base.length);
    for (const { template, pattern } of templates) {
      const match = pattern.exec(below);
      const method = request.method.toLowerCase();
      const operation = match && (document.paths[template]?.[method] as Operation | undefined);
      if (operation) return { template, method, operation, pathParams: match.groups ?? {} };
    }
    return undefined;
  }

  /** Problems with the request itself; a request may break the document on purpose (the kit tests errors). */
  function checkRequest(found: NonNullable<ReturnType<typeof findOperation>>, request: Request, body: string) {
    const { template, method, operation, pathParams } = found;
    const url = new URL(request.url);
    const broken: { why: string; whenInvalid?: string }[] = [];
    (operation.parameters ?? []).forEach((parameter, index) => {
      const where = pointer('paths', template, method, 'parameters', String(index));
      const raw = parameter.in === 'path' ? decoded(pathParams[parameter.name] ?? '') : parameter.in === 'query' ? url.searchParams.get(parameter.name) : null;
      if (raw === null) {
        if (parameter.required) broken.push({ why: `the ${parameter.in} parameter ${parameter.name} is missing` });
        return;
      }
      const invalid = (why: string) => broken.push({ why: `${parameter.name} ${why}`, ...(parameter['x-otto-when-invalid'] ? { whenInvalid: parameter['x-otto-when-invalid'] } : {}) });
      if (parameter.content) {
        const [type] = Object.keys(parameter.content);
        let value: unknown;
        try {
          value = JSON.parse(raw);
        } catch {
          return invalid(`is not ${type}`);
        }
        const v = validator(`${where}/content/${(type ?? '').replace('/', '~1')}/schema`);
        if (!v(value)) invalid(`breaks its schema: ${errorsOf(v, parameter.name)}`);
      } else if (parameter.schema) {
        const v = validator(`${where}/schema`);
        if (!v(raw)) invalid(`breaks its schema: ${errorsOf(v, parameter.name)}`);
      }
    });
    const requestBody = operation.requestBody;
    if (requestBody) {
      const type = mediaType(request.headers.get('content-type'));
      const whenInvalid = requestBody['x-otto-when-invalid'];
      if (body === '') {
        if (requestBody.required) broken.push({ why: 'the body is missing' });
      } else if (!requestBody.content[type]) {
        broken.push({ why: `the body is sent as "${type}", not ${Object.keys(requestBody.content).join(' or ')}` });
      } else {
        let value: unknown;
        try {
          value = JSON.parse(body);
        } catch {
          broken.push({ why: 'the body is not JSON' });
          return broken;
        }
        const v = validator(pointer('paths', template, method, 'requestBody', 'content', type, 'schema'));
        if (!v(value)) broken.push({ why: errorsOf(v, 'request body'), ...(whenInvalid ? { whenInvalid } : {}) });
      }
    }
    return broken;
  }

  function checkResponse(given: string, response: Json | undefined, answer: Response, text: string): string[] {
    if (!response) return ['the document gives no such status'];
    // A shared answer (`$ref`) is validated where it is defined.
    const where = typeof response.$ref === 'string' ? `${docId}${response.$ref}` : given;
    const resolved = resolve(response);
    const found: string[] = [];
    for (const [name, given] of Object.entries((resolved.headers as Record<string, Json> | undefined) ?? {})) {
      const header = resolve(given);
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required) found.push(`the ${name} header is missing`);
        continue;
      }
      const schema = header.schema as Json | undefined;
      const asNumber = schema?.type === 'integer' || schema?.type === 'number';
      const parsed = asNumber && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
      const v = ajv.compile(schema ?? {});
      if (!v(parsed)) found.push(`the ${name} header ${JSON.stringify(value)} breaks its schema: ${errorsOf(v, name)}`);
    }
    const content = resolved.content as MediaMap | undefined;
    if (!content) return text === '' ? found : [...found, 'the document gives no body for this status'];
    const type = mediaType(answer.headers.get('content-type'));
    if (!content[type]) return [...found, `the body is "${type}", not ${Object.keys(content).join(' or ')}`];
    let value: unknown = text;
    if (type === 'application/json') {
      try {
        value = JSON.parse(text);
      } catch {
        return [...found, 'the body is not JSON'];
      }
    }
    const v = validator(`${where}/content/${type.replace('/', '~1')}/schema`);
    if (!v(value)) found.push(errorsOf(v, 'body'));
    return found;
  }

  async function check(request: Request, requestBody: string, answer: Response): Promise<void> {
    const text = await answer.text();
    const found = findOperation(request);
    const label = `${request.method} ${new URL(request.url).pathname} → ${answer.status}`;
    const report = (issues: string[]): void => {
      problems.push(...issues.map((issue) => `${label}: ${issue}`));
    };
    if (!found) {
      seen.set('unknown route', (seen.get('unknown route') ?? 0) + 1);
      const unknown = document['x-otto-unknown-route'];
      if (answer.status !== unknown.status) return report([`a request that matches no operation must get ${unknown.status}`]);
      return report(checkResponse('', unknown.response, answer, text));
    }
    const key = `${found.method.toUpperCase()} ${found.template}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    const status = String(answer.status);
    const responses = found.operation.responses;
    const response = responses[status] ?? responses.default;
    const where = pointer('paths', found.template, found.method, 'responses', responses[status] ? status : 'default');
    const issues = checkResponse(where, response, answer, text);
    const broken = checkRequest(found, request, requestBody);
    if (broken.length > 0) {
      invalidRequests.push(`${label}${text.trim() === 'null' ? ' (null)' : ''}: ${broken.map((b) => `${b.why}${b.whenInvalid ? ` [${b.whenInvalid}]` : ''}`).join('; ')}`);
      // A request breaking the document must get one of its documented 4xx answers, unless the
      // document says otherwise: an ignored filter, or the spec's 200 with null for a bad body.
      const ignored = broken.every((b) => b.whenInvalid === 'ignore');
      const nullAnswer = broken.every((b) => b.whenInvalid === 'null' || b.whenInvalid === 'ignore');
      const is4xx = answer.status >= 400 && answer.status < 500;
      if (!ignored && !is4xx && !(nullAnswer && answer.status === 200 && text.trim() === 'null')) {
        issues.push(`the request breaks the document (${broken.map((b) => b.why).join('; ')}) but got neither a documented 4xx nor the answer the document gives it`);
      }
    }
    report(issues);
  }

  return {
    problems,
    seen,
    invalidRequests,
    wrap(fetchFn) {
      return async (request) => {
        const requestBody = request.body ? await request.clone().text() : '';
        const answer = await fetchFn(request);
        await check(request, requestBody, answer.clone());
        return answer;
      };
    },
  };
}
