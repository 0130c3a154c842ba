import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

describe('GraphQL over HTTP', () => {
  it('passes every graphql-http server audit that the specification makes a MUST', async () => {
    const audits = serverAudits({
      url: 'http://orgraph.test/graphql',
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        return app.request(new URL(request.url).pathname + new URL(request.url).search, {
          method: request.method,
          headers: request.headers,
          body: request.method === 'GET' ? undefined : request.body,
          duplex: 'half',
        } as RequestInit);
      },
    });
    const failures: string[] = [];
    let passed = 0;
    for (const audit of audits) {
      const result = await audit.fn();
      if (result.status === 'error') failures.push(`${audit.name}: ${result.reason}`);
      if (result.status === 'ok') passed += 1;
    }
    expect(failures).toEqual([]);
    expect(passed).toBeGreaterThan(20);
  });
});
