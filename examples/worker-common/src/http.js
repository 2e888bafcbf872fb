// Answers: an error that is an HTTP response, JSON bodies, method checks, boolean query flags.

/** An error that becomes an HTTP response: `status` and a JSON body `{ error: message }`. */
export class HttpError extends Error {
  constructor(status, message, headers) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
  }
}

/** A JSON response. */
export const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

/** The answer for any error: an HttpError as itself, anything else as a logged 500. */
export function errorResponse(err) {
  if (err instanceof HttpError) return json({ error: err.message }, err.status, err.headers);
  console.error('simprint worker:', err?.stack ?? err);
  return json({ error: `internal error: ${err?.message ?? String(err)}` }, 500);
}

/** Throws 405 (with Allow) unless the request's method is one of `methods`. */
export function allow(request, methods) {
  if (!methods.includes(request.method)) {
    throw new HttpError(
      405,
      `method ${request.method} not allowed here; use ${methods.join(' or ')}`,
      {
        allow: methods.join(', '),
      },
    );
  }
}

/** A boolean query parameter: absent, 0 or false is false; present, 1 or true is true. */
export function queryFlag(url, name) {
  const v = url.searchParams.get(name);
  if (v === null || v === '0' || v === 'false') return false;
  if (v === '' || v === '1' || v === 'true') return true;
  throw new HttpError(400, `${name} must be 1, true, 0 or false`);
}

/** `429` with Retry-After (whole seconds), or `413` for a cost no wait can pay (see limiter.js). */
export function tooMany(seconds) {
  if (seconds === Infinity) {
    return new HttpError(
      413,
      'this request costs more tokens than RATE_LIMIT_BURST holds; send fewer documents at once',
    );
  }
  return new HttpError(429, `too many requests for this tenant; retry after ${seconds} s`, {
    'retry-after': String(seconds),
  });
}
