import type { Plugin } from 'graphql-yoga';

/** Yoga answers these statuses with an empty body; clients get the same GraphQL error shape as for every other refusal. */
const explanations: Record<number, { code: string; message: string }> = {
  415: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message:
      'Send the operation as JSON (Content-Type: application/json) in a POST, or as query parameters in a GET.',
  },
  406: {
    code: 'NOT_ACCEPTABLE',
    message: 'The graph answers application/graphql-response+json or application/json; accept one of them.',
  },
};

/** Fills the empty bodies of Yoga's 415 and 406 answers with a GraphQL error that says what to send. */
export function useExplainedRefusals(): Plugin {
  return {
    onResponse({ response, setResponse, fetchAPI }) {
      const explanation = explanations[response.status];
      if (!explanation || response.body !== null) return;
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('Content-Type', 'application/json; charset=utf-8');
      const body = JSON.stringify({
        errors: [{ message: explanation.message, extensions: { code: explanation.code } }],
      });
      setResponse(new fetchAPI.Response(body, { status: response.status, headers }));
    },
  };
}
