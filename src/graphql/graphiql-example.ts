/**
 * GraphiQL's first query: one request walks organisation → its people → the articles about them. A test executes
 * this text against the schema, so it stays valid as the graph grows.
 */
export const graphiqlExampleQuery = `# One request walks the graph: organisations, their current
# executives, and the articles about each of them.
# Put your token in the Headers tab below, then press Run (Ctrl-Enter).
query OrganisationPeopleArticles {
  organisations(first: 2) {
    totalCount {
      value
      isEstimate
    }
    edges {
      node {
        name
        status
        currentExecutives {
          title
          profile {
            fullName
            articles(first: 2) {
              edges {
                node {
                  article {
                    title
                    publishedAt
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
`;

/** The Authorization header GraphiQL starts with; the placeholder is replaced by the reader's own token. */
export const graphiqlHeaders = JSON.stringify({ Authorization: 'Bearer <your orgr_ token>' }, null, 2);
