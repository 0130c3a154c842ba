/** Documents that walk the graph deep, shared by the tests that run one read two ways and compare the answers. */

export const nestedRoles = /* GraphQL */ `
  query NestedRoles($first: Int!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges {
        node {
          name
          currentExecutives { ...Role }
          currentProfessionals { ...Role }
          alumni { ...Role }
        }
      }
    }
  }
  fragment Role on OrganisationRole {
    title startDate endDate
    profile { fullName experiences { occupationTitle organisation { name } } }
  }
`;

export const nestedArticles = /* GraphQL */ `
  query NestedArticles($first: Int!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges {
        node {
          name
          currentExecutives {
            title
            profile {
              fullName
              experiences { occupationTitle organisation { name } }
              articles(first: 5) {
                edges { node { article { title } about { summary text } by { summary text } } }
              }
            }
          }
          currentProfessionals { profile { fullName experiences { organisation { name } } } }
          alumni { profile { fullName } }
        }
      }
    }
  }
`;

/** Aliases, fragments on interfaces, directives, fields read by reference and whole rows, a second level of people. */
export const everything = /* GraphQL */ `
  query Everything($first: Int!, $withHistory: Boolean!, $skipAlumni: Boolean!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      totalCount { value }
      pageInfo { hasNextPage endCursor }
      edges {
        cursor
        node {
          __typename
          ... on Node { id }
          reference sizeBand relationships { customers partners }
          scores { dimension score }
          bosses: currentExecutives { __typename title profile { ...Person } }
          staff: currentProfessionals { startDate profile { reference fullName } }
          alumni @skip(if: $skipAlumni) { endDate profile { lastName ...Person } }
        }
      }
    }
  }
  fragment Person on Profile {
    id firstName linkedinUrl confidenceScore
    currentRole { occupationTitle }
    emails { value }
    experiences @include(if: $withHistory) {
      reference isCurrent startDate endDate occupation { name } profile { fullName }
      organisation {
        name status verified confidence isFund employees description
        currentExecutives { title profile { fullName } }
      }
      where: organisation { ... on Organisation { reference } }
    }
    experiences { occupationTitle }
  }
`;

export const executivesArticles = /* GraphQL */ `
  query ExecutivesArticles($first: Int!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges {
        node {
          name
          currentExecutives {
            profile { fullName experiences { organisation { name } } articles(first: 2) { edges { node { about { summary } } } } }
          }
        }
      }
    }
  }
`;

export const people = /* GraphQL */ `
  query People($first: Int!) {
    profiles(first: $first) {
      edges {
        node {
          fullName
          experiences { startDate isCurrent organisation { name alumni { title profile { fullName } } } }
        }
      }
    }
  }
`;

/** People's articles every way the plan reads them: aliases, fragments, both licences' texts, the page around. */
export const articlesEverywhere = /* GraphQL */ `
  query ArticlesEverywhere($first: Int!, $people: Int!, $articles: Int!, $collapse: Collapse!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges {
        node {
          name
          currentExecutives {
            profile {
              fullName
              articles(first: $articles, collapse: $collapse) {
                totalCount { value }
                pageInfo { hasNextPage }
                edges { node { article { title licence content } about { summary text } by { text } } }
              }
            }
          }
        }
      }
    }
    profiles(first: $people) {
      edges {
        node {
    fullName
    articles(first: $articles, collapse: $collapse) {
      totalCount { value isEstimate }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges {
        cursor
        node {
          __typename
          article { id reference title url publishedAt licence content offsetsUnit }
          events { __typename }
          about { ...Statement }
          by { ...Statement speaker { profile { fullName } } }
        }
      }
    }
    same: articles(first: $articles, collapse: $collapse) { edges { node { article { title } } } }
        }
      }
    }
  }
  fragment Statement on Annotation {
    id type summary text start end historyCount
    speaker { kind name role organisationName }
    subject { name role organisationName profile { reference } }
    article { title licence }
  }
`;

/** Articles filtered, read backwards and with their own statements, below organisations and the profiles list. */
export const articlesFiltered = /* GraphQL */ `
  query ArticlesFiltered($first: Int!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges {
        node {
          currentExecutives {
            profile {
              articles(last: 1, type: REVIEW, collapse: NONE) {
                totalCount { value }
                pageInfo { hasPreviousPage startCursor }
                edges {
                  cursor
                  node {
                    article { content annotations { summary text } }
                    about { summary text }
                    by { text historyCount }
                  }
                }
              }
            }
          }
        }
      }
    }
    profiles(first: 10) {
      edges { node { fullName articles(first: 2, role: BY) { totalCount { value } edges { node { by { summary text } } } } } }
    }
  }
`;

/** One person's articles asked with two sets of arguments, which the plan leaves to the loader. */
export const articlesTwoWays = /* GraphQL */ `
  query ArticlesTwoWays($first: Int!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges {
        node {
          currentExecutives {
            profile {
              fullName
              experiences { occupationTitle }
              about: articles(first: 3, role: ABOUT) { edges { node { about { summary text } } } }
              reviews: articles(first: 2, type: REVIEW) { edges { node { by { summary text } } } }
            }
          }
        }
      }
    }
  }
`;

/** The executives' history and the alumni's names: the history of the executives only. */
export const executivesHistory = /* GraphQL */ `
  query ExecutivesHistory($first: Int!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges {
        node {
          name
          currentExecutives { profile { reference fullName experiences { occupationTitle organisation { name } } } }
          alumni { title profile { reference fullName } }
        }
      }
    }
  }
`;
