import type { Plugin } from 'graphql-yoga';
import { answerForCode, type ErrorCode } from '../../http/errors.ts';

/** Yoga answers these statuses with an empty body; clients get the same GraphQL error shape as for every other refusal. */
const codeByStatus: Record<number, ErrorCode> = { 415: 'UNSUPPORTED_MEDIA_TYPE', 406: 'NOT_ACCEPTABLE' };

/** Fills the empty bodies of Yoga's 415 and 406 answers with a GraphQL error that says what to send. */
export function useExplainedRefusals(): Plugin {
  return {
    onResponse({ response, setResponse, fetchAPI }) {
      const code = codeByStatus[response.status];
      if (!code || response.body !== null) return;
      const { message } = answerForCode(code);
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('Content-Type', 'application/json; charset=utf-8');
      const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
      setResponse(new fetchAPI.Response(body, { status: response.status, headers }));
    },
  };
}
