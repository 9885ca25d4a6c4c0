// The /v1 API with the signed-in user's token: the same requests any client sends, so tenancy and roles are the API's.

let bearer = null;
let onSignedOut = () => {};

export function authorize(token, signedOut) {
  bearer = token;
  onSignedOut = signedOut;
}

/** A refusal of the API: its status and problem document (type slug, title, detail, violations). */
export class ApiProblem extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.slug = (this.problem.type || '').split('/').pop();
  }

  /** One line for the status area: the title, the detail and each violation. */
  describe() {
    const violations = (this.problem.violations || []).map((v) => `${v.field}: ${v.message}`).join('; ');
    return [this.problem.title || `HTTP ${this.status}`, this.problem.detail, violations].filter(Boolean).join(' — ');
  }
}

/** A path from a template, each value escaped as one segment: path('/v1/items/{sku}', {sku}). */
export function path(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(values[name]));
}

/** A new key for one intent: every attempt at the same intent sends the same key (docs/api.md, Idempotency-Key). */
export function newKey() {
  return crypto.randomUUID();
}

/**
 * One request. Options: body (sent as JSON), key (sent as Idempotency-Key), ifMatch, query (object; empty values
 * left out). Resolves to {status, etag, replayed, body}; an answer of 4xx or 5xx rejects with an ApiProblem.
 */
export async function call(method, url, { body, key, ifMatch, query } = {}) {
  const headers = { Accept: 'application/json', Authorization: `Bearer ${bearer}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (key) headers['Idempotency-Key'] = `"${key}"`;
  if (ifMatch) headers['If-Match'] = ifMatch;
  const answer = await fetch(url + search(query), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = await readJson(answer);
  if (answer.status === 401) onSignedOut();
  if (!answer.ok) throw new ApiProblem(answer.status, parsed);
  return {
    status: answer.status, etag: answer.headers.get('ETag'), replayed: answer.headers.get('Idempotent-Replayed') === 'true',
    body: parsed,
  };
}

/** The answer's JSON; an answer that is not JSON (a proxy's error page) gives null, never an exception. */
async function readJson(answer) {
  const text = await answer.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function search(query) {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
