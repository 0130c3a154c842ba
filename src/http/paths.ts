/** Where each part of the service answers; the pages, the router and the graph all read them from here. */
export const graphqlPath = '/graphql';
export const openApiPath = '/v1/openapi.json';
export const docsPath = '/docs';
