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
