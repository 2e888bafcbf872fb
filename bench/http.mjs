// The benchmarks' HTTP client for the Worker on 127.0.0.1: keep-alive node:http, lighter than
// fetch, so the numbers are more the Worker's own.
import http from 'node:http';

/**
 * A `request(base, method, path, body?)` that sends `body` as JSON with the bearer token and
 * resolves to `{ status, body, ms, calls, objects }` (`calls` and `objects`: the keys mode's
 * `x-simprint-subrequests` and `x-simprint-objects` headers, NaN elsewhere);
 * `request.close()` drops its kept-alive sockets. `keepAlive: false` opens a connection per
 * request: a reused connection whose request runs for more than about four seconds (a
 * 1,000-document batch into an object answering from SQLite does) is lost between Node and
 * local workerd, now and then ("socket hang up" here, a broken pipe in workerd's log when it
 * answers); on a fresh connection it was not, in every run tried.
 */
export function client({ maxSockets, authorization, keepAlive = true }) {
  const agent = new http.Agent({ keepAlive, maxSockets });
  const request = (base, method, path, body) => {
    return new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const t0 = performance.now();
      const req = http.request(
        new URL(path, base),
        {
          method,
          agent,
          headers: {
            authorization,
            ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode,
              body: Buffer.concat(chunks).toString(),
              ms: performance.now() - t0,
              calls: Number(res.headers['x-simprint-subrequests']),
              objects: Number(res.headers['x-simprint-objects']),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  };
  request.close = () => agent.destroy();
  return request;
}
